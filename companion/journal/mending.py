"""Mending the list of games: keeping anew the lines that are missing or stale.

A game's line of the list (`lines`) is kept with it whenever it changes; games
written by an older companion, or before an upgrade, have none or a stale one, and
are listed by replaying them until the table's housekeeping, while the table is idle,
mends them a few at a time (`Journal.mend_lines`).
"""

from companion.journal import lines
from companion.journal.writer import JournalWriter


def mend_lines(journal: JournalWriter, after: int, count: int) -> int | None:
    """Keep anew the lines of up to `count` games numbered after `after` whose kept
    line is missing or stale. Returns the last game looked at, or None past the newest.
    A game that does not replay is left to be listed as damaged.

    Not synced to the card, like a prune: a power cut only leaves a line to mend again."""
    with journal.unsynced(), journal.transaction("mending the list of games", write=True) as conn:
        ids = [
            game_id
            for (game_id,) in conn.execute(
                "SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?", (after, count)
            )
        ]
        for game_id in ids:
            if lines.is_current(conn, game_id):
                continue
            found = journal.examined(conn, game_id)
            if not isinstance(found, str):
                lines.keep(conn, game_id, found.game)
    return ids[-1] if ids else None
