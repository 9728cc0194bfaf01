"""Suite-wide settings: hardware tests run only where the hardware is."""

import os

import pytest

ON_HARDWARE = os.environ.get("COMPANION_HARDWARE") == "1"
"""Set COMPANION_HARDWARE=1 on a Raspberry Pi with the camera, buttons and strip wired."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip tests marked `hardware` unless COMPANION_HARDWARE=1."""
    skip = pytest.mark.skip(reason="needs Pi hardware; set COMPANION_HARDWARE=1 on a wired Pi")
    for item in items:
        if "hardware" in item.keywords and not ON_HARDWARE:
            item.add_marker(skip)
