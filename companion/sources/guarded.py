"""A camera that cannot hang the game: every read has a deadline and a picture check.

A camera can fail without raising: a loose ribbon cable or a camera stack that has
lost its sensor leaves `read` waiting for ever, and a covered lens or a dying
sensor hands out black frames. Either would freeze the screen or feed the reader
nothing but empty tables. `GuardedSource` wraps any source: reads happen on a worker
thread of its own, one at a time and only when asked (a replay is never read
ahead), and the loop waits at most `STALL_SECONDS` for each. A read that misses the
deadline or a frame that is black raises `CameraLostError`, which the loop treats
like any failed camera: the game goes on by hand while the camera is opened again.
"""

import contextlib
import queue
import threading
from typing import Final

import numpy as np

from companion.errors import CameraLostError, CompanionError, SettingError
from companion.phrases import phrase
from companion.sources.base import Frame, FrameSource

STALL_SECONDS = 3.0
"""How long a read may take before the camera counts as stalled: a Camera Module 3
gives a full-resolution frame every tenth of a second, a USB camera within one."""
BLACK_MEAN = 10.0
"""Mean brightness (0 to 255) below which a frame counts as black: a lit table is far
brighter, a capped lens or a dead sensor is not."""
BLACK_SAMPLE_STEP = 8
"""Every how many pixels the black check looks (a sixty-fourth of the frame)."""

_CLOSE: Final = object()
"""The worker's request to close the source and end."""
_READ: Final = object()
"""The worker's request to read one frame."""


def is_black(frame: Frame) -> bool:
    """True when the frame shows nothing: a covered lens, a sensor that gives zeros."""
    sample = frame[::BLACK_SAMPLE_STEP, ::BLACK_SAMPLE_STEP]
    return sample.size == 0 or float(np.mean(sample)) < BLACK_MEAN


class GuardedSource(FrameSource):
    """Another source, read on a worker thread with a deadline and a black-frame check."""

    def __init__(
        self, source: FrameSource, stall_seconds: float = STALL_SECONDS, refuse_black: bool = True
    ) -> None:
        if not stall_seconds > 0:
            raise SettingError(f"stall_seconds must be positive, not {stall_seconds}")
        self.source = source
        self.description = source.description
        self.stall_seconds = stall_seconds
        self.refuse_black = refuse_black
        """Whether a black frame is a lost camera (the game), or handed on (the doctor,
        which reports how many came black)."""
        self._requests: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[Frame | Exception] = queue.SimpleQueue()
        self._stalled = False
        self._closed = False
        self._worker = threading.Thread(
            target=self._work, name=f"frames from {source.description}", daemon=True
        )
        self._worker.start()

    def read(self) -> Frame:
        """The next frame within `stall_seconds`; `CameraLostError` if there is none or it
        is black. Once stalled, every read fails at once (the stuck read still holds
        the source) until the loop opens the camera again."""
        if self._closed:
            raise CameraLostError(phrase("{source}: the camera is closed", source=self.description))
        stalled = phrase(
            "{source}: no frame for {seconds} s (is the camera cable loose?)",
            source=self.description,
            seconds=f"{self.stall_seconds:g}",
        )
        if self._stalled:
            raise CameraLostError(stalled)
        self._requests.put(_READ)
        try:
            outcome = self._results.get(timeout=self.stall_seconds)
        except queue.Empty:
            self._stalled = True
            raise CameraLostError(stalled) from None
        if isinstance(outcome, Exception):
            raise outcome
        if self.refuse_black and is_black(outcome):
            raise CameraLostError(
                phrase(
                    "{source}: the picture is black (is the lens covered, or the camera failing?)",
                    source=self.description,
                )
            )
        return outcome

    @property
    def stuck(self) -> bool:
        """A read missed its deadline and has still not returned."""
        return self._stalled and self._worker.is_alive()

    def close(self) -> None:
        """Let the source go, on the worker thread: a source stuck in a read is closed
        when (if ever) that read returns, and the loop does not wait for it."""
        if self._closed:
            return
        self._closed = True
        self._requests.put(_CLOSE)
        if not self._stalled:
            self._worker.join(timeout=self.stall_seconds)

    def _work(self) -> None:
        """Read when asked, hand back the frame or the error, close when told."""
        while self._requests.get() is _READ:
            try:
                self._results.put(self.source.read())
            except Exception as error:  # handed to the reading thread, raised there
                self._results.put(error)
        with contextlib.suppress(CompanionError, OSError):  # nobody is left to tell
            self.source.close()
