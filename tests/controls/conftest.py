"""Rigs of the controls tests."""

from collections.abc import Iterator

import pytest

from companion.controls import mock_spidev
from companion.controls.mock_spidev import MockSpiDev


@pytest.fixture
def fake_spidev() -> Iterator[type[MockSpiDev]]:
    """A stand-in spidev module, fresh for each test; the class is its `SpiDev`, with the
    list of devices opened."""
    with mock_spidev.installed() as device:
        yield device
