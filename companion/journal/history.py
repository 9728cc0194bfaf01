"""Reading the journal's history: the list of games, a game's rounds, its pictures.

What `companion history` prints comes from here, through any open `JournalFile`:
one opened only to read, or the game loop's own writer. Like `load`, every list
replays the games through the rules engine and shows the scores the rules give,
never the stored ones: a round changed behind the journal's back cannot show its old
totals, and a game that does not replay is listed by what is damaged in it.
"""

import json
import sqlite3
from types import MappingProxyType

from companion.errors import JournalError
from companion.gamefile import game_document
from companion.journal.documents import stored_time
from companion.journal.faults import corrupt
from companion.journal.file import SQLITE_INTEGERS, JournalFile
from companion.journal.records import (
    DamagedGame,
    GameStatus,
    GameSummary,
    RoundImages,
    RoundSummary,
    StoredGame,
)
from companion.names import one_line
from companion.rules import Game
from companion.wording import rounds_played


class History:
    """The games of an open journal file, read back for people to look at."""

    def __init__(self, file: JournalFile) -> None:
        self.file = file
        """The journal read: the game loop's writer, or a file opened only to read."""

    def games(self) -> tuple[GameSummary | DamagedGame, ...]:
        """Every stored game, newest first, replayed; those that do not replay as damage."""
        with self.file.transaction("listing the games") as conn:
            ids = [game_id for (game_id,) in conn.execute("SELECT id FROM games ORDER BY id DESC")]
            return tuple(_summary(self.file.examined(conn, game_id), game_id) for game_id in ids)

    def game(self, game_id: int) -> GameSummary | DamagedGame:
        """One game's line of the list; `UnknownGameError` if there is none."""
        with self.file.transaction(f"reading game {game_id}") as conn:
            return _summary(self.file.examined(conn, game_id), game_id)

    def rounds(self, game_id: int) -> tuple[RoundSummary, ...]:
        """The rounds of a game scored as the rules score them now, oldest first, with
        when each was confirmed; `JournalCorruptError` naming the round that does not replay."""
        with self.file.transaction(f"listing the rounds of game {game_id}") as conn:
            return self._rounds(conn, self.file.stored(conn, game_id))

    def whole(self, game_id: int) -> tuple[GameSummary, StoredGame, tuple[RoundSummary, ...]]:
        """A game's line, the game and its rounds, read in one transaction: a round
        confirmed meanwhile at the table cannot make them disagree. A game that does
        not replay raises `JournalCorruptError` naming the damage."""
        with self.file.transaction(f"reading game {game_id}") as conn:
            found = self.file.examined(conn, game_id)
            if isinstance(found, str):
                raise corrupt(self.file.path, f"game {game_id}: {found}")
            return _line(found), found, self._rounds(conn, found)

    def _rounds(self, conn: sqlite3.Connection, stored: StoredGame) -> tuple[RoundSummary, ...]:
        game_id = stored.id
        rows = conn.execute(
            "SELECT r.number, r.committed_at, "
            "i.frame IS NOT NULL, i.overlay IS NOT NULL, "
            "EXISTS (SELECT 1 FROM corrections c "
            "        WHERE c.game_id = r.game_id AND c.number = r.number) "
            "FROM rounds r LEFT JOIN round_images i "
            "ON i.game_id = r.game_id AND i.number = r.number "
            "WHERE r.game_id = ? ORDER BY r.number",
            (game_id,),
        ).fetchall()
        try:
            return tuple(_round_summary(stored, *columns) for columns in rows)
        except ValueError as err:
            raise corrupt(
                self.file.path,
                f"game {game_id}: a round's time is damaged: {one_line(str(err))}",
            ) from err

    def images(self, game_id: int, number: int) -> RoundImages:
        """The frame and overlay kept with a round (None for those not kept)."""
        with self.file.transaction(
            f"reading the pictures of round {number} of game {game_id}"
        ) as conn:
            count = len(self.file.stored(conn, game_id).game.played)
            if not 1 <= number <= count or number not in SQLITE_INTEGERS:
                raise JournalError(
                    f"{self.file.path}: game {game_id} has no round {number} "
                    f"(it has {rounds_played(count)})"
                )
            row = conn.execute(
                "SELECT frame, overlay FROM round_images WHERE game_id = ? AND number = ?",
                (game_id, number),
            ).fetchone()
        return RoundImages(None, None) if row is None else RoundImages(row[0], row[1])

    def export(self, game_id: int) -> str:
        """The game as a game file (JSON) that `companion score` reads."""
        return exported(self.file.load(game_id).game)


def exported(game: Game) -> str:
    """A game as the game file (JSON) that `companion score` reads."""
    return json.dumps(game_document(game), ensure_ascii=False)


def _summary(found: StoredGame | str, game_id: int) -> GameSummary | DamagedGame:
    """A game's line of the list from its replay, or what is damaged in it."""
    if isinstance(found, str):
        return DamagedGame(id=game_id, damage=found)
    return _line(found)


def _line(found: StoredGame) -> GameSummary:
    """A sound game's line of the list."""
    game = found.game
    totals = dict(game.totals)
    best = max(totals.values())
    finished = found.status is GameStatus.FINISHED
    return GameSummary(
        id=found.id,
        ruleset=game.ruleset.name,
        players=game.seating.players,
        rounds=len(game.played),
        status=found.status,
        started_at=found.started_at,
        totals=MappingProxyType(totals),
        winners=tuple(s for s, t in totals.items() if t == best) if finished else (),
    )


def _round_summary(
    stored: StoredGame,
    number: int,
    committed_at: object,
    has_frame: int,
    has_overlay: int,
    corrected: int,
) -> RoundSummary:
    game = stored.game
    played = game.played[number - 1]
    return RoundSummary(
        number=number,
        storyteller=game.seating.storyteller(game.first_storyteller, number),
        deltas=MappingProxyType(dict(played.score.deltas)),
        reasons=MappingProxyType(dict(played.score.reasons)),
        totals=MappingProxyType(dict(played.totals)),
        committed_at=stored_time(committed_at),
        has_frame=bool(has_frame),
        has_overlay=bool(has_overlay),
        corrected=bool(corrected),
    )
