"""The journal's tables, and the migrations that bring an older file up to date.

`PRAGMA user_version` holds how many migrations a file has had: 0 for a new, empty
file, `SCHEMA_VERSION` for an up-to-date journal. Migration `i` takes a file from
version `i` to `i + 1`; migrations are only ever appended, never edited, so every
journal ever written can be brought forward. A file whose tables are not ours, or
that a newer companion has written, is refused rather than written to.

Scores, totals and reasons are stored so that a round can be explained as it was
confirmed, but they are never trusted: loading a game replays the stored reveals
through the rules engine.
"""

import hashlib
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from companion.errors import JournalCorruptError, NotAJournalError

STATUSES = ("playing", "finished", "abandoned")
"""The values of `games.status`."""

_V1 = (
    f"""
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        header TEXT NOT NULL,
        colours TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN {STATUSES!r}),
        finished_at TEXT
    ) STRICT
    """,
    """
    CREATE TABLE rounds (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number INTEGER NOT NULL CHECK (number >= 1),
        reveal TEXT NOT NULL,
        deltas TEXT NOT NULL,
        reasons TEXT NOT NULL,
        totals TEXT NOT NULL,
        committed_at TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
    ) STRICT
    """,
    """
    CREATE TABLE round_images (
        game_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        frame BLOB,
        overlay BLOB,
        PRIMARY KEY (game_id, number),
        FOREIGN KEY (game_id, number) REFERENCES rounds (game_id, number) ON DELETE CASCADE
    ) STRICT
    """,
    """
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        corrected_at TEXT NOT NULL,
        old_reveal TEXT NOT NULL,
        new_reveal TEXT NOT NULL,
        FOREIGN KEY (game_id, number) REFERENCES rounds (game_id, number) ON DELETE CASCADE
    ) STRICT
    """,
    "CREATE INDEX corrections_of_round ON corrections (game_id, number)",
    "CREATE INDEX games_by_status ON games (status, id)",
)

_V2 = (
    """
    CREATE TABLE setup (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        step TEXT NOT NULL,
        draft TEXT NOT NULL,
        saved_at TEXT NOT NULL
    ) STRICT
    """,
)
"""The next game as set up so far (one row at most), so that a restart in the middle
of setting up goes on from the last step done."""

_V3 = (
    "ALTER TABLE round_images ADD COLUMN frame_sha256 BLOB",
    "ALTER TABLE round_images ADD COLUMN overlay_sha256 BLOB",
    "ALTER TABLE games ADD COLUMN pictures_pruned_at TEXT",
    "ALTER TABLE games ADD COLUMN imported TEXT",
    "CREATE UNIQUE INDEX games_imported ON games (imported) WHERE imported IS NOT NULL",
    """
    CREATE TABLE game_lines (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        digest BLOB NOT NULL,
        line TEXT NOT NULL
    ) STRICT
    """,
)
"""A year of service: every picture's SHA-256 (pictures kept before it have none: summing
them would rewrite every one of them, gigabytes written to the card at the first start
after an upgrade, for pictures pruned within the season anyway), when a game's
pictures were pruned, the digest of a game imported from
a game file (so the same file is not imported twice), and each game's line of the list
of games with the digest of the stored texts it was computed from (`history`), so
that listing a year of games replays only the games changed since."""

_V4 = (
    "ALTER TABLE games ADD COLUMN table_time TEXT",
    """
    CREATE TABLE clock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        boot TEXT NOT NULL,
        since_boot REAL NOT NULL,
        wall TEXT NOT NULL,
        table_time TEXT NOT NULL
    ) STRICT
    """,
)
"""Time that a clock put right cannot move (see `clock`): each game's last change on
the journal's own time, from which its pictures age (games kept before it have none,
and age from their dates), and the journal's last reading of its clocks (one row)."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4)
"""The statements of each migration, oldest first; only ever appended to."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The `user_version` of an up-to-date journal."""


def picture_sum(data: bytes | None) -> bytes | None:
    """The checksum kept with a picture: its SHA-256, or None for no picture."""
    return None if data is None else hashlib.sha256(data).digest()


def prepare(conn: sqlite3.Connection, path: Path) -> None:
    """Create, migrate or check the tables of an open journal; raises if they are not ours.

    The connection must be in autocommit mode (isolation_level=None): a migration
    runs in one `BEGIN IMMEDIATE` transaction, so two programs opening a new file at
    once cannot both create the tables.
    """
    if _version(conn) < SCHEMA_VERSION:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = _version(conn)
            _check_version(conn, path, version)
            for statements in MIGRATIONS[version:]:
                for statement in statements:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    version = _version(conn)
    _check_version(conn, path, version)
    _check_tables(conn, path, version)


def check(conn: sqlite3.Connection, path: Path) -> None:
    """Check the tables of a journal opened only to read: nothing is created or migrated,
    and an empty database is refused rather than made a journal.

    An older journal is checked against the tables of its own version: it is not
    damaged, only not yet migrated (its writer migrates it on opening).
    """
    version = _version(conn)
    if version == 0:
        raise NotAJournalError(not_a_journal(path, "an empty database"))
    _check_version(conn, path, version)
    _check_tables(conn, path, version)


def refuse_foreign(conn: sqlite3.Connection, path: Path, *, reading: bool = False) -> None:
    """Refuse, before anything is written to it, a database with another program's tables
    or a newer companion's journal: neither is ours to change or to move aside."""
    _check_version(conn, path, _version(conn), reading=reading)


def not_a_journal(path: Path, what: str, *, reading: bool = True) -> str:
    """The message refusing a file that is not a journal."""
    advice = "" if reading else "; give another journal path"
    return f"{path} is not a companion journal ({what}){advice}"


def _version(conn: sqlite3.Connection) -> int:
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return version


def _check_version(
    conn: sqlite3.Connection, path: Path, version: int, *, reading: bool = False
) -> None:
    if version > SCHEMA_VERSION:
        raise NotAJournalError(
            f"{path}: this journal was written by a newer companion (schema {version}; "
            f"this one reads up to {SCHEMA_VERSION}); update the companion to open it"
        )
    if version == 0:
        foreign = sorted(_columns(conn))
        if foreign:
            what = f"another program's database (tables {', '.join(foreign)})"
            raise NotAJournalError(not_a_journal(path, what, reading=reading))


def _check_tables(conn: sqlite3.Connection, path: Path, version: int) -> None:
    found = _columns(conn)
    for table, columns in expected_columns(version).items():
        if found.get(table) != columns:
            raise JournalCorruptError(
                f"{path}: the journal's table {table!r} is missing or has other columns "
                f"than schema {version} says; the file is damaged"
            )


def expected_columns(version: int = SCHEMA_VERSION) -> Mapping[str, tuple[str, ...]]:
    """Table name to column names of a journal at `version` (up to date by default),
    from the migrations themselves."""
    scratch = sqlite3.connect(":memory:")
    try:
        for statements in MIGRATIONS[:version]:
            for statement in statements:
                scratch.execute(statement)
        return _columns(scratch)
    finally:
        scratch.close()


YEAR_OF_SERVICE = 3
"""The migration that brought pictures' checksums, pruning marks, import digests and
the kept lines of the list of games."""


def has_year_of_service(conn: sqlite3.Connection) -> bool:
    """Whether the open file has the columns of `YEAR_OF_SERVICE`: an older journal read
    without migrating it has no checksums, no pruning marks, no import digests and no
    kept lines."""
    return _version(conn) >= YEAR_OF_SERVICE


def tables(conn: sqlite3.Connection) -> list[str]:
    """The names of the file's own tables (SQLite's internal ones left out)."""
    return [
        name
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]


def _columns(conn: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    return {
        table: tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table!r})"))
        for table in tables(conn)
    }
