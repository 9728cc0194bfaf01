"""Checkpoints on a thread of their own: the log is copied into the journal between
steps, and nothing a checkpoint meets stops the table."""

import sqlite3
from pathlib import Path

from companion.journal import Journal
from companion.journal.checkpoint import Checkpointer
from companion.journal.file import connect_read_only
from tests.journal.helpers import example, play_into

DEADLINE = 60.0
"""Longest wait for the thread's next turn (every hundredth of a second here): a bound
on a failure, generous for a loaded machine."""


def rounds_in_the_file(path: Path) -> int:
    """Rounds the journal file itself holds, its log left aside (`immutable`)."""
    conn = connect_read_only(path, immutable=True)
    try:
        (count,) = conn.execute("SELECT count(*) FROM rounds").fetchone()
    except sqlite3.OperationalError:  # not even the tables are in the file yet
        return 0
    finally:
        conn.close()
    return int(count)


def test_rounds_committed_are_copied_into_the_file_by_the_thread(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("odyssey-8-players"), 4)
        assert rounds_in_the_file(path) == 0  # all in the log so far
        with Checkpointer(path, every=0.01) as checkpoints:
            assert checkpoints.tried.wait(DEADLINE)
            # more turns may come before it is closed on a busy machine: none may fail
            assert checkpoints.done >= 1 and checkpoints.failed == 0
        assert rounds_in_the_file(path) == 4
        play_into(journal, example("party-1e-7-players"), 2)
        assert journal.load(2).game.played


def test_a_file_it_cannot_checkpoint_leaves_the_thread_running_until_closed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "not a journal"
    path.write_bytes(b"this is not a database, and never will be" * 100)
    checkpoints = Checkpointer(path, every=0.01)
    assert checkpoints.tried.wait(DEADLINE)
    checkpoints.tried.clear()
    assert checkpoints.tried.wait(DEADLINE)  # it goes on after a failure
    checkpoints.close()
    checkpoints.close()
    assert checkpoints.done == 0 and checkpoints.failed >= 2
