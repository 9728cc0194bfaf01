"""Checkpoints on a thread of their own: the log is copied into the journal between
steps, and nothing a checkpoint meets stops the table."""

import sqlite3
from pathlib import Path

from companion.journal import Journal
from companion.journal.checkpoint import Checkpointer
from tests.journal.helpers import example, play_into

DEADLINE = 30.0


def frames_left(path: Path) -> int:
    """Frames of the log not yet copied into the file, as another connection finds them."""
    conn = sqlite3.connect(path)
    try:
        _, logged, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        conn.close()
    return int(logged) - int(copied)


def test_rounds_committed_are_copied_into_the_file_by_the_thread(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("odyssey-8-players"), 4)
        with Checkpointer(path, every=0.01) as checkpoints:
            assert checkpoints.ran.wait(DEADLINE)
            assert checkpoints.done >= 1
        assert frames_left(path) == 0
        play_into(journal, example("party-1e-7-players"), 2)
        assert journal.load(2).game.played


def test_a_file_it_cannot_checkpoint_leaves_the_thread_running_until_closed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "not a journal"
    path.write_bytes(b"this is not a database, and never will be" * 100)
    checkpoints = Checkpointer(path, every=0.01)
    assert not checkpoints.ran.wait(0.2)
    checkpoints.close()
    checkpoints.close()
    assert checkpoints.done == 0
