"""Rigs of the frame source tests."""

from collections.abc import Iterator

import pytest

from companion.sources import mock_picamera2
from companion.sources.mock_picamera2 import MockPicamera2


@pytest.fixture
def fake() -> Iterator[type[MockPicamera2]]:
    """Stand-ins for the picamera2 and libcamera modules, fresh for each test; the class
    is the camera class they offer, with the list of cameras opened."""
    with mock_picamera2.installed() as camera:
        yield camera
