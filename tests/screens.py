"""The headless screen that keeps every view it was shown, for tests of what the loop
draws (the `recording_screen` fixture of tests/conftest.py makes one per test)."""

import threading

from companion.display.screen import DisplayMode, Screen
from companion.display.view import ScreenView


class RecordingScreen(Screen):
    """The headless screen, keeping every view it was shown; a test whose loop runs on
    another thread waits for views with `wait_for_views`."""

    def __init__(self) -> None:
        super().__init__(mode=DisplayMode.HEADLESS)
        self.views: list[ScreenView] = []
        self._shown = threading.Condition()

    def show(self, view: ScreenView) -> None:
        with self._shown:
            self.views.append(view)
            self._shown.notify_all()
        super().show(view)

    def wait_for_views(self, count: int, timeout: float) -> bool:
        """Whether `count` views have been shown, waiting up to `timeout` seconds."""
        with self._shown:
            return self._shown.wait_for(lambda: len(self.views) >= count, timeout)
