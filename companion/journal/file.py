"""The journal file: opening and checking it, and reading games back through the rules.

The writer (`Journal`, in `store`) is a `JournalFile`; `companion history` opens a
`JournalFile` of its own to read (through `History`), so the game loop can write on
its connection while another process or thread reads on another. Both are kept the way SQLite
is safest: WAL mode and `synchronous=FULL`; opening checks the file (its size in
whole pages, `quick_check` and the schema) so that damage is found at start-up, not
in the middle of a game. Scores are never read from disk as truth: a game is
replayed from its stored reveals through the rules engine.
"""

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from os import PathLike
from pathlib import Path
from types import MappingProxyType

from companion.closing import Closing
from companion.errors import (
    GameFileError,
    JournalCorruptError,
    JournalError,
    RulesError,
    UnknownGameError,
    UnreadableFileError,
    UnwritableFileError,
)
from companion.journal import schema
from companion.journal.documents import record, str_mapping
from companion.journal.faults import corrupt, translate
from companion.journal.records import GameStatus, StoredGame
from companion.rules import Game

BUSY_SECONDS = 5.0
"""How long to wait for another connection (say `companion history`) to let go of the file."""


@dataclass(frozen=True)
class GameRow:
    """A game's row as stored: its header and colours still JSON text."""

    header: str
    """The game file's header (ruleset, options, players, first storyteller)."""
    colours: str
    """Player name to kit colour, as JSON."""
    started_at: str
    """When it started, ISO 8601 in UTC."""
    status: GameStatus
    """Playing, finished or abandoned."""
    finished_at: str | None
    """When it ended, if it did."""


class JournalFile(Closing):
    """An open journal file: its connection, its transactions, and its games replayed."""

    def __init__(self, path: str | PathLike[str], *, create: bool) -> None:
        """Open the journal at `path`, creating it (and its folders) if `create`.

        Raises `JournalCorruptError` for a damaged file or one that is not a journal,
        `UnwritableFileError` where no journal can be written, and
        `UnreadableFileError` for a missing file when `create` is False.
        """
        self.path = Path(path)
        """The journal file."""
        self._conn: sqlite3.Connection | None = None
        self._conn = _open(self.path, create)

    def close(self) -> None:
        """Close the file; closing again does nothing."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def load(self, game_id: int) -> StoredGame:
        """A stored game, replayed from its reveals; `UnknownGameError` if there is none."""
        with self.transaction(f"reading game {game_id}") as conn:
            return self.stored(conn, game_id)

    def resume(self) -> StoredGame | None:
        """The most recent game still being played, if there is one."""
        with self.transaction("looking for a game to resume") as conn:
            row = conn.execute(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
            ).fetchone()
            return None if row is None else self.stored(conn, row[0])

    @contextmanager
    def transaction(self, doing: str, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        if self._conn is None:
            raise JournalError(f"{self.path}: the journal is closed (while {doing})")
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as err:
            _rollback(conn)
            raise translate(err, self.path, doing) from err
        except BaseException:
            _rollback(conn)
            raise

    def game_row(self, conn: sqlite3.Connection, game_id: int) -> GameRow:
        row = conn.execute(
            "SELECT header, colours, started_at, status, finished_at FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            (newest,) = conn.execute("SELECT max(id) FROM games").fetchone()
            held = "it holds no games" if newest is None else f"the newest is game {newest}"
            raise UnknownGameError(f"{self.path}: there is no game {game_id} ({held})")
        header, colours, started_at, status, finished_at = row
        return GameRow(header, colours, started_at, GameStatus(status), finished_at)

    def reveal_texts(self, conn: sqlite3.Connection, game_id: int) -> list[str]:
        rows = conn.execute(
            "SELECT number, reveal FROM rounds WHERE game_id = ? ORDER BY number", (game_id,)
        ).fetchall()
        numbers = [number for number, _ in rows]
        if numbers != list(range(1, len(rows) + 1)):
            raise corrupt(self.path, f"game {game_id} has rounds {numbers} stored, with a gap")
        return [reveal for _, reveal in rows]

    def replay(self, game_id: int, header: str, reveals: Iterable[str]) -> Game:
        try:
            return record(header, list(reveals)).play()
        except (GameFileError, RulesError, ValueError, TypeError, KeyError) as err:
            raise JournalCorruptError(
                f"{self.path}: game {game_id} cannot be replayed from its stored rounds ({err})"
            ) from err

    def stored(self, conn: sqlite3.Connection, game_id: int) -> StoredGame:
        row = self.game_row(conn, game_id)
        game = self.replay(game_id, row.header, self.reveal_texts(conn, game_id))
        return StoredGame(
            id=game_id,
            game=game,
            colours=MappingProxyType(str_mapping(row.colours)),
            started_at=datetime.fromisoformat(row.started_at),
            status=row.status,
        )

    def newest(self, conn: sqlite3.Connection) -> int | None:
        newest: int | None = conn.execute("SELECT max(id) FROM games").fetchone()[0]
        return newest


def _open(path: Path, create: bool) -> sqlite3.Connection:
    """Connect, set WAL and FULL sync, check the file and its tables."""
    if not create and not path.is_file():
        raise UnreadableFileError(f"{path}: no journal here (`companion play` starts one)")
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UnwritableFileError(
                f"{path}: cannot make the journal's folder ({err.strerror or err})"
            ) from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS)
    except sqlite3.Error as err:
        raise translate(err, path, "opening it") from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if str(mode).lower() != "wal":
            raise JournalError(
                f"{path}: SQLite cannot keep the journal in WAL mode here (it stays in "
                f"{mode} mode); keep the journal on the Pi's own disk"
            )
        conn.execute("PRAGMA synchronous = FULL")
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
        size = path.stat().st_size if path.exists() else 0
        if size % int(page_size):
            raise corrupt(path, f"{size} bytes is not a whole number of {page_size}-byte pages")
        problems = [str(problem) for (problem,) in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise corrupt(path, "quick_check: " + "; ".join(problems))
        schema.prepare(conn, path)
    except sqlite3.Error as err:
        conn.close()
        raise translate(err, path, "opening it") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
