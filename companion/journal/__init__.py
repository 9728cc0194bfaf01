"""The journal of played games: SQLite, one transaction per confirmed round, never lost.

`companion play` writes it, `companion history` reads it; both find it through
`default_journal_path` unless told otherwise.
"""

import os
from pathlib import Path

from companion.journal.records import (
    GameStatus,
    GameSummary,
    RestoredGame,
    RestoredRound,
    RoundImages,
    RoundSummary,
    StoredGame,
)
from companion.journal.store import Journal

STATE_DIR_VARIABLE = "COMPANION_STATE_DIR"
"""The environment variable naming the folder for the journal and other state."""

JOURNAL_NAME = "journal.sqlite"
"""The journal's file name inside the state folder."""


def default_journal_path() -> Path:
    """`$COMPANION_STATE_DIR/journal.sqlite` if that is set, else `./state/journal.sqlite`."""
    state = os.environ.get(STATE_DIR_VARIABLE)
    return Path(state or "state") / JOURNAL_NAME


__all__ = [
    "JOURNAL_NAME",
    "STATE_DIR_VARIABLE",
    "GameStatus",
    "GameSummary",
    "Journal",
    "RestoredGame",
    "RestoredRound",
    "RoundImages",
    "RoundSummary",
    "StoredGame",
    "default_journal_path",
]
