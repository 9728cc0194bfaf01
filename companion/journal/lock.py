"""One writer per journal: a lock that the kernel drops when its process dies.

Two companions writing one journal would each believe their own game is the one
being played: the second marks the first's game abandoned and the first's
confirmed rounds vanish from the history. So a writer holds `flock` on
`NAME.lock` beside the journal for as long as it is open. A pid file alone would
outlive a crash and keep the table from starting after a power cut; a `flock`
cannot, because the kernel releases it with the process. The pid is written into
the lock file only to name the holder to whoever is refused. The lock file is never
deleted: removing it while another process waits on it would let two writers in.
"""

import fcntl
import os
from pathlib import Path

from companion.closing import Closing
from companion.errors import JournalInUseError, UnwritableFileError

LOCK_SUFFIX = ".lock"
"""Added to the journal's name to name its lock file."""


def lock_path(journal: Path) -> Path:
    """The lock file of a journal."""
    return journal.with_name(journal.name + LOCK_SUFFIX)


class WriterLock(Closing):
    """The journal's writer lock, held from construction until `close`."""

    def __init__(self, journal: Path) -> None:
        """Take the lock; `JournalInUseError` naming the holder's pid if another has it."""
        self.path = lock_path(journal)
        """The lock file."""
        writable = True
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError:  # made by root once: a read-only descriptor locks as well
            writable = False
            self._fd = _open_read_only(self.path)
        except OSError as err:
            raise _unmakeable(self.path, err) from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                holder = _holder(self._fd)
            finally:
                self.close()
            raise JournalInUseError(f"the journal {journal} is in use by {holder}") from None
        except BaseException:
            self.close()
            raise
        if writable:
            _name_holder(self._fd)

    def close(self) -> None:
        """Let go of the lock; closing again does nothing."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _open_read_only(path: Path) -> int:
    """The lock file opened for reading, which is all `flock` needs."""
    try:
        return os.open(path, os.O_RDONLY)
    except OSError as err:
        raise _unmakeable(path, err) from None


def _unmakeable(path: Path, err: OSError) -> UnwritableFileError:
    return UnwritableFileError(
        f"{path}: cannot make the journal's lock file ({err.strerror or err})"
    )


def _name_holder(fd: int) -> None:
    """Write our pid for whoever is refused; best effort, since the `flock` is the lock
    and a full disk must not keep the table from starting (the refused are then told
    "another process")."""
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass


def _holder(fd: int) -> str:
    """Who holds the lock, from the pid its holder wrote (it may not have written it yet)."""
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return f"process {text}" if text.isdigit() else "another process"
