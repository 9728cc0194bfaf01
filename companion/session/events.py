"""What happens to a session: the events its transitions take, as frozen records.

The loop turns frames, presses and the passing of time into these; a test can feed
them by hand. Every event carries the moment it happened, in the loop's seconds.
"""

from dataclasses import dataclass

from companion.actions import Press
from companion.phrases import Phrase
from companion.vision.records import TableObservation


@dataclass(frozen=True)
class Seen:
    """The stabiliser's latest view of the table."""

    observation: TableObservation
    """What lies where."""
    steady: bool
    """Whether it has held still long enough to be scored."""
    now: float
    """When."""
    blind: bool = False
    """Whether the frame missed most of the table (a camera hunting for focus, an arm
    over the board): no news, neither a reason to propose nor to confirm."""


@dataclass(frozen=True)
class Pressed:
    """A player's request, from a button, a key or a touch."""

    press: Press
    """What they asked for."""
    now: float
    """When."""


@dataclass(frozen=True)
class Ticked:
    """Time passed (the auto-confirm countdown runs on it)."""

    now: float
    """The time now."""


@dataclass(frozen=True)
class TableLost:
    """The camera failed: what it showed can no longer be trusted."""

    now: float
    """When."""


@dataclass(frozen=True)
class Said:
    """Something for the players to read for a few seconds (a part switched off, say)."""

    text: Phrase
    """The words."""
    now: float
    """When."""


@dataclass(frozen=True)
class Named:
    """A player's name typed elsewhere (the phone page) for the seat of a colour."""

    colour: str
    """The kit colour of the seat."""
    name: str
    """The name as typed (the session refuses one the table cannot seat: another
    seat's name, a line break); empty to go back to the colour's name."""
    now: float
    """When."""


Event = Seen | Pressed | Ticked | TableLost | Said | Named
"""Anything a session reacts to."""
