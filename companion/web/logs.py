"""The page's log kept readable under a flood: the first of each kind of message, then
one a minute with how many like it were held back.

A stranger can make the server fail the same way thousands of times a minute (a
connection turned away, an `accept()` without a file descriptor to give): written
out each time, with a traceback, that is hundreds of megabytes of log a minute on a
Pi's card. `Repeats` lets the first through whole, holds back the rest for
`WINDOW_SECONDS`, then lets one through again saying how many it held back (without
the traceback the first had).
"""

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

WINDOW_SECONDS = 60.0
"""How long messages like one just written are held back."""
KINDS_KEPT = 256
"""Kinds of message remembered (the oldest forgotten beyond)."""
LOGGERS = (
    "asyncio",
    "uvicorn",
    "uvicorn.error",
    "companion.runtime.effects",
    "companion.web.connections",
    "companion.web.live",
    "companion.web.staff",
    "companion.web.throttle",
)
"""The loggers a stranger's requests can make write: the server's event loop,
uvicorn, and the page's own."""


@dataclass
class _Held:
    since: float
    """When the last message of the kind was let through."""
    count: int = 0
    """How many like it were held back since."""


class Repeats(logging.Filter):
    """Lets through the first message of each kind (logger, level and the message's
    first line, before its values), then one a window with the count held back."""

    def __init__(
        self, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.window = window
        self._clock = clock
        self._held: dict[tuple[str, int, str], _Held] = {}
        self.held_back = 0
        """Messages held back since the start."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether `record` is written (a summary of those held back, when it is)."""
        kind = (record.name, record.levelno, str(record.msg).partition("\n")[0][:200])
        now = self._clock()
        held = self._held.get(kind)
        if held is not None and now - held.since < self.window:
            held.count += 1
            self.held_back += 1
            return False
        self._held.pop(kind, None)
        self._held[kind] = _Held(now)
        while len(self._held) > KINDS_KEPT:
            del self._held[next(iter(self._held))]
        if held is not None and held.count:
            record.msg = (
                f"{record.getMessage()} (and {held.count} more like it "
                f"in the last {now - held.since:.0f} s)"
            )
            record.args = None
            record.exc_info = record.exc_text = None
        return True


@contextmanager
def quieted(names: tuple[str, ...] = LOGGERS) -> Iterator[Repeats]:
    """`Repeats` on the named loggers while the block runs."""
    repeats = Repeats()
    loggers = [logging.getLogger(name) for name in names]
    for logger in loggers:
        logger.addFilter(repeats)
    try:
        yield repeats
    finally:
        for logger in loggers:
            logger.removeFilter(repeats)
