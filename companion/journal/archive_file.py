"""The archive beside a journal, opened one way by everything that reads it.

`companion history archive` moves the oldest finished games into `NAME.archive.sqlite`
(`archive`). Whatever else looks at that file opens it with `open_archive`: `History`
(so `companion history` and the phone page), the doctor, `history import` (a game
imported before may have been archived since) and the numbering of a new game (never
an archived game's number). It tells which of four things it found:

- `Missing`: no file there; no game was ever archived.
- `Unmade`: a file that is not an archive yet, as the first archiving leaves it when
  killed before its tables were committed: an empty file, or an SQLite database with
  no table and schema version 0 (at the very start, with the rollback journal of its
  switch to WAL mode beside it, which a reader cannot roll back). No game is in it, and
  the next `history archive` makes it whole.
- `Open`: the archive, opened read-only and checked as any journal is when opened
  (`JournalFile`); the caller closes it.
- `Damaged`: anything else, with what opening it raised: a file SQLite finds damaged,
  another program's database, a newer companion's, one this user may not read, a
  folder. Its games cannot be listed.

Each caller only decides how to tell it: `history` lists the journal's games, then
says in one line what is wrong with the archive and exits 2; the phone page lists them
under a note saying the archive is damaged; the doctor fails its journal check with the
fix; `history import` refuses (it cannot tell which games were imported before); a new
game is numbered after the journal's newest alone, so that the table plays on.
"""

import os
import sqlite3
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from companion.errors import (
    CompanionError,
    JournalCorruptError,
    NotAJournalError,
    UnreadableFileError,
    UnwritableFileError,
)
from companion.journal import schema
from companion.journal.faults import RECOVERY_ADVICE
from companion.journal.file import JournalFile, connect_read_only
from companion.names import one_line

ARCHIVE_ADVICE = (
    "only `companion history` and the phone page read the archive: put back a copy of "
    "it, or move it away (its games are then no longer listed)"
)
"""What to do about an archive that is damaged or not an archive at all."""


@dataclass(frozen=True)
class Missing:
    """No archive beside the journal."""

    path: Path
    """Where the archive would be."""


@dataclass(frozen=True)
class Unmade:
    """A file the first archiving was killed while making: no game is in it yet."""

    path: Path
    """The archive's file."""


@dataclass(frozen=True)
class Open:
    """The archive, opened to read; the caller closes `file`."""

    file: JournalFile
    """The archive opened read-only, as `JournalFile` opens a journal."""

    @property
    def path(self) -> Path:
        """The archive's file."""
        return self.file.path


@dataclass(frozen=True)
class Damaged:
    """An archive that cannot be read, and why."""

    path: Path
    """The archive's file."""
    cause: CompanionError
    """What opening or reading it raised; its words name the file."""

    @property
    def said(self) -> str:
        """The cause in one line, without the advice given for a damaged journal (which
        `companion play` salvages; it never touches the archive)."""
        return one_line(str(self.cause)).removesuffix(f"; {RECOVERY_ADVICE}")

    @property
    def reason(self) -> str:
        """`said`, the file named by its name alone: for a phone, which has no business
        knowing the table's folders."""
        return self.said.replace(str(self.path), self.path.name)

    @property
    def advice(self) -> str | None:
        """What to do about it, when it is damage rather than a passing fault or a
        permission (whose fix depends on who asks)."""
        damaged = isinstance(self.cause, JournalCorruptError | NotAJournalError)
        return ARCHIVE_ADVICE if damaged else None

    @property
    def error(self) -> CompanionError:
        """The error to raise about it, of the cause's kind, worded for the archive."""
        words = f"the archive: {self.said}"
        if self.advice is not None:
            words += f"; {self.advice}"
        return type(self.cause)(words)


ArchiveState = Missing | Unmade | Open | Damaged
"""What `open_archive` found beside a journal."""


def archive_path(journal: str | PathLike[str]) -> Path:
    """The archive beside a journal's own file (symbolic links followed):
    `journal.sqlite` → `journal.archive.sqlite`."""
    path = Path(os.path.realpath(journal))
    return path.with_name(f"{path.stem}.archive{path.suffix}")


def open_archive(journal: str | PathLike[str]) -> ArchiveState:
    """The archive beside the journal at `journal`, opened to read if it can be; the
    one way it is opened (see the module)."""
    path = archive_path(journal)
    if not path.exists():
        return Missing(path)
    if not path.is_file():
        return Damaged(path, NotAJournalError(schema.not_a_journal(path, "not a file")))
    try:
        return Open(JournalFile(path))
    except UnreadableFileError:  # gone since it was looked at
        return Missing(path)
    except (NotAJournalError, UnwritableFileError) as err:
        return Unmade(path) if _unmade(path) else Damaged(path, err)
    except CompanionError as err:
        return Damaged(path, err)


def _unmade(path: Path) -> bool:
    """Whether a file is an empty file or an empty database: what a kill leaves while
    the file is made (with, at the very start, the rollback journal of its switch to WAL
    mode, which a reader cannot roll back: the file is then read as it is)."""
    try:
        if path.stat().st_size == 0:
            return True
        conn = connect_read_only(path, immutable=Path(f"{path}-journal").is_file())
    except (OSError, sqlite3.Error):
        return False
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        return version == 0 and not schema.tables(conn)
    except sqlite3.Error:
        return False
    finally:
        conn.close()
