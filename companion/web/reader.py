"""The journal as the web server reads it: one file opened to read, on one thread.

SQLite connections belong to the thread that opened them, and opening a journal
checks it, so the server keeps one read-only connection on a thread of its own and
sends every read there, one at a time. The game loop's writer is never
touched: the journal's WAL lets this reader see every committed round while the
loop writes the next. The archive beside the journal (`companion history archive`
makes it while the table is stopped) is opened by `open_archive` once it is there, so
archived games are listed and shown like the others; an archive that cannot be
opened is handed to the reads as damaged (tried again at the next read), and the
list of games says so above the journal's games rather than stopping every page.
"""

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from companion.closing import Closing
from companion.journal import History
from companion.journal.archive_file import Damaged, Open, open_archive
from companion.journal.file import JournalFile

T = TypeVar("T")


class JournalReader(Closing):
    """Reads of one journal file, done in turn on the reader's own thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        """The journal the table writes."""
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="journal-reader")
        self._file: JournalFile | None = None
        self._archive: JournalFile | None = None
        self._closed = False

    async def read(self, work: Callable[[History], T]) -> T:
        """Run `work` on the reader's thread with the journal's history; its errors
        (an unknown game, a damaged round) are raised here."""
        return await asyncio.wrap_future(self._pool.submit(self._run, work))

    def _run(self, work: Callable[[History], T]) -> T:
        if self._file is None:  # opened at the first read: a new table has no journal yet
            self._file = JournalFile(self.path)
        archive: JournalFile | Damaged | None = self._archive
        if archive is None:
            state = open_archive(self.path)
            if isinstance(state, Open):
                self._archive = archive = state.file
            elif isinstance(state, Damaged):
                archive = state
        return work(History(self._file, archive))

    def close(self) -> None:
        """Close the file on its own thread, then stop the thread; safe twice."""
        if self._closed:
            return
        self._closed = True
        self._pool.submit(self._close_file)
        self._pool.shutdown(wait=True)

    def _close_file(self) -> None:
        for file in (self._file, self._archive):
            if file is not None:
                file.close()
        self._file = self._archive = None
