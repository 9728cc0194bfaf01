"""A guarded camera: reads that hang or show black become `CameraLostError`, never a
frozen loop; errors pass through; a replay is read one frame per request."""

import threading

import numpy as np
import pytest

from companion.errors import CameraLostError, SettingError, SourceEndedError
from companion.sources.base import Frame, FrameSource
from companion.sources.guarded import BLACK_MEAN, GuardedSource, is_black

STALL = 60.0
"""Seconds a guarded read may take in the tests whose reads all return: they return at
once, so a deadline this generous costs nothing and no loaded machine misses it."""
HANG = 0.2
"""Seconds the guarded read that hangs waits: short, since its test waits it out."""


def grey(level: int) -> Frame:
    return np.full((48, 64, 3), level, np.uint8)


class ScriptedSource(FrameSource):
    """Frames, errors or a hang, in order; records reads and the thread that closed it."""

    description = "scripted camera"

    def __init__(self, *steps: Frame | Exception | threading.Event) -> None:
        self.steps = list(steps)
        self.reads = 0
        self.closed_by: str | None = None

    def read(self) -> Frame:
        self.reads += 1
        step = self.steps.pop(0)
        if isinstance(step, threading.Event):
            step.wait()
            return grey(120)
        if isinstance(step, Exception):
            raise step
        return step

    def close(self) -> None:
        self.closed_by = threading.current_thread().name


def test_frames_come_through_one_read_per_request() -> None:
    source = ScriptedSource(grey(100), grey(110), grey(120))
    with GuardedSource(source, STALL) as guarded:
        assert int(guarded.read()[0, 0, 0]) == 100
        assert int(guarded.read()[0, 0, 0]) == 110
        assert source.reads == 2, "a replay is not read ahead"
        assert guarded.description == "scripted camera"


def test_a_hanging_read_becomes_a_lost_camera_and_later_reads_fail_at_once() -> None:
    hang = threading.Event()
    source = ScriptedSource(hang)
    guarded = GuardedSource(source, HANG)
    try:
        with pytest.raises(CameraLostError, match=r"scripted camera: no frame for 0\.2 s"):
            guarded.read()
        with pytest.raises(CameraLostError, match=r"no frame for 0\.2 s"):
            guarded.read()
        assert source.reads == 1, "the stuck read still holds the camera"
        guarded.close()
        assert source.closed_by is None, "closing does not wait for the stuck read"
    finally:
        hang.set()
    guarded._worker.join(timeout=STALL)
    assert not guarded._worker.is_alive()
    assert source.closed_by is not None and source.closed_by.startswith("frames from")


def test_black_frames_are_a_lost_camera_and_a_dim_table_is_not() -> None:
    source = ScriptedSource(grey(0), grey(int(BLACK_MEAN) + 20), grey(3))
    with GuardedSource(source, STALL) as guarded:
        with pytest.raises(CameraLostError, match="the picture is black"):
            guarded.read()
        assert int(guarded.read()[0, 0, 0]) == int(BLACK_MEAN) + 20
        with pytest.raises(CameraLostError, match="lens covered"):
            guarded.read()


def test_black_frames_can_be_handed_on_for_a_check_that_counts_them() -> None:
    with GuardedSource(ScriptedSource(grey(0)), STALL, refuse_black=False) as guarded:
        assert int(guarded.read().max()) == 0


def test_a_black_frame_is_told_by_its_mean_not_its_darkest_pixel() -> None:
    frame = grey(0)
    frame[::2] = 60
    assert not is_black(frame)
    assert is_black(grey(9))
    assert is_black(np.zeros((0, 0, 3), np.uint8))


def test_errors_of_the_source_pass_through_unchanged() -> None:
    ended = SourceEndedError("folder frames/: no more frames")
    lost = CameraLostError("camera 0 gave no frame")
    source = ScriptedSource(lost, grey(100), ended)
    with GuardedSource(source, STALL) as guarded:
        with pytest.raises(CameraLostError) as caught:
            guarded.read()
        assert caught.value is lost
        guarded.read()
        with pytest.raises(SourceEndedError):
            guarded.read()


def test_closing_closes_the_source_once_on_its_worker_and_reads_then_fail() -> None:
    source = ScriptedSource(grey(100))
    guarded = GuardedSource(source, STALL)
    guarded.close()
    guarded.close()
    assert source.closed_by is not None and source.closed_by.startswith("frames from")
    assert not guarded._worker.is_alive()
    with pytest.raises(CameraLostError, match="closed"):
        guarded.read()


def test_a_deadline_must_be_positive() -> None:
    with pytest.raises(SettingError, match="stall_seconds must be positive"):
        GuardedSource(ScriptedSource(), 0)
