"""One journal, whatever name it is given by.

Everything kept beside a journal is found by its name: the writer's lock
(`NAME.lock`), the archive (`NAME.archive.sqlite`), the mark asking the next start
to check every page, and SQLite's own log (`NAME-wal`). Given through a symbolic
link, a writer would look for the lock beside the link and find none while the table
plays, and make the archive there, where the table never reads it. So a journal is
opened by its real file: symbolic links followed, in its name and in its folders.

A hard link is a second name for the same file, which no path can resolve: SQLite
would keep a second log beside it, and the rounds each name's writer left in its log
would be missing from the other's. A journal file with more than one name is refused,
naming it, by every command that opens a journal, until it has only one.
"""

import os
import stat
from os import PathLike
from pathlib import Path

from companion.errors import LinkedJournalError


def real_journal(path: str | PathLike[str]) -> Path:
    """The journal's own file, symbolic links followed (it may not exist yet);
    `LinkedJournalError` naming `path` for a file with more than one name."""
    real = Path(os.path.realpath(path))
    try:
        found = real.stat()
    except OSError:  # not there yet, or not to be looked at: opening it says why
        return real
    if stat.S_ISREG(found.st_mode) and found.st_nlink > 1:
        raise LinkedJournalError(
            f"{path}: the journal file has {found.st_nlink} names (hard links), and SQLite "
            "keeps its log beside each name, so writing through two would lose rounds; "
            f"keep one name and remove the others (`find / -xdev -samefile {real}` "
            "lists them)"
        )
    return real
