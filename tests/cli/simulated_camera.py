"""`python -m tests.cli.simulated_camera COMMAND...`: the companion's command line with
one more kind of frame source, `sim`: a camera over the simulated table's empty
small board that never runs out of frames (at about 50 a second, as a camera paces
its reads).

At its first frame it writes one line to the file descriptor named by
`$COMPANION_TEST_READY_FD`, if set (a pipe the test holds), so a test knows, without guessing
a time, that the command is reading the camera (`companion calibrate --source sim`
settling its exposure, say) before it sends a signal.
"""

import os
import time

from companion.cli import entry_point
from companion.sources import registry
from companion.sources.base import Frame, FrameSource
from tests.vision.scenes import empty_frame

READY_FD = "COMPANION_TEST_READY_FD"
"""The environment variable naming the descriptor the first frame is announced on."""
SCHEME = "sim"
"""The `--source` word of this camera."""
FRAME_SECONDS = 0.02
"""Time one read takes, as a camera's frame rate paces it."""


class SimulatedCamera(FrameSource):
    """The empty board, frame after frame, announced once on the ready descriptor."""

    description = "the simulated table's camera"

    def __init__(self) -> None:
        self.frame = empty_frame().image
        self.announced = False

    def read(self) -> Frame:
        time.sleep(FRAME_SECONDS)
        if not self.announced and READY_FD in os.environ:
            self.announced = True
            fd = int(os.environ[READY_FD])
            os.write(fd, b"reading\n")
            os.close(fd)
        return self.frame.copy()

    def close(self) -> None:
        """Nothing is held."""


def _open(_argument: str, _profile: object) -> FrameSource:
    return SimulatedCamera()


if __name__ == "__main__":
    registry.SOURCE_KINDS = (
        *registry.SOURCE_KINDS,
        registry.SourceKind(SCHEME, SCHEME, _open),
    )
    entry_point()
