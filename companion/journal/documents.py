"""The journal's JSON columns in the game file's own shapes, through `companion.gamefile`.

A stored game is a game file cut into rows: the header (ruleset, players, first
storyteller, options) in `games`, one round object per row of `rounds`. Writing
uses `game_document` and reading glues the rows back into a game file for
`parse_game`, so the journal has no encoder or decoder of its own and what it
stores is exactly what `companion score` reads.
"""

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from companion.colours import BY_NAME
from companion.errors import GameFileError, RulesError
from companion.gamefile import GameRecord, game_document, parse_game
from companion.rules import Game, PlayedRound

DAMAGED = (GameFileError, RulesError, ValueError)
"""What reading a stored value raises when the value is damaged: the decoders here
turn every wrong shape into one of these, so that anything else (`TypeError`,
`AttributeError`, ...) is a bug in the code and is raised, not taken for damage
that moves the journal aside."""


def dumps(value: object) -> str:
    """Compact JSON text for a column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def header_document(game: Game) -> dict[str, Any]:
    """The game file of `game` without its rounds."""
    doc = game_document(game)
    del doc["rounds"]
    return doc


def round_documents(game: Game) -> list[dict[str, Any]]:
    """The game-file objects of every round played, oldest first."""
    rounds: list[dict[str, Any]] = game_document(game)["rounds"]
    return rounds


def record(header: object, reveals: Sequence[str]) -> GameRecord:
    """Parse a stored header and stored round objects as one game file.

    Raises `GameFileError` or a rules error, like `parse_game`, with the round numbers
    counted from 1 in the order given. The players' names are kept as stored: the rule
    for new names does not apply to a game an older version let in.
    """
    try:
        doc = json.loads(_text(header, "the header"))
        rounds = [json.loads(reveal) for reveal in reveals]
    except RecursionError:
        raise GameFileError("nested far too deeply") from None
    if not isinstance(doc, dict):
        raise GameFileError(f"the header is not a JSON object: {_shown(header)}")
    doc["rounds"] = rounds
    return parse_game(dumps(doc), stored=True)


def score_columns(played: PlayedRound) -> tuple[str, str, str]:
    """The deltas, reasons and totals of a played round as JSON texts."""
    score = played.score
    return (
        dumps(dict(score.deltas)),
        dumps({scorer: list(reasons) for scorer, reasons in score.reasons.items()}),
        dumps(dict(played.totals)),
    )


def player_colours(text: object, players: Sequence[str]) -> dict[str, str]:
    """A stored game's player-to-colour object, which names exactly its `players`;
    `ValueError` for anything else (the table could not give a player their colour)."""
    loaded = json.loads(_text(text, "the colours"))
    if (
        not isinstance(loaded, dict)
        or not all(isinstance(v, str) and v in BY_NAME for v in loaded.values())
        or set(loaded) != set(players)
        or len(set(loaded.values())) != len(loaded)
    ):
        raise ValueError(f"not a kit colour of its own for each player: {_shown(text)}")
    return loaded


def stored_time(value: object) -> datetime:
    """A stored ISO 8601 time; `ValueError` for anything else."""
    return datetime.fromisoformat(_text(value, "a time"))


def _text(value: object, what: str) -> str:
    """A stored column that must be text: SQLite keeps whatever was written to it."""
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text: {_shown(value)}")
    return value


def _shown(value: object) -> str:
    """A damaged value, cut short for a message."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."
