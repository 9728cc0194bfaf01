"""Suite-wide settings: every test has a time limit, and hardware tests run only where
the hardware is."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.purity import is_pure
from tests.screens import RecordingScreen

ON_HARDWARE = os.environ.get("COMPANION_HARDWARE") == "1"
"""Set COMPANION_HARDWARE=1 on a Raspberry Pi with the camera, buttons and strip wired."""

# Hypothesis's per-example deadline is a wall-clock limit, which tests do not assert:
# on a busy machine (the suite on every core) an example that takes 300 ms is not a
# fault. Each test's own time limit (below) still stops one that hangs.
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

SLOW_TEST_SECONDS = 1800
"""The time limit of a test marked `slow` (whole simulated games) that names none of its
own; every other test has the `timeout` of pyproject.toml. It only stops a test that
hangs, so it is far above what the slowest takes on a loaded machine: the demo kills
took about 6 minutes with both cores busy, and a machine slower still must not fail."""


@pytest.fixture(autouse=True)
def _not_under_a_service_manager(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run as if started by hand, even when the shell that runs them was started
    by systemd: `companion play` under a notify socket shows wrong options on a screen
    until it is stopped. A test that wants the service manager passes its own."""
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run slow tests first, with their longer time limit, skip tests marked
    `hardware` unless COMPANION_HARDWARE=1, and mark `pure_python` the tests of modules
    that run the same on the Pi's versions (`tests.purity`).

    Slow tests go first so that, spread over the cores, the run does not end with one
    core still busy with a long test while the other has finished.
    """
    skip = pytest.mark.skip(reason="needs Pi hardware; set COMPANION_HARDWARE=1 on a wired Pi")
    items.sort(key=lambda item: "slow" not in item.keywords)
    for item in items:
        if "slow" in item.keywords and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(SLOW_TEST_SECONDS))
        if "hardware" in item.keywords and not ON_HARDWARE:
            item.add_marker(skip)
        if is_pure(item.path):
            item.add_marker(pytest.mark.pure_python)


@pytest.fixture
def recording_screen() -> Iterator[RecordingScreen]:
    """A headless screen that keeps every view it is shown, closed after the test."""
    with RecordingScreen() as screen:
        yield screen
