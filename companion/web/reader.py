"""The journal as the web server reads it: one file opened to read, on one thread.

SQLite connections belong to the thread that opened them, and opening a journal
checks it whole, so the server keeps one read-only connection on a thread of its
own and sends every read there, one at a time. The game loop's writer is never
touched: the journal's WAL lets this reader see every committed round while the
loop writes the next.
"""

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from companion.closing import Closing
from companion.journal import History
from companion.journal.file import JournalFile

T = TypeVar("T")


class JournalReader(Closing):
    """Reads of one journal file, done in turn on the reader's own thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        """The journal the table writes."""
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="journal-reader")
        self._file: JournalFile | None = None
        self._closed = False

    async def read(self, work: Callable[[History], T]) -> T:
        """Run `work` on the reader's thread with the journal's history; its errors
        (an unknown game, a damaged round) are raised here."""
        return await asyncio.wrap_future(self._pool.submit(self._run, work))

    def _run(self, work: Callable[[History], T]) -> T:
        if self._file is None:  # opened at the first read: a new table has no journal yet
            self._file = JournalFile(self.path)
        return work(History(self._file))

    def close(self) -> None:
        """Close the file on its own thread, then stop the thread; safe twice."""
        if self._closed:
            return
        self._closed = True
        self._pool.submit(self._close_file)
        self._pool.shutdown(wait=True)

    def _close_file(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
