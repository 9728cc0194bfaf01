"""OpenCV sources: a video file written here, a device that is not there, a device that fails."""

import re
from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
import pytest

from companion.errors import (
    CameraLostError,
    CameraUnavailableError,
    SettingError,
    SourceEndedError,
)
from companion.sources.opencv import OpenCVSource

LEVELS = (30, 90, 150, 210)
"""The grey level of each frame of the test video."""


@pytest.fixture
def video(tmp_path: Path) -> Path:
    """A 64x48 MJPG video of four flat frames, one per level of LEVELS."""
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 5.0, (64, 48))
    assert writer.isOpened()
    for level in LEVELS:
        writer.write(np.full((48, 64, 3), level, np.uint8))
    writer.release()
    return path


def test_a_video_file_is_read_frame_by_frame_then_ends(video: Path) -> None:
    with OpenCVSource(video) as source:
        frames = [source.read() for _ in LEVELS]
        with pytest.raises(
            SourceEndedError, match=re.escape(f"video {video}: ended after 4 frames")
        ):
            source.read()
    assert all(frame.shape == (48, 64, 3) and frame.dtype == np.uint8 for frame in frames)
    assert [float(frame.mean()) for frame in frames] == pytest.approx(LEVELS, abs=3)
    assert source.description == f"video {video}, 64x48"


def test_a_video_path_may_be_given_as_text(video: Path) -> None:
    with OpenCVSource(str(video)) as source:
        assert source.read().shape == (48, 64, 3)


def test_a_missing_video_file_cannot_be_opened(tmp_path: Path) -> None:
    missing = tmp_path / "missing.mp4"
    with pytest.raises(
        CameraUnavailableError, match=re.escape(f"video {missing}: no such video file")
    ):
        OpenCVSource(missing)


def test_a_file_that_is_not_a_video_cannot_be_opened(tmp_path: Path) -> None:
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"this is not a video file at all" * 10)
    with pytest.raises(CameraUnavailableError, match=re.escape(f"video {junk}: ")):
        OpenCVSource(junk).read()


def test_a_video_file_keeps_its_recorded_size(video: Path) -> None:
    with pytest.raises(SettingError, match="keep their recorded size"):
        OpenCVSource(video, (640, 480))


def test_a_device_that_is_not_there_cannot_be_opened() -> None:
    with pytest.raises(CameraUnavailableError, match="camera 99: cannot be opened"):
        OpenCVSource(99)


def test_closing_twice_is_harmless_and_reading_after_is_refused(video: Path) -> None:
    source = OpenCVSource(video)
    source.close()
    source.close()
    with pytest.raises(CameraLostError, match="closed"):
        source.read()


class FlakyCapture:
    """Stands in for cv2.VideoCapture on a device: records settings, fails after some frames."""

    made: ClassVar[list["FlakyCapture"]] = []
    frames_before_failure = 2

    def __init__(self, device: int) -> None:
        self.device = device
        self.settings: dict[int, float] = {}
        self.delivered = 0
        self.released = False
        FlakyCapture.made.append(self)

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.settings.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.delivered == self.frames_before_failure:
            return False, None
        self.delivered += 1
        return True, np.zeros((4, 6, 3), np.uint8)

    def release(self) -> None:
        self.released = True


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> type[FlakyCapture]:
    FlakyCapture.made = []
    FlakyCapture.frames_before_failure = 2
    monkeypatch.setattr(cv2, "VideoCapture", FlakyCapture)
    return FlakyCapture


def test_a_device_asks_for_fresh_frames_and_the_size_requested(flaky: type[FlakyCapture]) -> None:
    source = OpenCVSource(0, (1280, 720))
    (capture,) = flaky.made
    assert capture.settings == {
        cv2.CAP_PROP_BUFFERSIZE: 1,
        cv2.CAP_PROP_FRAME_WIDTH: 1280,
        cv2.CAP_PROP_FRAME_HEIGHT: 720,
    }
    assert source.description == "camera 0, 1280x720"


def test_frames_are_handed_on_as_delivered(flaky: type[FlakyCapture]) -> None:
    source = OpenCVSource(0)
    frame = source.read()
    assert frame.shape == (4, 6, 3) and frame.dtype == np.uint8


def test_a_device_that_stops_delivering_is_lost(flaky: type[FlakyCapture]) -> None:
    source = OpenCVSource(3)
    source.read()
    source.read()
    with pytest.raises(CameraLostError, match=r"camera 3: stopped delivering frames after 2"):
        source.read()
    source.close()
    assert flaky.made[0].released


def test_a_device_that_never_delivers_is_unavailable(flaky: type[FlakyCapture]) -> None:
    flaky.frames_before_failure = 0
    with pytest.raises(CameraUnavailableError, match="camera 0: opened, but delivers no frames"):
        OpenCVSource(0).read()
