"""The journal's JSON columns in the game file's own shapes, through `companion.gamefile`.

A stored game is a game file cut into rows: the header (ruleset, players, first
storyteller, options) in `games`, one round object per row of `rounds`. Writing
uses `game_document` and reading glues the rows back into a game file for
`parse_game`, so the journal has no encoder or decoder of its own and what it
stores is exactly what `companion score` reads.
"""

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

from companion.colours import BY_NAME
from companion.errors import GameFileError, RulesError
from companion.gamefile import GameRecord, game_document, parse_game
from companion.rules import Game, PlayedRound

FRENCH_COLOUR_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "red": "rouge",
        "blue": "bleu",
        "green": "vert",
        "yellow": "jaune",
        "white": "blanc",
        "black": "noir",
        "orange": "orange",
        "pink": "rose",
        "violet": "violet",
        "grey": "gris",
        "brown": "marron",
        "cyan": "cyan",
    }
)
"""Each kit colour's name in French: a seat left unnamed plays under its colour's name
in the table's language, and such a name is no one's to offer again. Kept here rather
than read from the translations, so that the journal does not depend on them."""

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


def given_names(header: str, colours: str) -> tuple[str, ...]:
    """The names players gave themselves in a stored game, in seating order: its players
    less those playing under a kit colour's name; `ValueError` for a damaged row."""
    try:
        loaded = json.loads(header)
        players = loaded.get("players") if isinstance(loaded, dict) else None
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError(f"the header names no players: {_shown(header)}")
        colour = player_colours(colours, players)
    except RecursionError:
        raise ValueError("nested far too deeply") from None
    return tuple(p for p in players if not _colours_own_name(p, colour[p]))


def _colours_own_name(player: str, colour: str) -> bool:
    """Whether a player played under their own colour's name, in English or French (a
    player called Rose who plays red gave a name; one who plays pink did not)."""
    return player.casefold() in (colour, FRENCH_COLOUR_NAMES[colour])


def setup_draft(data: object) -> dict[str, Any] | None:
    """A kept setup draft (read as bytes), or None when it is not a JSON object: a
    damaged draft only costs the table its setup, which it can do again."""
    try:
        loaded = json.loads(stored_text(data))
    except (ValueError, RecursionError):
        return None
    return loaded if isinstance(loaded, dict) else None


def stored_text(data: object) -> str:
    """A text column read as bytes (`CAST(... AS BLOB)`), so that damage is told apart
    per row; `ValueError` for anything but UTF-8 bytes."""
    if not isinstance(data, bytes):
        raise ValueError(f"not stored text: {_shown(data)}")
    return data.decode("utf-8")


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
