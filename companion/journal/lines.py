"""Each game's line of the list of games, kept beside it so that a year of games lists at once.

Listing replays every game through the rules (scores are never read from disk as
truth), which costs milliseconds a game: seconds for a year's 3,650 games. So the
writer keeps, with every change of a game, the line the replay gave and a digest
of the line and of every stored text it was computed from (header, colours, each
round's number and reveal). Listing reads the texts, which is cheap, and takes the
kept line only where the digest still matches: a round changed or damaged behind the
journal's back (or the line itself) changes the digest, and that game is replayed
(and shown damaged if it does not replay).
"""

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion import __version__
from companion.rules import Game


@dataclass(frozen=True)
class Line:
    """What the replay of a game gives its line of the list."""

    ruleset: str
    """The ruleset's registry name."""
    players: tuple[str, ...]
    """The players in seating order."""
    rounds: int
    """Rounds stored."""
    totals: tuple[tuple[str, int], ...]
    """Every scorer's total after the last round, in seating order."""


def digest(
    header: bytes, colours: bytes, reveals: Iterable[tuple[int, bytes]], line: bytes
) -> bytes:
    """The SHA-256 of a game's stored texts and of the line kept for them, with the
    companion's version (a new version may score differently: its lines are made anew),
    each part length-prefixed so that no two different games can give the same stream:
    a change to the line itself is found too."""
    sha = hashlib.sha256()
    for part in (__version__.encode(), line, header, colours):
        sha.update(len(part).to_bytes(8, "big") + part)
    for number, text in reveals:
        sha.update(number.to_bytes(8, "big", signed=True) + len(text).to_bytes(8, "big") + text)
    return sha.digest()


def line_of(game: Game) -> Line:
    """The line of a replayed game."""
    return Line(
        ruleset=game.ruleset.name,
        players=game.seating.players,
        rounds=len(game.played),
        totals=tuple(game.totals.items()),
    )


def dumped(line: Line) -> str:
    """A line as the JSON text kept in `game_lines`."""
    return json.dumps(
        {
            "ruleset": line.ruleset,
            "players": list(line.players),
            "rounds": line.rounds,
            "totals": [list(pair) for pair in line.totals],
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def loaded(text: object) -> Line | None:
    """A kept line, or None when it is not one (then the game is replayed)."""
    try:
        doc: Any = json.loads(text) if isinstance(text, str | bytes) else None
        line = Line(
            ruleset=doc["ruleset"],
            players=tuple(doc["players"]),
            rounds=doc["rounds"],
            totals=tuple((scorer, total) for scorer, total in doc["totals"]),
        )
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    sound = (
        isinstance(line.ruleset, str)
        and all(isinstance(p, str) for p in line.players)
        and isinstance(line.rounds, int)
        and bool(line.totals)
        and all(isinstance(s, str) and type(t) is int for s, t in line.totals)
    )
    return line if sound else None


def stored_texts(
    conn: sqlite3.Connection, game_id: int
) -> tuple[bytes, bytes, list[tuple[int, bytes]]] | None:
    """A game's header, colours and numbered reveals as stored bytes, or None if it has
    no row."""
    row = conn.execute(
        "SELECT CAST(header AS BLOB), CAST(colours AS BLOB) FROM games WHERE id = ?",
        (game_id,),
    ).fetchone()
    if row is None:
        return None
    reveals = conn.execute(
        "SELECT number, CAST(reveal AS BLOB) FROM rounds WHERE game_id = ? ORDER BY number",
        (game_id,),
    ).fetchall()
    return bytes(row[0] or b""), bytes(row[1] or b""), [(n, bytes(t or b"")) for n, t in reveals]


def is_current(conn: sqlite3.Connection, game_id: int) -> bool:
    """Whether game `game_id` has a kept line that its stored texts still match."""
    kept = conn.execute(
        "SELECT digest, CAST(line AS BLOB) FROM game_lines WHERE game_id = ?", (game_id,)
    ).fetchone()
    texts = stored_texts(conn, game_id)
    if kept is None or texts is None:
        return False
    return bool(kept[0] == digest(*texts, bytes(kept[1] or b"")))


def keep(conn: sqlite3.Connection, game_id: int, game: Game) -> None:
    """Keep the line of `game` (just written as game `game_id`, inside the writer's
    transaction) with the digest of what is now stored."""
    texts = stored_texts(conn, game_id)
    if texts is None:
        return
    line = dumped(line_of(game))
    conn.execute(
        "INSERT OR REPLACE INTO game_lines (game_id, digest, line) VALUES (?, ?, ?)",
        (game_id, digest(*texts, line.encode()), line),
    )
