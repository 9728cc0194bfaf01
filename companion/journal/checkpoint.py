"""Copying the write-ahead log into the journal on a thread of its own, so no step waits on it.

In WAL mode every commit appends to `NAME-wal`, and now and then the log is copied
back into the file (a checkpoint): some 4 MB written and synced, a few hundred
milliseconds on an SD card. Left to SQLite, the checkpoint runs inside whichever
commit crosses 1,000 pages: a round confirmed at the table, or a game's pictures
pruned between two steps, and that step of the loop stalls. A `Checkpointer` runs it
instead on its own thread and connection every few seconds, in SQLite's PASSIVE
mode (it copies what it can without waiting on the writer or a reader), so the log
the writer sees stays short and its own checkpoint never comes due. A checkpoint
that fails (a busy file, a full card) is simply tried again at the next turn: the
log keeps every committed transaction until then.
"""

import sqlite3
import threading
from os import PathLike
from pathlib import Path

from companion.closing import Closing

CHECKPOINT_SECONDS = 5.0
"""Time between two checkpoints: at most a round or two of pictures in the log."""

CLOSE_SECONDS = 2.0
"""How long closing waits for a checkpoint in progress: a checkpoint left unfinished
is harmless (the log keeps everything, and the next checkpoint or opening copies it),
so a slow card never holds up a stopping companion."""


class Checkpointer(Closing):
    """Checkpoints the journal at `path` every `every` seconds on a thread, until closed."""

    def __init__(self, path: str | PathLike[str], every: float = CHECKPOINT_SECONDS) -> None:
        self.path = Path(path)
        self.every = every
        self.done = 0
        """Checkpoints run so far."""
        self.failed = 0
        """Checkpoints that failed (each tried again at the next turn)."""
        self.tried = threading.Event()
        """Set after every turn, whether its checkpoint ran or failed."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal checkpoints", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread after its checkpoint in progress, if any (waiting at most
        `CLOSE_SECONDS` for it); again does nothing."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(CLOSE_SECONDS)

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        try:
            while not self._stop.wait(self.every):
                try:
                    if conn is None:
                        conn = sqlite3.connect(self.path, isolation_level=None, timeout=0)
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.done += 1
                except sqlite3.Error:
                    self.failed += 1
                self.tried.set()
        finally:
            if conn is not None:
                conn.close()
