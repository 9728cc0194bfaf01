"""The journal opened to write: one writer at a time, its transactions, its time, its numbers.

The café must never lose a game, so every public write is exactly one `BEGIN
IMMEDIATE` … `COMMIT` on a file kept in WAL mode with `synchronous=FULL` (see
`file`): a round, its scores and its pictures go in together or not at all, whenever
the power goes or the process is killed. A journal has one writer at a time (see
`lock`): a second companion on the same file is refused instead of abandoning the
first one's game.

`JournalWriter` is what every job of the writer shares; the jobs are apart: playing
(`store`, the `Journal`), recovery (`recovery`), restoring salvaged games
(`restoring`), importing game files (`imports`), pruning pictures (`pruning`) and
mending the list's lines (`mending`).
"""

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from os import PathLike

from companion.errors import JournalCorruptError, JournalError
from companion.journal.archive_file import Open, open_archive
from companion.journal.clock import (
    Clock,
    KeptTime,
    TableClock,
    TableTime,
    opened_time,
    stamp,
)
from companion.journal.file import JournalFile, make_room, open_writer, suspect_path
from companion.journal.lock import WriterLock
from companion.journal.place import real_journal

SYSTEM_CLOCK = TableClock()
"""The machine's clocks: the wall clock for dates, the boot clock for table time."""


class JournalWriter(JournalFile):
    """A journal file opened to write under its writer lock, with the journal's time."""

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        create: bool = True,
        clock: Clock | TableClock = SYSTEM_CLOCK,
        lock: WriterLock | None = None,
    ) -> None:
        """Open the journal at `path` to write, creating it (and its folders) unless
        `create` is False, and hold its writer lock until `close`. Its real file is
        opened and locked, whatever links `path` goes through (see `place`).

        `clock` gives the dates and the table time on which pictures age (`clock`); a
        plain function giving the date is taken as never stepping (tests).

        `lock` is the lock already taken on `path` (by `open_or_recover`, which holds it
        through a recovery); the journal then owns it once opened. Raises
        `JournalInUseError` while another process writes the journal,
        `JournalCorruptError` for a damaged file, `NotAJournalError` for one that is not
        a journal (`LinkedJournalError` for a file with a second name),
        `UnwritableFileError` where no journal can be written, and
        `UnreadableFileError` for a missing file when `create` is False.
        """
        self._clock = TableClock.of(clock)
        path = real_journal(path)
        make_room(path, create)
        self._lock = WriterLock(path) if lock is None else lock
        try:
            super().__init__(path)
        except BaseException:
            if lock is None:
                self._lock.close()
            raise
        try:
            with self.transaction("reading the journal's time") as conn:
                self._time = opened_time(conn, self._clock)
        except BaseException:
            JournalFile.close(self)  # the lock is its giver's to let go
            if lock is None:
                self._lock.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        return open_writer(self.path)

    @contextmanager
    def transaction(self, doing: str, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction, as a reader's; damage met in it (a page the start does not
        check: a round's, a picture's, the free pages') leaves a mark beside the journal,
        so that the next start checks every page and salvages the journal if need be."""
        try:
            with super().transaction(doing, write=write) as conn:
                yield conn
        except JournalCorruptError:
            with suppress(OSError):
                suspect_path(self.path).touch()
            raise

    def close(self) -> None:
        """Close the file and let go of the writer lock; closing again does nothing."""
        super().close()
        self._lock.close()

    def keep_time(self, conn: sqlite3.Connection) -> str:
        """Keep the journal's time (`clock`) inside the writer's transaction; returns the
        table time a game's change is stamped with."""
        return self._time.keep(conn)

    def time_due(self) -> bool:
        """Whether an idle journal should keep its time again (`clock`)."""
        return self._time.due()

    def go_on_from(self, time: KeptTime) -> None:
        """Take up the table time from another journal's last reading of its clocks (a
        damaged one, salvaged into this one), so that its games' times keep their meaning."""
        self._time = TableTime(self._clock, time, None)

    def table_now(self) -> datetime:
        """The journal's own time now, on which pictures age: it follows the boot clock,
        not the wall clock, so that a clock put right does not age them (see `clock`)."""
        return self._time.now()

    def date_now(self) -> str:
        """The date now, as stored for people to read."""
        return stamp(self._clock.wall())

    @contextmanager
    def unsynced(self) -> Iterator[None]:
        """Transactions in the block are committed without syncing the card: for work
        that a power cut may undo, to be done again (pruning, mending lines)."""
        conn = self._conn
        if conn is not None:
            conn.execute("PRAGMA synchronous = NORMAL")
        try:
            yield
        finally:
            if conn is not None and conn is self._conn:
                conn.execute("PRAGMA synchronous = FULL")

    def room_inside(self) -> int:
        """Bytes of free pages inside the file (left by pruned pictures), which the next
        pictures fill before the file grows."""
        with self.transaction("measuring the room inside the journal") as conn:
            (pages,) = conn.execute("PRAGMA freelist_count").fetchone()
            (size,) = conn.execute("PRAGMA page_size").fetchone()
        return int(pages) * int(size)

    def next_game_number(self, conn: sqlite3.Connection) -> int:
        """The number of a new game: after every game of the journal and of the archive
        beside it, so that a journal started afresh (a damaged one moved aside) never
        gives an archived game's number to another game. An archive that cannot be read
        is left out, so that the table plays on: the doctor, `history` and the phone page
        say it is damaged."""
        newest = self.newest(conn) or 0
        return max(newest, _archived_newest(self)) + 1


def _archived_newest(journal: JournalFile) -> int:
    """The newest game number in the archive beside the journal; 0 while there is
    none, and for one that cannot be read."""
    state = open_archive(journal.path)
    if not isinstance(state, Open):
        return 0
    with state.file as archive:
        try:
            with archive.transaction("reading the archive's newest game") as conn:
                return archive.newest(conn) or 0
        except JournalError:
            return 0
