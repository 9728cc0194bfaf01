"""The archive: finished games older than a year, moved out of the journal into a file beside it.

The journal stays the size of a year of play; `companion history archive` moves the
older finished games, whole (rounds, pictures left, corrections, lines), into
`NAME.archive.sqlite`, a journal of the same schema that `history` and the phone page
read as if the games had stayed (`History(journal, archive)`). Whatever reads it opens
it with `open_archive` (`archive_file`), which tells a missing, unmade, open or
damaged archive apart.

A game moves in two transactions, one per file (SQLite makes a transaction across two
WAL files atomic for each file, not for both): first it is copied into the archive,
then deleted from the journal. A SIGKILL or a power cut between them leaves the game
in both files, never in neither; readers take the journal's copy, and the next
archiving copies it again over the archive's and finishes the move. The newest game
never moves, so the journal never gives a moved game's number to a new one.
"""

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from companion.errors import JournalError
from companion.journal import schema
from companion.journal.history import History
from companion.journal.records import GameSummary
from companion.journal.store import Journal, stamp

BATCH_GAMES = 50
"""Games moved per pair of transactions: few enough that the table is never held up
for long, enough that a year of games moves in seconds."""

_GAME_TABLES = ("rounds", "round_images", "corrections", "game_lines")
"""The tables whose rows belong to a game through `game_id`, copied with it."""


def archivable(journal: Journal, finished_before: datetime) -> list[int]:
    """The games that `archive_games` would move: finished before the time given and
    sound (a damaged game stays where `companion play` can salvage it), the newest game
    left out."""
    sound = {line.id for line in History(journal).games() if isinstance(line, GameSummary)}
    with journal.transaction("finding games to archive") as conn:
        return [
            game_id
            for (game_id,) in conn.execute(
                "SELECT id FROM games WHERE status = 'finished' AND finished_at < ? "
                "AND id < (SELECT max(id) FROM games) ORDER BY id",
                (stamp(finished_before),),
            )
            if game_id in sound
        ]


def archive_games(journal: Journal, archive: Journal, finished_before: datetime) -> int:
    """Move every game finished before `finished_before` into `archive`; returns how many."""
    ids = archivable(journal, finished_before)
    for start in range(0, len(ids), BATCH_GAMES):
        batch = ids[start : start + BATCH_GAMES]
        rows = _read(journal, batch)
        _write(archive, batch, rows)
        with journal.transaction("deleting archived games", write=True) as conn:
            conn.executemany("DELETE FROM games WHERE id = ?", [(i,) for i in batch])
    return len(ids)


Rows = dict[str, tuple[tuple[str, ...], list[tuple[object, ...]]]]
"""Table name to its columns and the rows of the games being moved."""


def _read(journal: Journal, ids: Sequence[int]) -> Rows:
    """Every row of the games, table by table, as stored."""
    marks = ",".join("?" * len(ids))
    columns = schema.expected_columns()
    rows: Rows = {}
    with journal.transaction("reading games to archive") as conn:
        for table in ("games", *_GAME_TABLES):
            kept = tuple(c for c in columns[table] if not (table == "corrections" and c == "id"))
            key = "id" if table == "games" else "game_id"
            found = conn.execute(
                f"SELECT {', '.join(kept)} FROM {table} WHERE {key} IN ({marks})", tuple(ids)
            ).fetchall()
            rows[table] = (kept, found)
    return rows


def _write(archive: Journal, ids: Sequence[int], rows: Rows) -> None:
    """The games written into the archive in one transaction, over any earlier copy (an
    archiving cut short between its two transactions)."""
    with archive.transaction("writing archived games", write=True) as conn:
        _check_same_games(archive, conn, rows["games"])
        conn.executemany("DELETE FROM games WHERE id = ?", [(i,) for i in ids])
        for table, (columns, found) in rows.items():
            marks = ",".join("?" * len(columns))
            conn.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                found,
            )


def _check_same_games(
    archive: Journal,
    conn: sqlite3.Connection,
    games: tuple[tuple[str, ...], list[tuple[object, ...]]],
) -> None:
    """Refuse to write over an archived game that is another game of the same number
    (a journal started afresh beside an older archive): only a copy of the same game,
    left by an archiving cut short, is replaced."""
    columns, rows = games
    at = {name: columns.index(name) for name in ("id", "started_at", "header")}
    for row in rows:
        game_id = row[at["id"]]
        kept = conn.execute(
            "SELECT started_at, header FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if kept is not None and tuple(kept) != (row[at["started_at"]], row[at["header"]]):
            raise JournalError(
                f"{archive.path}: game {game_id} of the archive is another game than the "
                f"journal's game {game_id} (started {kept[0]}); nothing was archived: keep "
                "this journal's archive apart (rename it) and archive again"
            )
