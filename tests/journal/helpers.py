"""Small builders shared by the journal tests: example games played into a journal."""

import hashlib
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion.gamefile import GameRecord, parse_game
from companion.journal import DamagedGame, GameSummary, History, Journal
from companion.rules import Game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def example(stem: str) -> GameRecord:
    """A shipped example game, parsed."""
    return parse_game((ROOT / "examples" / f"{stem}.json").read_text())


def colours(game: Game) -> dict[str, str]:
    """Every player's kit colour: the examples name players by colour."""
    return {player: player for player in game.seating.players}


def frame_of(number: int, size: int = 2_000) -> bytes:
    """Stand-in JPEG bytes, different for every round."""
    return random.Random(number).randbytes(size)


def play_into(
    journal: Journal, record: GameRecord, rounds: int | None = None, *, images: bool = True
) -> tuple[int, Game]:
    """Start the game and commit its first `rounds` rounds (all by default)."""
    game = record.start
    game_id = journal.start_game(game, colours(game))
    for reveal in record.reveals[:rounds]:
        game = game.play(reveal)
        number = len(game.played)
        journal.commit_round(
            game_id,
            game,
            frame=frame_of(number) if images else None,
            overlay=frame_of(-number, 500) if images else None,
        )
    return game_id, game


def spoil_party_round_5(path: Path) -> None:
    """Make round 5 of game 1 (the party example) illegal behind the journal's back: a
    trap on a slot that does not exist."""
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE rounds SET reveal = replace(reveal, '\"trap\":', '\"trap\":9') "
        "WHERE game_id = 1 AND number = 5"
    )
    conn.commit()
    conn.close()


YEAR_START = datetime(2025, 1, 6, 20, 0, tzinfo=UTC)
"""The evening the tests' café year begins."""


class Calendar:
    """The journal's clock in a test: a time moved by hand, so that games start and end
    on the days a test says."""

    def __init__(self, now: datetime = YEAR_START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def next_day(self) -> datetime:
        """Move on a day; returns the new time."""
        self.now += timedelta(days=1)
        return self.now


def picture(game_id: int, number: int, size: int) -> bytes:
    """Stand-in picture bytes, different for every game, round and size."""
    return random.Random(f"{game_id}/{number}/{size}").randbytes(size)


def play_with_pictures(
    journal: Journal, record: GameRecord, rounds: int | None = None, *, size: int = 2_000
) -> tuple[int, Game]:
    """Like `play_into`, with pictures of `size` bytes (overlay a quarter of it) that
    `picture` gives again for each game and round."""
    game = record.start
    game_id = journal.start_game(game, colours(game))
    for reveal in record.reveals[:rounds]:
        game = game.play(reveal)
        number = len(game.played)
        kept = journal.commit_round(
            game_id,
            game,
            frame=picture(game_id, number, size),
            overlay=picture(game_id, -number, size // 4),
        )
        assert kept, f"the pictures of round {number} of game {game_id} were not kept"
    return game_id, game


def rows(path: Path, query: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows read with sqlite3 alone, behind the journal's back."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(query, params).fetchall()
    finally:
        conn.close()


def change(path: Path, statement: str, params: tuple[object, ...] = ()) -> None:
    """Change a journal file with sqlite3 alone, behind the journal's back."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(statement, params)
    finally:
        conn.close()


def replayed(history: History) -> tuple[GameSummary | DamagedGame, ...]:
    """Every game's line of the list as replaying it gives it now (never a kept line),
    newest first: what `History.games` must equal."""
    return tuple(history.game(line.id) for line in history.games())


def picture_problems(path: Path) -> list[str]:
    """What is wrong with the pictures of a journal file whose every round was stored
    with both pictures: a picture that does not match its sum, a game pruned with
    pictures left, or one not pruned with a round's pictures missing."""
    conn = sqlite3.connect(path)
    try:
        problems = [
            f"game {game_id} round {number}: the {name} does not match its sum"
            for game_id, number, frame, overlay, frame_sum, overlay_sum in conn.execute(
                "SELECT game_id, number, frame, overlay, frame_sha256, overlay_sha256 "
                "FROM round_images"
            )
            for name, data, kept in (("frame", frame, frame_sum), ("overlay", overlay, overlay_sum))
            if data is None or hashlib.sha256(data).digest() != kept
        ]
        for game_id, pruned, rounds, pictured in conn.execute(
            "SELECT g.id, g.pictures_pruned_at, "
            "(SELECT count(*) FROM rounds r WHERE r.game_id = g.id), "
            "(SELECT count(*) FROM round_images i WHERE i.game_id = g.id) FROM games g"
        ):
            if pruned is not None and pictured:
                problems.append(f"game {game_id}: pruned, with {pictured} rounds' pictures left")
            if pruned is None and pictured != rounds:
                problems.append(f"game {game_id}: {pictured} of {rounds} rounds' pictures kept")
        return problems
    finally:
        conn.close()
