"""Keeping the journal the size of a year: old pictures pruned while the table is idle.

Scores, rounds and corrections are kept forever; the pictures that explain a round
are kept for a café's chosen number of days (90 by default) and then deleted, a game
at a time, between two steps of the loop while nobody waits on the table (never
during a proposal, the round editor or the question to give up). Each prune is one
short transaction of the journal (a game's pictures, a few MB at most), so a step
is never held up for long; the room it frees inside the file takes the next pictures
before the file grows. When the card runs short of room, the oldest games' pictures
go first whatever their age: a round's scores matter more than old evidence.

A picture's age is counted on the journal's own time (`Journal.table_now`), which a
clock put right does not move: a Pi that played with its clock 200 days behind keeps
that game's pictures when the network sets the clock, and a clock set years ahead
prunes nothing early (see `companion.journal.clock`).
"""

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from companion.errors import CompanionError, SettingError
from companion.journal import Journal
from companion.journal.pruning import WHATEVER_THEIR_AGE
from companion.session.states import Phase

KEEP_PICTURES_DAYS = 90
"""How long a round's pictures are kept by default: a season of disputes settled."""

PRUNE_EVERY_SECONDS = 2.0
"""Time between two prunes while there are games to prune: a year's backlog (after an
upgrade, or a changed setting) is cleared in an idle hour."""

REST_SECONDS = 60.0
"""Time before looking again once nothing is left to prune (or the journal failed): a
cheap look, often enough to make room soon after the card runs short."""

RESERVE_BYTES = 100_000_000
"""Free room (on the disk and inside the journal) under which the oldest pictures go
whatever their age: a few evenings of pictures."""

MEND_GAMES = 3
"""Games whose line of the list is looked at, and made anew if stale, per idle turn
with nothing to prune: a few milliseconds; a year of games written by an older
companion is mended in an idle hour."""

BUSY = frozenset({Phase.PROPOSAL, Phase.EDITING, Phase.ABANDONING})
"""Phases in which players wait on the table: nothing is pruned then, unless the card is
short of room."""


MOST_DAYS = 36_500
"""The longest time pictures may be kept: a century, which is "forever" at a café."""


@dataclass(frozen=True)
class Retention:
    """How long pictures are kept, and the room kept free."""

    keep_days: int = KEEP_PICTURES_DAYS
    """Days a finished game's pictures are kept (0: pruned as soon as the game ends)."""
    reserve_bytes: int = RESERVE_BYTES
    """Room under which the oldest pictures are pruned early."""


def check_keep_days(days: int) -> int:
    """The days pictures are kept, or `SettingError` for a number outside 0 to a century."""
    if not 0 <= days <= MOST_DAYS:
        raise SettingError(f"pictures are kept 0 to {MOST_DAYS} days, not {days}")
    return days


Room = Callable[[], int]
"""Free bytes on the disk that holds the journal."""


class Housekeeper:
    """Prunes the journal's pictures past their time, one game per call of `tick`."""

    def __init__(
        self,
        journal: Journal,
        retention: Retention = Retention(),
        *,
        wall: Callable[[], datetime] | None = None,
        room: Room | None = None,
    ) -> None:
        self.journal = journal
        self.retention = retention
        self.wall = wall or journal.table_now
        """The time now on the clock pictures age on: the journal's own time (UTC), never
        the wall clock, unless a test gives its own."""
        self.room = room or (lambda: shutil.disk_usage(journal.path.parent).free)
        self._next = 0.0
        self._mending: int | None = 0
        """The last game whose line was looked at; None once every game's has been, which
        is once per start (lines go stale only with a new companion, or damage)."""

    def tick(self, now: float, phase: Phase) -> int | None:
        """Prune one game's pictures if it is time and the table is idle, or whatever
        the table is doing when the card is short of room (a round refused for want of
        room waits at its proposal); returns the game pruned, if any. With nothing to
        prune, mend a few games' lines of the list instead. A journal that fails is left
        alone for a while: housekeeping must never stop a game."""
        if now < self._next:
            return None
        try:
            short = self._short_of_room()
            if phase in BUSY and not short:
                self._next = now + PRUNE_EVERY_SECONDS  # looked at again in a while, not every step
                return None
            cut = self.wall() - timedelta(days=min(self.retention.keep_days, MOST_DAYS))
            pruned = self.journal.prune_pictures(WHATEVER_THEIR_AGE if short else cut)
            if pruned is None and self._mending is not None:
                self._mending = self.journal.mend_lines(self._mending, MEND_GAMES)
            busy = pruned is not None or self._mending is not None
        except (CompanionError, OSError):
            pruned, busy = None, False
        self._next = now + (PRUNE_EVERY_SECONDS if busy else REST_SECONDS)
        return pruned

    def _short_of_room(self) -> bool:
        return self.room() + self.journal.room_inside() < self.retention.reserve_bytes
