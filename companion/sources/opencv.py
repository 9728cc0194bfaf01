"""A USB or V4L2 camera, or a recorded video, read through OpenCV.

A table recorded on video replays exactly like the live camera, so a café's bad
evening can be run again at a desk. Devices keep a one-frame buffer: the reader wants
the table as it is now, not as it was a few frames ago while hands were still over it.
"""

from pathlib import Path

import cv2
import numpy as np

from companion.errors import (
    CameraLostError,
    CameraUnavailableError,
    SettingError,
    SourceEndedError,
)
from companion.phrases import plural
from companion.sources.base import Frame, FrameSource

DEVICE_BUFFER_FRAMES = 1
"""Frames a device may queue up; one, so every read is as fresh as the device allows."""


class OpenCVSource(FrameSource):
    """A camera by device index (0 = /dev/video0), or a video file by path."""

    def __init__(self, device: int | str | Path, size: tuple[int, int] | None = None) -> None:
        self.is_file = not isinstance(device, int)
        """Whether frames come from a video file (which ends) rather than a device."""
        self.name = f"video {device}" if self.is_file else f"camera {device}"
        """The device or file, as error messages name it."""
        self._frames = 0
        if isinstance(device, int):
            capture = cv2.VideoCapture(device)
        else:
            path = Path(device)
            if size is not None:
                raise SettingError(f"{self.name}: a video file's frames keep their recorded size")
            if not path.is_file():
                raise CameraUnavailableError(f"{self.name}: no such video file")
            capture = cv2.VideoCapture(str(path))
        if not capture.isOpened():
            capture.release()
            kind = "not a video that can be read" if self.is_file else "cannot be opened"
            raise CameraUnavailableError(f"{self.name}: {kind}")
        if not self.is_file:
            capture.set(cv2.CAP_PROP_BUFFERSIZE, DEVICE_BUFFER_FRAMES)
            if size is not None:
                capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
                capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._capture: cv2.VideoCapture | None = capture
        width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        self.description = f"{self.name}, {width}x{height}"

    def read(self) -> Frame:
        """The next frame as the device or file delivers it (BGR)."""
        if self._capture is None:
            raise CameraLostError(f"{self.name}: read after the source was closed")
        ok, frame = self._capture.read()
        if ok and frame is not None:
            self._frames += 1
            return np.asarray(frame, np.uint8)
        if self._frames == 0:
            kind = "holds no frame that can be read" if self.is_file else "delivers no frames"
            raise CameraUnavailableError(f"{self.name}: opened, but {kind}")
        if self.is_file:
            raise SourceEndedError(
                plural(
                    "{name}: ended after {n} frame",
                    "{name}: ended after {n} frames",
                    self._frames,
                    name=self.name,
                )
            )
        raise CameraLostError(
            f"{self.name}: stopped delivering frames after {self._frames} (unplugged?)"
        )

    def close(self) -> None:
        """Let the device or file go."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None
