"""The journal's own time, on which pictures age: a clock put right cannot move it.

The wall clock dates games for people, and it can step. A Raspberry Pi has no clock
that runs while it is off (a Pi 5's needs a battery): it starts at the time it last
saved, or at 1970, until the network sets it, and anybody may set it by hand to a
wrong year. Taken at face value, a game played while the clock was 200 days behind
would have its pictures pruned as soon as the clock was put right, and a clock set
years ahead would prune every game's pictures at once.

So pictures age on the journal's own time, the *table time*: in the wall clock's
units and starting from it, but moved on only by what the journal can vouch for:

- while a companion runs, and from one companion to the next on the same boot, by the
  machine's boot clock (`CLOCK_BOOTTIME`, which nobody sets and which counts time
  suspended): exact, whatever the wall clock does meanwhile;
- across a restart of the machine, by what the wall clock says passed, from nothing
  (a clock behind) to at most `MOST_OFF` (a day: a night switched off counts, a clock
  found months ahead does not).

Each game keeps the table time of its last change (`games.table_time`) and its
pictures age from there; the journal keeps its last reading of both clocks in its one
`clock` row, written with each change. A journal that has none yet (a new one, or one
from an older companion) starts its table time at the wall clock, but never more than
`MOST_OFF` after its newest game.
"""

import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]
"""Where the journal gets the date from (UTC); tests give a fixed one."""

MOST_OFF = timedelta(days=1)
"""The most table time that a restart of the machine adds, whatever the wall clock says."""

KEEP_EVERY_SECONDS = 3600.0
"""How often an idle journal notes its time (in the pruning's own transaction), so that
a long idle spell before a power cut is counted too."""

BOOT_ID = "/proc/sys/kernel/random/boot_id"
"""Where Linux gives the id of the current boot."""

TRUSTED = ""
"""The boot noted by a journal whose clock was trusted never to step (a test's calendar)."""

_PROCESS_BOOT = f"process-{uuid.uuid4()}"
"""The boot of a machine that tells none: this process alone (readings of another
process count as another boot)."""


def utc_now() -> datetime:
    """The time now, in UTC."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """A time as the journal stores it: ISO 8601 in UTC, to the second (so that stored
    times sort as text)."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class BootTime:
    """A reading of the machine's boot clock."""

    boot: str
    """The boot it was read in: readings of two boots cannot be compared."""
    seconds: float
    """Seconds since that boot; never set, never stepped."""


def boot_time() -> BootTime:
    """The boot clock now: Linux's `CLOCK_BOOTTIME` with the kernel's boot id; elsewhere
    the monotonic clock, as a boot of this process alone."""
    try:
        with open(BOOT_ID, encoding="ascii") as file:
            boot = file.read().strip()
        return BootTime(boot, time.clock_gettime(time.CLOCK_BOOTTIME))
    except (OSError, AttributeError, ValueError):
        return BootTime(_PROCESS_BOOT, time.monotonic())


@dataclass(frozen=True)
class TableClock:
    """The two clocks a journal reads: the date for people, and a clock that cannot step."""

    wall: Clock = utc_now
    """The calendar: the dates people read (a game's start, a round's confirmation)."""
    steady: Callable[[], BootTime] | None = boot_time
    """The clock that cannot step, on which table time runs; None to take `wall` as
    never stepping (a test's calendar, a benchmark making a year of games)."""
    most_off: timedelta = MOST_OFF
    """The most table time a restart of the machine adds."""

    @classmethod
    def of(cls, clock: "Clock | TableClock") -> "TableClock":
        """A table clock as given, or a plain clock taken as never stepping."""
        return clock if isinstance(clock, TableClock) else cls(wall=clock, steady=None)


@dataclass(frozen=True)
class KeptTime:
    """The journal's last reading of its clocks, as kept in its `clock` row."""

    boot: str
    """The boot the reading was made in (`TRUSTED` for a calendar trusted not to step)."""
    seconds: float
    """The boot clock then."""
    wall: datetime
    """The wall clock then."""
    table: datetime
    """The table time then."""


class TableTime:
    """The table time of an open journal: from its kept reading, on by the boot clock."""

    def __init__(self, clock: TableClock, kept: KeptTime | None, newest: datetime | None) -> None:
        """Take up the time where `kept` left it (see the module); `newest` is when the
        journal's newest game was last changed, for a journal that kept no reading."""
        self.clock = clock
        wall = clock.wall()
        self._start = None if clock.steady is None else clock.steady()
        self._table = (
            wall if self._start is None else _resumed(clock, self._start, wall, kept, newest)
        )
        self.kept_seconds: float | None = None
        """The boot clock when this journal last kept its time, if it has."""

    def now(self) -> datetime:
        """The table time now."""
        if self.clock.steady is None or self._start is None:
            return self.clock.wall()
        return self._table + timedelta(seconds=max(0.0, self._seconds() - self._start.seconds))

    def reading(self) -> KeptTime:
        """What to keep of the clocks now."""
        if self.clock.steady is None or self._start is None:
            wall = self.clock.wall()
            return KeptTime(TRUSTED, 0.0, wall, wall)
        seconds = self._seconds()
        table = self._table + timedelta(seconds=max(0.0, seconds - self._start.seconds))
        return KeptTime(self._start.boot, seconds, self.clock.wall(), table)

    def due(self) -> bool:
        """Whether an idle journal should keep its time again (`KEEP_EVERY_SECONDS`)."""
        if self.clock.steady is None:
            return False
        return (
            self.kept_seconds is None or self._seconds() - self.kept_seconds >= KEEP_EVERY_SECONDS
        )

    def keep(self, conn: sqlite3.Connection) -> str:
        """Keep the reading now in the journal's `clock` row, inside the writer's
        transaction; returns the table time as stored."""
        found = self.reading()
        conn.execute(
            "INSERT OR REPLACE INTO clock (id, boot, since_boot, wall, table_time) "
            "VALUES (1, ?, ?, ?, ?)",
            (found.boot, found.seconds, stamp(found.wall), stamp(found.table)),
        )
        self.kept_seconds = found.seconds if found.boot != TRUSTED else None
        return stamp(found.table)

    def _seconds(self) -> float:
        steady = self.clock.steady
        return 0.0 if steady is None else steady().seconds


def _resumed(
    clock: TableClock,
    here: BootTime,
    wall: datetime,
    kept: KeptTime | None,
    newest: datetime | None,
) -> datetime:
    """The table time at opening: on by the boot clock since the kept reading on the
    same boot, else by the wall clock's own difference, from none to `most_off`."""
    if kept is not None and kept.boot == TRUSTED:  # the calendar was trusted: so is the wall
        return wall
    if kept is None:
        return wall if newest is None else min(wall, newest + clock.most_off)
    if kept.boot == here.boot and here.seconds >= kept.seconds:
        return kept.table + timedelta(seconds=here.seconds - kept.seconds)
    return kept.table + min(max(wall - kept.wall, timedelta(0)), clock.most_off)


def kept_time(conn: sqlite3.Connection) -> KeptTime | None:
    """The journal's kept reading, if it has one that can be read (a damaged one is
    none: the table time then starts again from the wall clock)."""
    try:
        row = conn.execute(
            "SELECT boot, since_boot, wall, table_time FROM clock WHERE id = 1"
        ).fetchone()
        if row is None:
            return None
        boot, seconds, wall, table = row
        return KeptTime(str(boot), float(seconds), _time(wall), _time(table))
    except (sqlite3.Error, ValueError, TypeError, UnicodeDecodeError):
        return None


def newest_change(conn: sqlite3.Connection) -> datetime | None:
    """When the newest game played here (not imported) last changed, by its stored times."""
    row = conn.execute(
        "SELECT max(coalesce(table_time, finished_at, started_at)) FROM games "
        "WHERE imported IS NULL"
    ).fetchone()
    try:
        return None if row is None or row[0] is None else _time(row[0])
    except (ValueError, TypeError):
        return None


def _time(value: object) -> datetime:
    moment = datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        raise ValueError(f"a time without its zone: {value!r}")
    return moment.astimezone(UTC)


def opened_time(conn: sqlite3.Connection, clock: TableClock) -> TableTime:
    """The table time of a journal just opened to write (its newest game looked for only
    when it kept no reading: every start takes the same time, whatever the journal holds)."""
    kept = kept_time(conn)
    return TableTime(clock, kept, newest_change(conn) if kept is None else None)
