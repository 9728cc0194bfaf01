"""The journal's games as the table plays them: start, rounds, undo, corrections, setup.

`Journal` is the writer the game loop holds (`writer`: one writer at a time, one
transaction per public write, on a file a power cut cannot break). Its other jobs
live apart and are reached through it: opening with recovery (`recovery`),
restoring salvaged games (`restoring`), importing game files (`imports`), pruning
pictures (`pruning`) and mending the list's lines (`mending`).

Scores are stored to explain a round as it was confirmed, never to be believed:
`load` replays the stored reveals through the rules engine, and a correction is the
rules engine's `Game.corrected` of the stored game, computed and written inside one
transaction.
"""

import json
import sqlite3
from collections.abc import Iterable, Mapping
from datetime import datetime
from os import PathLike
from typing import Any

from companion.errors import (
    CorrectionError,
    DiskFullError,
    JournalError,
    NothingToUndoError,
    SeatingError,
)
from companion.gamefile import GameRecord
from companion.journal import imports, lines, mending, pruning, recovery, restoring
from companion.journal.clock import Clock, KeptTime, TableClock, stamp, utc_now
from companion.journal.documents import dumps, header_document, round_documents, score_columns
from companion.journal.file import GameRow
from companion.journal.records import GameStatus, RestoredGame, RoundImages
from companion.journal.rows import insert_round
from companion.journal.writer import SYSTEM_CLOCK, JournalWriter
from companion.rules import Game, Reveal
from companion.wording import rounds_played

__all__ = ["SYSTEM_CLOCK", "Clock", "Journal", "TableClock", "stamp", "utc_now"]


class Journal(JournalWriter):
    """The SQLite journal of games: open it, write rounds as they are confirmed, resume;
    and keep the next game's setup step by step. Opened as `JournalWriter` is."""

    @classmethod
    def open_or_recover(
        cls, path: str | PathLike[str], *, clock: Clock | TableClock = SYSTEM_CLOCK
    ) -> tuple["Journal", str | None]:
        """Open the journal; if it is damaged, move it aside and salvage it into a fresh
        one; returns it and, after a recovery, what the screen says (`recovery`)."""
        return recovery.open_or_recover(cls, path, clock=clock)

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
        now = self.date_now()
        with self.transaction("starting a game", write=True) as conn:
            table = self.keep_time(conn)
            conn.execute(
                "UPDATE games SET status = 'abandoned', table_time = ? WHERE status = 'playing'",
                (table,),
            )
            cursor = conn.execute(
                "INSERT INTO games (id, started_at, header, colours, status, table_time) "
                "VALUES (?, ?, ?, ?, 'playing', ?)",
                (
                    self.next_game_number(conn),
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
        now = self.date_now()
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
                (self.keep_time(conn), game_id),
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
        now = self.date_now()
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
                "UPDATE games SET table_time = ? WHERE id = ?", (self.keep_time(conn), game_id)
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
                (self.keep_time(conn), game_id),
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
        now = self.date_now()
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
        """Write games read from another journal, keeping their numbers, in one
        transaction; returns games, rounds (`restoring`)."""
        return restoring.restore(self, games, time)

    def prune_pictures(self, ended_before: datetime) -> int | None:
        """Delete the pictures of the oldest game that last changed before
        `ended_before` on the table time; returns its number, or None when there is
        none left to prune (`pruning`)."""
        return pruning.prune_pictures(self, ended_before)

    def mend_lines(self, after: int, count: int) -> int | None:
        """Keep anew the missing or stale lines of up to `count` games numbered after
        `after`; returns the last game looked at, or None past the newest (`mending`)."""
        return mending.mend_lines(self, after, count)

    def import_game(
        self,
        game: Game | GameRecord,
        colours: Mapping[str, str],
        started_at: datetime,
        digest: str,
    ) -> int | None:
        """Keep a game played elsewhere, played through the rules, without pictures;
        returns its number, or None when it was imported before (`imports`)."""
        return imports.import_game(self, game, colours, started_at, digest)

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
