"""Rigs of the doctor's tests."""

from collections.abc import Iterator

import pytest

from companion.sources import mock_picamera2
from companion.sources.mock_picamera2 import MockPicamera2


class BrightCamera(MockPicamera2):
    """The stand-in camera module, giving small frames of a lit table."""

    sensor_size = (64, 48)
    frame_shape = (48, 64)
    frame_level = 128


@pytest.fixture
def camera_module() -> Iterator[type[MockPicamera2]]:
    """Stand-ins for picamera2 and libcamera with a camera of a lit table, fresh for each
    test."""
    with mock_picamera2.installed(BrightCamera) as camera:
        yield camera
