"""Two tiers of type, measured in millimetres on the screen.

What every player must read from the seat, 1.5 m away (the headline, a problem that
blocks scoring, who the table waits for, each player's name, total and round points,
the winner) is `Tier.SEAT`: a capital at least 4 mm high. Details (the reasons behind
points, captions, small print) are `Tier.DETAIL`: a capital at least 2 mm high.
Neither is ever cut short; details that do not fit leave the table's screen for the
phone page.

Every line of text the screen draws goes through `paint.line`, which reports it here
when a `recording` is open: its words, its tier (the innermost `tier` block around
the drawing), the height of its capitals and whether it was cut. Tests read the
record instead of the pixels.
"""

import enum
import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from companion.display import fonts


class Tier(enum.Enum):
    """How far away a text must read."""

    SEAT = "seat"
    """From any seat at the table."""
    DETAIL = "detail"
    """From close by, leaning in."""


CAP_MM: dict[Tier, float] = {Tier.SEAT: 4.0, Tier.DETAIL: 2.0}
"""The least height of a capital of each tier on the glass, in millimetres."""


@functools.lru_cache(maxsize=64)
def least_px(tier: Tier, mm_per_px: float) -> int:
    """The smallest size (line height in pixels) whose capitals are `CAP_MM` of `tier`
    high on a screen of pixels `mm_per_px` wide."""
    px = 4
    while fonts.cap_height(px) * mm_per_px < CAP_MM[tier] and px < 1000:
        px += 1
    return px


@dataclass(frozen=True)
class Drawn:
    """One line of text as drawn."""

    words: str
    """What it was to say."""
    shown: str
    """What it says on the screen (ends in an ellipsis when it was cut)."""
    px: int
    """The size it was drawn at."""
    cap_px: int
    """How high its capitals are, in pixels."""
    tier: Tier
    """Its tier."""
    cut: bool
    """Whether some of it was left out (ellipsized or clipped)."""


_RECORD: ContextVar[list[Drawn] | None] = ContextVar("typescale_record", default=None)
_TIER: ContextVar[Tier] = ContextVar("typescale_tier", default=Tier.DETAIL)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """A record of every line drawn inside the block (parts kept drawn from an earlier
    frame are drawn again meanwhile, so that they report)."""
    record: list[Drawn] = []
    token = _RECORD.set(record)
    try:
        yield record
    finally:
        _RECORD.reset(token)


def is_recording() -> bool:
    """Whether a `recording` is open."""
    return _RECORD.get() is not None


@contextmanager
def tier(kind: Tier) -> Iterator[None]:
    """Text drawn inside the block is of tier `kind`."""
    token = _TIER.set(kind)
    try:
        yield
    finally:
        _TIER.reset(token)


def current() -> Tier:
    """The tier of text drawn now."""
    return _TIER.get()


def report(words: str, shown: str, px: int, cut: bool) -> None:
    """Note a line drawn at `px`, when recording."""
    record = _RECORD.get()
    if record is None or not fonts.clean(words).strip():
        return
    record.append(Drawn(words, shown, px, fonts.cap_height(px), _TIER.get(), cut))
