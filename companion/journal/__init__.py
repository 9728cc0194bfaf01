"""The journal of played games: SQLite, one transaction per confirmed round, never lost.

`companion play` writes it (`Journal`, one writer at a time), `companion history`
reads it (`History` over a read-only `JournalFile`); both find it through
`default_journal_path` unless told otherwise. The archive of the oldest games beside
it is opened the one way `open_archive` opens it, by everything that reads it.
"""

from companion.journal.archive_file import archive_path, open_archive
from companion.journal.history import History, read_history
from companion.journal.records import (
    DamagedGame,
    GameStatus,
    GameSummary,
    RestoredGame,
    RestoredRound,
    RoundImages,
    RoundSummary,
    StoredGame,
)
from companion.journal.store import Journal
from companion.statedir import JOURNAL_NAME, STATE_DIR_VARIABLE, default_journal_path

__all__ = [
    "JOURNAL_NAME",
    "STATE_DIR_VARIABLE",
    "DamagedGame",
    "GameStatus",
    "GameSummary",
    "History",
    "Journal",
    "RestoredGame",
    "RestoredRound",
    "RoundImages",
    "RoundSummary",
    "StoredGame",
    "archive_path",
    "default_journal_path",
    "open_archive",
    "read_history",
]
