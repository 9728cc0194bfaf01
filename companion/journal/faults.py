"""SQLite's errors, told as the companion's: damaged file, no room, busy, or other.

SQLite reports everything as `sqlite3.Error` with a result code. The café needs to
know which of a few things happened, because each asks for something different: a
damaged file is moved aside and salvaged, a full or read-only disk needs a person,
a busy file needs waiting. Every message names the journal file.
"""

import sqlite3
from pathlib import Path

from companion.errors import (
    CompanionError,
    DiskFullError,
    JournalCorruptError,
    JournalError,
    UnwritableFileError,
)
from companion.names import one_line

RECOVERY_ADVICE = (
    "`companion play` keeps it as NAME.corrupt-<time> and saves every round that can "
    "still be read into a fresh journal"
)
"""What to do about a damaged journal, for the end of its error message."""

_CORRUPT = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_UNWRITABLE = {
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_AUTH,
}
_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}


def corrupt(path: Path, detail: str) -> JournalCorruptError:
    """The error for a damaged journal file, with what to do about it."""
    return JournalCorruptError(
        f"{path}: the journal is damaged ({one_line(detail)}); {RECOVERY_ADVICE}"
    )


def translate(err: sqlite3.Error, path: Path, doing: str) -> CompanionError:
    """The companion's error for an SQLite error met while `doing` something."""
    code = getattr(err, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    said = one_line(str(err))
    if primary in _CORRUPT:
        return corrupt(path, f"{said} while {doing}")
    if primary == sqlite3.SQLITE_FULL:
        return DiskFullError(f"{path}: the disk is full while {doing} ({said})")
    if primary in _UNWRITABLE:
        return UnwritableFileError(f"{path}: cannot use the journal while {doing} ({said})")
    if primary in _BUSY:
        return JournalError(
            f"{path}: another program holds the journal while {doing} ({said}); try again"
        )
    return JournalError(f"{path}: SQLite failed while {doing} ({said})")
