"""One writer at a time: a second companion on the same journal is refused in one line,
and the lock dies with the process that held it; readers never wait for it."""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import JournalInUseError, NotAJournalError
from companion.journal import History, Journal
from companion.journal.file import JournalFile
from companion.runtime.service import NOTIFY_SOCKET, WATCHDOG_PID, WATCHDOG_USEC
from tests.journal.helpers import example, play_into
from tests.service_ready import READY_SECONDS, SERVICE_TEST_SECONDS, wait_until_ready

pytestmark = pytest.mark.timeout(SERVICE_TEST_SECONDS)

PLAY = [sys.executable, "-m", "companion", "play", "--source", "none", "--display", "headless"]
PLAY += ["--no-web"]
PLAY += ["--players", "Ann=red", "Ben=blue", "Cleo=green", "--no-buttons", "--no-light"]


def start_play(journal: Path, listener: socket.socket, notify: Path) -> subprocess.Popen[str]:
    environ = {k: v for k, v in os.environ.items() if k not in (WATCHDOG_USEC, WATCHDOG_PID)}
    return subprocess.Popen(
        [*PLAY, "--journal", str(journal)],
        stderr=subprocess.PIPE,
        text=True,
        env={**environ, NOTIFY_SOCKET: str(notify)},
    )


def stop(child: subprocess.Popen[str]) -> None:
    if child.poll() is None:
        child.kill()
    child.communicate(timeout=READY_SECONDS)


@pytest.mark.timeout(SERVICE_TEST_SECONDS)
def test_a_second_play_is_refused_until_the_first_dies(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    notify = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        first = start_play(journal, listener, notify)
        try:
            wait_until_ready(listener, first)
            second = subprocess.run(
                [*PLAY, "--journal", str(journal)],
                capture_output=True,
                text=True,
                timeout=READY_SECONDS,
                check=False,
            )
            assert second.returncode == 2
            assert second.stderr == (
                f"companion play: the journal {journal} is in use by process {first.pid}\n"
            )
            first.send_signal(signal.SIGKILL)
            first.communicate(timeout=READY_SECONDS)
            third = start_play(journal, listener, notify)
            try:
                wait_until_ready(listener, third)
                third.send_signal(signal.SIGTERM)
                _, errors = third.communicate(timeout=READY_SECONDS)
                assert third.returncode == 0, errors
            finally:
                stop(third)
        finally:
            stop(first)


def test_demo_is_refused_while_a_journal_writes_and_history_still_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"), 3)
        status = main(["demo", "--headless", "--journal", str(path), "--rounds", "1"])
        captured = capsys.readouterr()
        assert status == 2
        assert captured.err == (
            f"companion demo: the journal {path} is in use by process {os.getpid()}\n"
        )
        with pytest.raises(JournalInUseError), Journal(path):
            pass
        with JournalFile(path) as reader:
            assert [g.id for g in History(reader).games()] == [1]
        assert main(["history", "--journal", str(path)]) == 0
    with Journal(path) as again:
        assert again.resume() is not None


def test_the_writer_refuses_another_programs_database_and_leaves_it_in_place(
    tmp_path: Path,
) -> None:
    path = tmp_path / "recipes.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(NotAJournalError) as caught:
        Journal.open_or_recover(path)
    assert str(caught.value) == (
        f"{path} is not a companion journal (another program's database (tables recipes)); "
        "give another journal path"
    )
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["recipes.sqlite", "recipes.sqlite.lock"]
