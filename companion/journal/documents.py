"""The journal's JSON columns in the game file's own shapes, through `companion.gamefile`.

A stored game is a game file cut into rows: the header (ruleset, players, first
storyteller, options) in `games`, one round object per row of `rounds`. Writing
uses `game_document` and reading glues the rows back into a game file for
`parse_game`, so the journal has no encoder or decoder of its own and what it
stores is exactly what `companion score` reads.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.gamefile import GameRecord, game_document, parse_game
from companion.rules import Game, PlayedRound


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


def record(header: str, reveals: Sequence[str]) -> GameRecord:
    """Parse a stored header and stored round objects as one game file.

    Raises `GameFileError` or a rules error, like `parse_game`, with the round numbers
    counted from 1 in the order given.
    """
    doc = json.loads(header)
    doc["rounds"] = [json.loads(reveal) for reveal in reveals]
    return parse_game(dumps(doc))


def score_columns(played: PlayedRound) -> tuple[str, str, str]:
    """The deltas, reasons and totals of a played round as JSON texts."""
    score = played.score
    return (
        dumps(dict(score.deltas)),
        dumps({scorer: list(reasons) for scorer, reasons in score.reasons.items()}),
        dumps(dict(played.totals)),
    )


def str_mapping(text: str) -> dict[str, str]:
    """A stored name-to-name object."""
    loaded: Mapping[str, str] = json.loads(text)
    return {str(k): str(v) for k, v in loaded.items()}
