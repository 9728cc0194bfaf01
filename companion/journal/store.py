"""The journal's writer: every game and confirmed round, in a file a power cut cannot break.

The café must never lose a game, so every public write is exactly one `BEGIN
IMMEDIATE` … `COMMIT` on a file kept in WAL mode with `synchronous=FULL` (see
`file`): a round, its scores and its pictures go in together or not at all, whenever
the power goes or the process is killed. A journal has one writer at a time (see
`lock`): a second companion on the same file is refused instead of abandoning the
first one's game.

Scores are stored to explain a round as it was confirmed, never to be believed:
`load` replays the stored reveals through the rules engine, and a correction is the
rules engine's `Game.corrected` of the stored game, computed and written inside one
transaction.
"""

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from datetime import datetime
from os import PathLike
from pathlib import Path
from typing import Any

from companion.errors import (
    CompanionError,
    CorrectionError,
    DiskFullError,
    JournalCorruptError,
    JournalError,
    NothingToUndoError,
    SeatingError,
)
from companion.gamefile import GameRecord
from companion.journal import imports, lines, pruning
from companion.journal.clock import (
    Clock,
    KeptTime,
    TableClock,
    TableTime,
    opened_time,
    stamp,
    utc_now,
)
from companion.journal.documents import dumps, header_document, round_documents, score_columns
from companion.journal.file import (
    GameRow,
    JournalFile,
    check_whole,
    make_room,
    open_writer,
    suspect_path,
)
from companion.journal.history import archive_newest
from companion.journal.lock import WriterLock
from companion.journal.place import real_journal
from companion.journal.records import GameStatus, RestoredGame, RoundImages
from companion.journal.recovery import move_aside, recovery_message, salvage, salvaged_time
from companion.journal.restoring import write_restored
from companion.journal.rows import insert_round
from companion.rules import Game, Reveal
from companion.wording import rounds_played

SYSTEM_CLOCK = TableClock()
"""The machine's clocks: the wall clock for dates, the boot clock for table time."""

__all__ = ["Clock", "Journal", "TableClock", "stamp", "utc_now"]


class Journal(JournalFile):
    """The SQLite journal of games: open it, write rounds as they are confirmed, resume;
    and keep the next game's setup step by step."""

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

    @classmethod
    def open_or_recover(
        cls, path: str | PathLike[str], *, clock: Clock | TableClock = SYSTEM_CLOCK
    ) -> tuple["Journal", str | None]:
        """Open the journal; if it is damaged, move it aside and salvage it into a fresh one.

        Damaged means SQLite's check fails, or the game to resume cannot be read back
        (damage inside a round's text, which the check does not read).

        Returns the journal and, after a recovery, a message for the screen saying what
        was kept. Raises only when no journal can be written at `path` at all
        (`UnwritableFileError`), SQLite cannot run there (`JournalError`), or the file
        is not this companion's to use (`NotAJournalError`, `LinkedJournalError`).
        """
        path = real_journal(path)
        make_room(path, create=True)
        lock = WriterLock(path)
        try:
            journal, aside = cls._opened_or_moved_aside(path, clock, lock)
        except BaseException:
            lock.close()
            raise
        if aside is None:
            return journal, None
        try:
            saved = journal.restore(salvage(aside), salvaged_time(aside))
        except CompanionError as err:
            return journal, recovery_message(path, aside, None, err)
        return journal, recovery_message(path, aside, saved)

    @classmethod
    def _opened_or_moved_aside(
        cls, path: Path, clock: Clock | TableClock, lock: WriterLock
    ) -> tuple["Journal", Path | None]:
        """The journal opened, or a fresh one after moving the damaged file aside (and
        where it went), all under one writer lock so no other companion opens it between."""
        try:
            journal = cls(path, clock=clock, lock=lock)
        except JournalCorruptError:
            pass
        else:
            try:
                journal.resume()
                if suspect_path(path).exists():  # damage met in play: check every page now
                    with journal.transaction("checking the whole journal") as conn:
                        check_whole(conn, path)
                    suspect_path(path).unlink(missing_ok=True)
            except JournalCorruptError:  # damage the start's checks cannot see: a round's text
                JournalFile.close(journal)  # the file only: the lock is kept for the recovery
            except BaseException:
                journal.close()
                raise
            else:
                return journal, None
        aside = move_aside(path, TableClock.of(clock).wall())
        suspect_path(path).unlink(missing_ok=True)
        return cls(path, clock=clock, lock=lock), aside

    def start_game(self, game: Game, colours: Mapping[str, str]) -> int:
        """Store a new game (no rounds yet) and return its number.

        Any game still being played is marked abandoned in the same transaction.
        `colours` maps every player's name to their kit colour's name.
        """
        if game.played:
            raise JournalError(
                f"{self.path}: a game is stored before its first round, "
                f"and this one has {rounds_played(len(game.played))} played"
            )
        for player in colours:
            if player not in game.seating:
                raise SeatingError(f"colours: {player!r} is not one of the players")
        for player in game.seating.players:
            if player not in colours:
                raise SeatingError(f"colours: player {player!r} has no kit colour")
        now = self._now()
        with self.transaction("starting a game", write=True) as conn:
            table = self._time.keep(conn)
            conn.execute(
                "UPDATE games SET status = 'abandoned', table_time = ? WHERE status = 'playing'",
                (table,),
            )
            cursor = conn.execute(
                "INSERT INTO games (id, started_at, header, colours, status, table_time) "
                "VALUES (?, ?, ?, ?, 'playing', ?)",
                (
                    self._next_id(conn),
                    now,
                    dumps(header_document(game)),
                    dumps(dict(colours)),
                    table,
                ),
            )
            game_id = cursor.lastrowid
            if game_id is None:
                raise JournalError(f"{self.path}: SQLite gave no number to the new game")
            lines.keep(conn, game_id, game)
        return game_id

    def save_setup(self, step: str, draft: Mapping[str, Any]) -> None:
        """Keep the setup step just finished and the draft as it stands, replacing the
        last ones kept, so that a restart goes on from there (`saved_setup`)."""
        text = dumps(dict(draft))
        now = self._now()
        with self.transaction(f"keeping the setup step {step!r}", write=True) as conn:
            conn.execute(
                "INSERT OR REPLACE INTO setup (id, step, draft, saved_at) VALUES (1, ?, ?, ?)",
                (step, text, now),
            )

    def abandon_game(self, game_id: int) -> None:
        """Mark the game being played abandoned, so that `resume` no longer offers it; its
        rounds are kept. A finished or already abandoned game is refused."""
        with self.transaction(f"abandoning game {game_id}", write=True) as conn:
            row = self.game_row(conn, game_id)
            if row.status is not GameStatus.PLAYING:
                raise JournalError(
                    f"{self.path}: game {game_id} is {row.status.value}, so it cannot be abandoned"
                )
            conn.execute(
                "UPDATE games SET status = 'abandoned', table_time = ? WHERE id = ?",
                (self._time.keep(conn), game_id),
            )

    def commit_round(
        self,
        game_id: int,
        game: Game,
        *,
        frame: bytes | None = None,
        overlay: bytes | None = None,
    ) -> bool:
        """Store the last round of `game` (the game right after playing it) with its
        pictures; returns whether the pictures were kept.

        The round must be the next one of the stored game, and the rest of `game` must
        be the stored game; the game is marked finished when the round ended it. When
        the disk is too full for the pictures, the round is stored without them (and
        False returned): a round counts more than its evidence. When it is too full for
        the round itself, `DiskFullError` is raised and nothing is written.
        """
        images = RoundImages(frame, overlay)
        if frame is None and overlay is None:
            self._commit(game_id, game, images)
            return False
        try:
            self._commit(game_id, game, images)
        except DiskFullError:
            self._commit(game_id, game, RoundImages(None, None))
            return False
        return True

    def _commit(self, game_id: int, game: Game, images: RoundImages) -> None:
        number = len(game.played)
        doing = f"storing round {number} of game {game_id}"
        now = self._now()
        with self.transaction(doing, write=True) as conn:
            row = self.game_row(conn, game_id)
            if row.status is not GameStatus.PLAYING:
                raise JournalError(
                    f"{self.path}: game {game_id} is {row.status.value}, "
                    f"so round {number} cannot be added to it"
                )
            stored = self.reveal_texts(conn, game_id)
            if number != len(stored) + 1:
                raise JournalError(
                    f"{self.path}: game {game_id} has {rounds_played(len(stored))} stored, "
                    f"so the next is round {len(stored) + 1}, not round {number}"
                )
            self._check_same_game(game_id, row.header, stored, game)
            insert_round(conn, game_id, number, game.played[-1], now, images)
            conn.execute(
                "UPDATE games SET table_time = ? WHERE id = ?", (self._time.keep(conn), game_id)
            )
            if game.outcome is not None:
                conn.execute(
                    "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?",
                    (now, game_id),
                )
            lines.keep(conn, game_id, game)

    def undo_round(self, game_id: int) -> Game:
        """Delete the last round of a game (and its pictures); returns the game without it.

        A finished game is re-opened, unless another game has started since.
        """
        with self.transaction(f"undoing the last round of game {game_id}", write=True) as conn:
            stored = self.stored(conn, game_id)
            rounds = len(stored.game.played)
            if not rounds:
                raise NothingToUndoError(
                    f"{self.path}: game {game_id} has no rounds, so there is nothing to undo"
                )
            if stored.status is GameStatus.ABANDONED:
                raise JournalError(
                    f"{self.path}: game {game_id} was abandoned; its rounds are kept as they are"
                )
            newest = self.newest(conn)
            if stored.status is GameStatus.FINISHED and newest != game_id:
                raise JournalError(
                    f"{self.path}: game {game_id} is over and game {newest} has started since; "
                    f"correct a round of game {game_id} instead of undoing it"
                )
            conn.execute("DELETE FROM rounds WHERE game_id = ? AND number = ?", (game_id, rounds))
            conn.execute(
                "UPDATE games SET status = 'playing', finished_at = NULL, table_time = ? "
                "WHERE id = ?",
                (self._time.keep(conn), game_id),
            )
            back = stored.game.undo()
            lines.keep(conn, game_id, back)
            return back

    def correct_round(self, game_id: int, number: int, reveal: Reveal) -> Game:
        """Replace what lay on the table in round `number` and rescore the game from there.

        The stored game is replayed and corrected by the rules engine
        (`Game.corrected`): an illegal reveal raises the rules error, and a correction
        after which a later round could not have been played raises its
        `CorrectionError`, named with the file and game. In each case nothing is
        written. Returns the rescored game.
        """
        doing = f"correcting round {number} of game {game_id}"
        now = self._now()
        with self.transaction(doing, write=True) as conn:
            row = self.game_row(conn, game_id)
            stored_texts = self.reveal_texts(conn, game_id)
            if not 1 <= number <= len(stored_texts):
                raise JournalError(
                    f"{self.path}: game {game_id} has no round {number} to correct "
                    f"(it has {rounds_played(len(stored_texts))})"
                )
            stored = self.replay(game_id, row.header, stored_texts)
            try:
                game = stored.corrected(number, reveal)
            except CorrectionError as err:
                raise CorrectionError(
                    f"{self.path}: game {game_id}: {err}; nothing was changed"
                ) from err
            old_reveal = stored_texts[number - 1]
            new_doc = round_documents(game)[number - 1]
            if new_doc == json.loads(old_reveal):
                return game
            new_reveal = dumps(new_doc)
            conn.execute(
                "UPDATE rounds SET reveal = ? WHERE game_id = ? AND number = ?",
                (new_reveal, game_id, number),
            )
            for n, played in enumerate(game.played[number - 1 :], start=number):
                conn.execute(
                    "UPDATE rounds SET deltas = ?, reasons = ?, totals = ? "
                    "WHERE game_id = ? AND number = ?",
                    (*score_columns(played), game_id, n),
                )
            conn.execute(
                "INSERT INTO corrections (game_id, number, corrected_at, old_reveal, new_reveal) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, number, now, old_reveal, new_reveal),
            )
            status, finished_at = self._status_after(conn, game_id, row, game, now)
            conn.execute(
                "UPDATE games SET status = ?, finished_at = ? WHERE id = ?",
                (status.value, finished_at, game_id),
            )
            lines.keep(conn, game_id, game)
            return game

    def restore(
        self, games: Iterable[RestoredGame], time: KeptTime | None = None
    ) -> tuple[int, int]:
        """Write games read from another journal, keeping their numbers; returns games, rounds.

        Meant for a fresh journal (a number already used is refused). Every round is
        replayed through the rules engine; all of it is one transaction. Only the newest
        game can still be playing: older unfinished ones are marked abandoned. `time` is
        the other journal's last reading of its clocks, from which the table time goes
        on, so that the games' own times keep their meaning.
        """
        if time is not None:
            self._time = TableTime(self._clock, time, None)
        with self.transaction("restoring games", write=True) as conn:
            self._time.keep(conn)
            return write_restored(conn, games)

    def prune_pictures(self, ended_before: datetime) -> int | None:
        """Delete the pictures of the oldest game that last changed before `ended_before`
        on the table time (`table_now`, see `pruning`) and still has some; returns its
        number, or None when there is none left to prune.

        One game at a time, in one short transaction, so that a table pruning between
        rounds is never held up; the game's scores, rounds and corrections are kept, and
        the game is marked with when its pictures went. The game being played is never
        pruned. Every hour the transaction also keeps the journal's time (`clock`).

        The transaction is not synced to the card (`synchronous=NORMAL` for it alone):
        the sync is most of a commit's time on an SD card, and a prune that a power cut
        undoes only brings pictures back to be pruned again. The file stays whole either
        way, and the next round's sync makes the prune durable too.
        """
        now = self._now()
        with self._unsynced(), self.transaction("pruning old pictures", write=True) as conn:
            if self._time.due():
                self._time.keep(conn)
            game_id = pruning.oldest_to_prune(conn, ended_before)
            if game_id is not None:
                pruning.prune_game(conn, game_id, now)
        return game_id

    def table_now(self) -> datetime:
        """The journal's own time now, on which pictures age: it follows the boot clock,
        not the wall clock, so that a clock put right does not age them (see `clock`)."""
        return self._time.now()

    def mend_lines(self, after: int, count: int) -> int | None:
        """Keep anew the lines of the list of games (`lines`) of up to `count` games
        numbered after `after` whose kept line is missing or stale: games written by an
        older companion, or before an upgrade. Returns the last game looked at, or None
        past the newest. A game that does not replay is left to be listed as damaged."""
        with self._unsynced(), self.transaction("mending the list of games", write=True) as conn:
            ids = [
                game_id
                for (game_id,) in conn.execute(
                    "SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?", (after, count)
                )
            ]
            for game_id in ids:
                if lines.is_current(conn, game_id):
                    continue
                found = self.examined(conn, game_id)
                if not isinstance(found, str):
                    lines.keep(conn, game_id, found.game)
        return ids[-1] if ids else None

    @contextmanager
    def _unsynced(self) -> Iterator[None]:
        """Transactions in the block are committed without syncing the card."""
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

    def import_game(
        self,
        game: Game | GameRecord,
        colours: Mapping[str, str],
        started_at: datetime,
        digest: str,
    ) -> int | None:
        """Keep a game played elsewhere (a game file: on paper, at another table) as a
        game without pictures, its rounds confirmed at `started_at`; returns its number,
        or None when a game with the same `digest` (`imports.game_digest`) was imported
        before.

        Its reveals are played through the rules here (a game given played is played
        again: its scores are not taken on trust), the first illegal one raising the
        rules' error. A finished game is kept finished, any other abandoned: it is not
        this table's to resume. All of it is one transaction.
        """
        record = imports.as_record(game) if isinstance(game, Game) else game
        with self.transaction("importing a game", write=True) as conn:
            game_id = self._next_id(conn)
            played = imports.insert_game(conn, game_id, record, colours, stamp(started_at), digest)
            if played is None:
                return None
            lines.keep(conn, game_id, played)  # the replay's line, as listing would give it
        return game_id

    def _next_id(self, conn: sqlite3.Connection) -> int:
        """The number of a new game: after every game of the journal and of the archive
        beside it, so that a journal started afresh (a damaged one moved aside) never
        gives an archived game's number to another game."""
        newest = self.newest(conn) or 0
        return max(newest, archive_newest(self.path)) + 1

    def _now(self) -> str:
        """The date now, as stored for people to read."""
        return stamp(self._clock.wall())

    def _check_same_game(self, game_id: int, header: str, stored: list[str], game: Game) -> None:
        if header_document(game) != json.loads(header):
            raise JournalError(
                f"{self.path}: the game given is not game {game_id} "
                "(its ruleset, players or first storyteller differ)"
            )
        docs = round_documents(game)
        for number, text in enumerate(stored, start=1):
            if docs[number - 1] != json.loads(text):
                raise JournalError(
                    f"{self.path}: the game given differs from game {game_id} in round {number}"
                )

    def _status_after(
        self, conn: sqlite3.Connection, game_id: int, row: GameRow, game: Game, now: str
    ) -> tuple[GameStatus, str | None]:
        """Status and finish time once a correction has rescored the game."""
        if game.outcome is not None:
            return GameStatus.FINISHED, row.finished_at or now
        reopen = row.status is GameStatus.PLAYING or (
            row.status is GameStatus.FINISHED and self.newest(conn) == game_id
        )
        return (GameStatus.PLAYING if reopen else GameStatus.ABANDONED), None
