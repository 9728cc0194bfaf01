"""Pruning a game's pictures once they are older than the time they are kept.

A game's pictures age from its last change on the journal's own time (`clock`: the
table time, which a clock put right cannot move), kept with it as `table_time`; a
game kept before the journal had its own time ages from when it ended (or started,
if it never did), by its dates. The game being played is never pruned; its scores,
rounds and corrections are never touched, only its pictures.
"""

import sqlite3
from datetime import UTC, datetime

from companion.journal.clock import stamp

WHATEVER_THEIR_AGE = datetime.max.replace(tzinfo=UTC)
"""A limit past every game: short of room, the oldest game's pictures go whatever
any clock says of their age."""


def oldest_to_prune(conn: sqlite3.Connection, aged_before: datetime) -> int | None:
    """The oldest game, not being played, that last changed before `aged_before` (table
    time) and still has pictures; None if there is none."""
    row = conn.execute(
        "SELECT g.id FROM games g "
        "WHERE g.status != 'playing' "
        "AND coalesce(g.table_time, g.finished_at, g.started_at) < ? "
        "AND EXISTS (SELECT 1 FROM round_images i WHERE i.game_id = g.id) "
        "ORDER BY g.id LIMIT 1",
        (stamp(aged_before),),
    ).fetchone()
    return None if row is None else int(row[0])


def prune_game(conn: sqlite3.Connection, game_id: int, now: str) -> None:
    """Delete a game's pictures and mark it with when they went (`now`, a date)."""
    conn.execute("DELETE FROM round_images WHERE game_id = ?", (game_id,))
    conn.execute("UPDATE games SET pictures_pruned_at = ? WHERE id = ?", (now, game_id))
