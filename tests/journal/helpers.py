"""Small builders shared by the journal tests: example games played into a journal."""

import random
import sqlite3
from pathlib import Path

from companion.gamefile import GameRecord, parse_game
from companion.journal import Journal
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
