"""The journal file: opening and checking it, and reading games back through the rules.

The writer (`JournalWriter`, in `writer`) is a `JournalFile` that opens its file to write;
a plain `JournalFile` opens it read-only (`companion history` and the doctor read
through one, through `History`), so the game loop can write on its connection while
another process or thread reads on another. A reader must change nothing, not even
the file's journal mode, so that pointing `history` at the wrong file cannot harm it:
it refuses what is not a journal rather than making it one. The writer keeps the file
the way SQLite is safest: WAL mode and `synchronous=FULL`. Opening checks what every
start reads (the file's size in whole pages, the schema, `quick_check` of the games
and setup tables), in the same time for a new journal as for a year's; the resumed game is
replayed before play, and everything else is checked when it is read. Scores are
never read from disk as truth: a game is replayed from its stored reveals through the
rules engine, and text that is not UTF-8 counts as damage like any other.
"""

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.closing import Closing
from companion.errors import (
    JournalError,
    NotAJournalError,
    UnknownGameError,
    UnreadableFileError,
    UnwritableFileError,
)
from companion.journal import schema
from companion.journal.documents import (
    DAMAGED,
    given_names,
    player_colours,
    record,
    setup_draft,
    stored_text,
    stored_time,
)
from companion.journal.faults import corrupt, translate
from companion.journal.place import real_journal
from companion.journal.records import GameStatus, StoredGame
from companion.names import one_line
from companion.rules import Game

BUSY_SECONDS = 5.0
"""How long to wait for another connection (say `companion history`) to let go of the file."""

QUICK_CHECK_PROBLEMS = 100
"""How many problems SQLite's check reports at most; the message counts them."""

STARTUP_TABLES = ("games", "setup")
"""The tables checked page by page at every opening: small (a row a game), and read
by every start."""

RECENT_GAMES = 100
"""How many of the newest games `recent_names` looks through: weeks of a café table,
few enough to read at once."""

SQLITE_INTEGERS = range(-(2**63), 2**63)

"""The numbers SQLite can store: a game or round number outside them is none the journal holds."""


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

    def __init__(self, path: str | PathLike[str]) -> None:
        """Open the journal at `path` to read only; the file is left exactly as it is.

        Raises `UnreadableFileError` for a missing file, `NotAJournalError` for a file
        that is not a journal (empty, another program's, a newer companion's, one with
        two names) and `JournalCorruptError` for a damaged one.
        """
        self.path = real_journal(path)
        """The journal's own file (symbolic links followed, see `place`)."""
        self._conn: sqlite3.Connection | None = None
        self._conn = self._connect()

    def _connect(self) -> sqlite3.Connection:
        """The connection: read-only here; the writer's opens the file to write."""
        return _open_reader(self.path)

    def close(self) -> None:
        """Close the file; closing again does nothing."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def load(self, game_id: int) -> StoredGame:
        """A stored game, replayed from its reveals; `UnknownGameError` if there is none,
        `JournalCorruptError` naming the round at fault if it does not replay."""
        with self.transaction(f"reading game {game_id}") as conn:
            return self.stored(conn, game_id)

    def resume(self) -> StoredGame | None:
        """The most recent game still being played, if there is one."""
        with self.transaction("looking for a game to resume") as conn:
            row = conn.execute(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
            ).fetchone()
            return None if row is None else self.stored(conn, row[0])

    def saved_setup(self) -> tuple[str, dict[str, Any]] | None:
        """The last finished setup step and the draft kept with it, if any; a draft that
        is damaged (not a JSON object) reads as none, and the table sets up again. A
        journal older than the setup table, read without migrating it, has none."""
        with self.transaction("reading the game being set up") as conn:
            if "setup" not in schema.tables(conn):
                return None
            row = conn.execute(
                "SELECT CAST(step AS BLOB), CAST(draft AS BLOB) FROM setup WHERE id = 1"
            ).fetchone()
        if row is None:
            return None
        step, draft = row
        found = setup_draft(draft)
        try:
            return None if found is None else (stored_text(step), found)
        except ValueError:
            return None

    def recent_names(self, limit: int = 24) -> tuple[str, ...]:
        """The names players gave themselves in the newest games, to offer again: newest
        game first, seating order within a game, each once, at most `limit`.

        A seat that played under its kit colour's name (English or French) gave no name.
        A game whose row is damaged is passed over: offering names must not stop a table.
        """
        with self.transaction("reading the players' names") as conn:
            rows = conn.execute(
                "SELECT CAST(header AS BLOB), CAST(colours AS BLOB) FROM games "
                "ORDER BY id DESC LIMIT ?",
                (RECENT_GAMES,),
            ).fetchall()
        names: dict[str, None] = {}
        for header, colours in rows:
            try:
                names.update(dict.fromkeys(given_names(stored_text(header), stored_text(colours))))
            except DAMAGED:
                continue
        return tuple(names)[: max(limit, 0)]

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
        except UnicodeDecodeError as err:
            _rollback(conn)
            raise corrupt(self.path, f"text that is not UTF-8 while {doing}: {err}") from err
        except BaseException:
            _rollback(conn)
            raise

    def game_row(self, conn: sqlite3.Connection, game_id: int) -> GameRow:
        row = (
            conn.execute(
                "SELECT header, colours, started_at, status, finished_at FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if game_id in SQLITE_INTEGERS
            else None
        )
        if row is None:
            (newest,) = conn.execute("SELECT max(id) FROM games").fetchone()
            held = "it holds no games" if newest is None else f"the newest is game {newest}"
            raise UnknownGameError(f"{self.path}: there is no game {game_id} ({held})")
        header, colours, started_at, status, finished_at = row
        return GameRow(header, colours, started_at, GameStatus(status), finished_at)

    def reveal_texts(self, conn: sqlite3.Connection, game_id: int) -> list[str]:
        """The stored reveals of a game from round 1; `JournalCorruptError` naming a
        missing round or one whose text is not UTF-8."""
        found = _reveal_texts(conn, game_id)
        if isinstance(found, str):
            raise corrupt(self.path, f"game {game_id}: {found}")
        return found

    def replay(self, game_id: int, header: str, reveals: Sequence[str]) -> Game:
        """The game replayed from its stored texts; `JournalCorruptError` naming the
        first round (or the header) that cannot be read or played."""
        found = _replayed(header, reveals)
        if isinstance(found, str):
            raise corrupt(self.path, f"game {game_id}: {found}")
        return found

    def examined(self, conn: sqlite3.Connection, game_id: int) -> StoredGame | str:
        """The game replayed, or what is damaged in it ("round 4 is damaged: …"), for a
        listing that must name the damage and go on; `UnknownGameError` if there is none."""
        try:
            row = self.game_row(conn, game_id)
        except UnknownGameError:
            raise
        except DAMAGED as err:
            return f"its stored row is damaged: {one_line(str(err))}"
        texts = _reveal_texts(conn, game_id)
        if isinstance(texts, str):
            return texts
        game = _replayed(row.header, texts)
        if isinstance(game, str):
            return game
        try:
            colours = player_colours(row.colours, game.seating.players)
            started_at = stored_time(row.started_at)
        except DAMAGED as err:
            return f"its colours or start time are damaged: {one_line(str(err))}"
        return StoredGame(
            id=game_id,
            game=game,
            colours=MappingProxyType(colours),
            started_at=started_at,
            status=row.status,
        )

    def stored(self, conn: sqlite3.Connection, game_id: int) -> StoredGame:
        found = self.examined(conn, game_id)
        if isinstance(found, str):
            raise corrupt(self.path, f"game {game_id}: {found}")
        return found

    def newest(self, conn: sqlite3.Connection) -> int | None:
        newest: int | None = conn.execute("SELECT max(id) FROM games").fetchone()[0]
        return newest


SUSPECT_SUFFIX = ".check"
"""The mark left beside a journal in which damage was met during play."""


def suspect_path(journal: Path) -> Path:
    """The mark beside a journal that asks its next start to check every page."""
    return journal.with_name(journal.name + SUSPECT_SUFFIX)


def make_room(path: Path, create: bool) -> None:
    """Make the journal's folders if `create`, else make sure the journal is there.

    The writer calls it before taking its lock, whose file lies beside the journal.
    """
    if not create and not path.is_file():
        raise UnreadableFileError(f"{path}: no journal here (`companion play` starts one)")
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UnwritableFileError(
                f"{path}: cannot make the journal's folder ({err.strerror or err})"
            ) from None


def open_writer(path: Path) -> sqlite3.Connection:
    """Connect to write: refuse another program's file before changing anything in it,
    then set WAL and FULL sync, check the file and create or migrate its tables."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS)
    except sqlite3.Error as err:
        raise translate(err, path, "opening it") from None
    return _checked(conn, path, _prepare_writer)


def _open_reader(path: Path) -> sqlite3.Connection:
    """Connect read-only (`mode=ro`): no journal mode set, no table created, no byte changed."""
    if not path.is_file():
        raise UnreadableFileError(f"{path}: no journal here (`companion play` starts one)")
    if path.stat().st_size == 0:
        raise NotAJournalError(schema.not_a_journal(path, "an empty file"))
    try:
        conn = connect_read_only(path)
    except sqlite3.Error as err:
        raise translate(err, path, "opening it") from None
    return _checked(conn, path, _check_reader)


def connect_read_only(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    """The one way a journal is opened to read: by URI, so that SQLite cannot write a
    byte of it (`mode=ro`), nor even look for a WAL beside it when `immutable` (which
    reads a damaged copy whose WAL cannot be opened). Raises `sqlite3.Error`."""
    return sqlite3.connect(
        f"{path.resolve().as_uri()}?{'immutable=1' if immutable else 'mode=ro'}",
        uri=True,
        isolation_level=None,
        timeout=BUSY_SECONDS,
    )


def _checked(
    conn: sqlite3.Connection,
    path: Path,
    prepare: Callable[[sqlite3.Connection, Path], None],
) -> sqlite3.Connection:
    """The connection, once `prepare` has checked it; closed again if it raises."""
    conn.text_factory = _strict_text
    try:
        prepare(conn, path)
    except sqlite3.Error as err:
        conn.close()
        raise translate(err, path, "opening it") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _prepare_writer(conn: sqlite3.Connection, path: Path) -> None:
    schema.refuse_foreign(conn, path)
    conn.execute("PRAGMA foreign_keys = ON")
    (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
    if str(mode).lower() != "wal":
        raise JournalError(
            f"{path}: SQLite cannot keep the journal in WAL mode here (it stays in "
            f"{mode} mode); keep the journal on the Pi's own disk"
        )
    conn.execute("PRAGMA synchronous = FULL")
    # Debian's SQLite (the Pi's) zeroes every freed page: pruning a game would write
    # its pictures' size again into the WAL, which a nearly full card has no room for.
    conn.execute("PRAGMA secure_delete = FAST")
    _check_pages(conn, path)
    schema.prepare(conn, path)


def _check_reader(conn: sqlite3.Connection, path: Path) -> None:
    schema.refuse_foreign(conn, path, reading=True)
    _check_pages(conn, path)
    schema.check(conn, path)


def _check_pages(conn: sqlite3.Connection, path: Path) -> None:
    """The checks made at every opening, which cost the same for a new journal and a
    year's: the file's size in whole pages, and SQLite's `quick_check` of the small
    tables every start reads (the games and the setup), told in one line.

    The rest of the file (rounds, pictures) is checked where it is read: a game when it
    is replayed, a picture against its checksum; `companion doctor` checks the whole."""
    (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    size = path.stat().st_size if path.exists() else 0
    if size % int(page_size):
        raise corrupt(path, f"{size} bytes is not a whole number of {page_size}-byte pages")
    present = set(schema.tables(conn))
    for table in STARTUP_TABLES:
        if table in present:
            _quick_check(conn, path, f"quick_check({table})")


def check_whole(conn: sqlite3.Connection, path: Path) -> None:
    """SQLite's `quick_check` of the whole file: every page, however large the file
    (the doctor's check, not the start's)."""
    _quick_check(conn, path, f"quick_check({QUICK_CHECK_PROBLEMS})")


def _quick_check(conn: sqlite3.Connection, path: Path, pragma: str) -> None:
    rows = [str(row) for (row,) in conn.execute(f"PRAGMA {pragma}")]
    if rows != ["ok"]:
        raise corrupt(path, "quick_check: " + _problems(rows))


def _problems(rows: list[str]) -> str:
    """SQLite's check report (several lines, under a heading) as one line: the first
    problem and how many more."""
    lines = [
        line.strip()
        for row in rows
        for line in row.splitlines()
        if line.strip() and not line.startswith("*** in database")
    ]
    if len(lines) <= 1:
        return one_line(" ".join(lines) or "; ".join(rows))
    more = len(lines) - 1
    return f"{one_line(lines[0])} (and {more} more problem{'s' if more > 1 else ''})"


def _strict_text(data: bytes) -> str:
    """Stored text, decoded strictly: bytes that are not UTF-8 raise, to be named as damage."""
    return data.decode("utf-8")


def _reveal_texts(conn: sqlite3.Connection, game_id: int) -> list[str] | str:
    """A game's stored reveals from round 1, or what is damaged among them."""
    rows = conn.execute(
        "SELECT number, CAST(reveal AS BLOB) FROM rounds WHERE game_id = ? ORDER BY number",
        (game_id,),
    ).fetchall()
    numbers = [number for number, _ in rows]
    texts: list[str] = []
    for expected, (number, data) in enumerate(rows, start=1):
        if number != expected:
            return f"round {expected} is damaged: it is missing (rounds {numbers} are stored)"
        try:
            texts.append(bytes(data).decode("utf-8"))
        except UnicodeDecodeError as err:
            return f"round {number} is damaged: its text is not UTF-8 ({err})"
    return texts


def _replayed(header: str, reveals: Sequence[str]) -> Game | str:
    """The game replayed from its stored texts through the rules, or what is damaged in
    it: the one replay of a stored game, for loading it and for listing it."""
    try:
        return record(header, reveals).play()
    except DAMAGED as err:
        return _damage(header, reveals, err)


def _damage(header: str, reveals: Sequence[str], err: Exception) -> str:
    """What is damaged in a game that does not replay: its header, or its first bad round."""
    try:
        record(header, ())
    except DAMAGED as bad:
        return f"its header is damaged: {one_line(str(bad))}"
    for number in range(1, len(reveals) + 1):
        try:
            record(header, reveals[:number]).play()
        except DAMAGED as bad:
            detail = one_line(str(bad)).removeprefix(f"round {number}: ")
            return f"round {number} is damaged: {detail}"
    return f"it cannot be replayed: {one_line(str(err))}"


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
