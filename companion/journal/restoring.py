"""Writing games read back from another journal (a damaged one, salvaged) into a fresh one.

The games keep their numbers, their dates, their pictures that still match their
checksums, their pruning and import marks and their own times (`clock`); every round
is played again through the rules as it is written, each in the time of one round.
This is the writer's job after a recovery (`recovery`), and `Journal.restore`.
"""

import sqlite3
from collections.abc import Iterable
from datetime import datetime

from companion.journal import lines
from companion.journal.clock import KeptTime, stamp
from companion.journal.documents import dumps, header_document
from companion.journal.records import RestoredGame
from companion.journal.rows import insert_round
from companion.journal.writer import JournalWriter


def restore(
    journal: JournalWriter, games: Iterable[RestoredGame], time: KeptTime | None = None
) -> tuple[int, int]:
    """Write games read from another journal, keeping their numbers; returns games, rounds.

    Meant for a fresh journal (a number already used is refused). Every round is
    replayed through the rules engine; all of it is one transaction. Only the newest
    game can still be playing: older unfinished ones are marked abandoned. `time` is
    the other journal's last reading of its clocks, from which the table time goes
    on, so that the games' own times keep their meaning.
    """
    if time is not None:
        journal.go_on_from(time)
    with journal.transaction("restoring games", write=True) as conn:
        journal.keep_time(conn)
        return write_restored(conn, games)


def write_restored(conn: sqlite3.Connection, games: Iterable[RestoredGame]) -> tuple[int, int]:
    """Write `games` inside the writer's transaction; returns how many games and rounds.
    Only the newest game can still be playing: older unfinished ones are marked
    abandoned."""
    saved_games = saved_rounds = 0
    for restored in games:
        saved_rounds += _write_game(conn, restored)
        saved_games += 1
    conn.execute(
        "UPDATE games SET status = 'abandoned' "
        "WHERE status = 'playing' AND id < (SELECT max(id) FROM games)"
    )
    return saved_games, saved_rounds


def _write_game(conn: sqlite3.Connection, restored: RestoredGame) -> int:
    """Write one game and its rounds; returns how many rounds."""
    game = restored.start
    conn.execute(
        "INSERT INTO games (id, started_at, header, colours, status, "
        "pictures_pruned_at, imported, table_time) "
        "VALUES (?, ?, ?, ?, 'playing', ?, ?, ?)",
        (
            restored.id,
            stamp(restored.started_at),
            dumps(header_document(game)),
            dumps(dict(restored.colours)),
            restored.pictures_pruned_at,
            restored.imported,
            restored.table_time,
        ),
    )
    last: datetime | None = None
    for number, restored_round in enumerate(restored.rounds, start=1):
        game = game.play(restored_round.reveal)
        last = restored_round.committed_at
        insert_round(conn, restored.id, number, game.played[-1], stamp(last), restored_round.images)
    finished_at = restored.finished_at or last
    if game.outcome is not None and finished_at is not None:
        conn.execute(
            "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?",
            (stamp(finished_at), restored.id),
        )
    elif restored.abandoned:
        conn.execute("UPDATE games SET status = 'abandoned' WHERE id = ?", (restored.id,))
    lines.keep(conn, restored.id, game)
    return len(game.played)
