"""The writer lock when its file cannot be written: made by root (a `sudo companion
play` once) and so read-only to the service user, or on a full disk. The lock is the
`flock`, not the pid written into the file, so neither keeps the table from starting.

Tests run as root, whom permissions do not stop, so a read-only lock file is played
by refusing `os.open` for writing.
"""

import errno
import os
from pathlib import Path

import pytest

from companion.errors import JournalInUseError
from companion.journal import lock
from companion.journal.lock import WriterLock, lock_path


@pytest.fixture
def read_only_lock_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A journal whose lock file exists, empty, and cannot be opened for writing."""
    journal = tmp_path / "journal.sqlite"
    lock_path(journal).touch(mode=0o444)
    real_open = os.open

    def refusing(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        if flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(lock.os, "open", refusing)
    return journal


def test_a_lock_file_made_by_root_still_locks_for_the_service_user(
    read_only_lock_file: Path,
) -> None:
    first = WriterLock(read_only_lock_file)
    try:
        with pytest.raises(JournalInUseError, match=r"is in use by another process$"):
            WriterLock(read_only_lock_file)
    finally:
        first.close()
    WriterLock(read_only_lock_file).close()


@pytest.mark.parametrize("failing", ["ftruncate", "pwrite"])
def test_a_pid_that_cannot_be_written_keeps_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    journal = tmp_path / "journal.sqlite"

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(lock.os, failing, full)
    first = WriterLock(journal)
    monkeypatch.undo()
    try:
        with pytest.raises(JournalInUseError, match="is in use by"):
            WriterLock(journal)
    finally:
        first.close()
    WriterLock(journal).close()
