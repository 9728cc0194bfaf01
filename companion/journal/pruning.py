"""Pruning a game's pictures once they are older than the time they are kept.

A game's pictures age from its last change on the journal's own time (`clock`: the
table time, which a clock put right cannot move), kept with it as `table_time`; a
game kept before the journal had its own time ages from when it ended (or started,
if it never did), by its dates. The game being played is never pruned; its scores,
rounds and corrections are never touched, only its pictures. This is the writer's
job that the table's housekeeping runs between rounds (`Journal.prune_pictures`).
"""

import sqlite3
from datetime import UTC, datetime

from companion.journal.clock import stamp
from companion.journal.writer import JournalWriter

WHATEVER_THEIR_AGE = datetime.max.replace(tzinfo=UTC)
"""A limit past every game: short of room, the oldest game's pictures go whatever
any clock says of their age."""


def prune_pictures(journal: JournalWriter, ended_before: datetime) -> int | None:
    """Delete the pictures of the oldest game that last changed before `ended_before`
    on the table time (`table_now`) and still has some; returns its number, or None
    when there is none left to prune.

    One game at a time, in one short transaction, so that a table pruning between
    rounds is never held up; the game's scores, rounds and corrections are kept, and
    the game is marked with when its pictures went. The game being played is never
    pruned. Every hour the transaction also keeps the journal's time (`clock`).

    The transaction is not synced to the card (`synchronous=NORMAL` for it alone):
    the sync is most of a commit's time on an SD card, and a prune that a power cut
    undoes only brings pictures back to be pruned again. The file stays whole either
    way, and the next round's sync makes the prune durable too.
    """
    now = journal.date_now()
    with journal.unsynced(), journal.transaction("pruning old pictures", write=True) as conn:
        if journal.time_due():
            journal.keep_time(conn)
        game_id = oldest_to_prune(conn, ended_before)
        if game_id is not None:
            prune_game(conn, game_id, now)
    return game_id


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
