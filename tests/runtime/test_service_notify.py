"""The watchdog's messages cannot fail in silence: the socket to systemd is opened at
the start, so a process out of file descriptors (a flood of connections) still feeds
the watchdog; a message that cannot be sent is said on the log, once and then with
its count, and the table's screen says systemd cannot hear it.

Before, each message opened a socket of its own, and any failure was swallowed:
without a file descriptor to spare the watchdog starved unseen, and systemd
restarted the table every 30 seconds with nothing on its log to say why.
"""

import logging
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.display.view import ScreenView
from companion.journal import Journal
from companion.runtime.effects import JournalEffects
from companion.runtime.loop import UNHEARD, Loop
from companion.runtime.service import Systemd
from companion.session.session import Session, Settings
from tests.screens import RecordingScreen
from tests.session.table_frames import LINEUP, RULESET

WAIT = 60.0
"""Longest wait for a message, a child or the loop: a bound on a failure."""

_OUT_OF_FILES = """
import resource, sys
from companion.runtime.service import Systemd
manager = Systemd(sys.argv[1], 2.0)
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
held = []
try:
    while True:
        held.append(open("/dev/null"))
except OSError:
    pass
manager.ready()
manager.alive(100.0)
print(len(held), manager.healthy, manager.failures)
"""
"""A process that told systemd who it is, then ran out of file descriptors."""


def test_a_process_out_of_file_descriptors_still_feeds_the_watchdog(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(tmp_path / "notify"))
        listener.settimeout(WAIT)
        done = subprocess.run(
            [sys.executable, "-c", _OUT_OF_FILES, str(tmp_path / "notify")],
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=True,
        )
        held, healthy, failures = done.stdout.split()
        assert int(held) > 0, "the child did run out of file descriptors"
        assert [listener.recv(64), listener.recv(64)] == [b"READY=1", b"WATCHDOG=1"]
    assert (healthy, failures) == ("True", "0")


def test_a_message_that_cannot_be_sent_is_said_once_then_counted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    manager = Systemd(str(tmp_path / "nobody-listens"), 2.0)
    try:
        with caplog.at_level(logging.WARNING, "companion.runtime.service"):
            for now in range(100):
                manager.alive(float(now))
        said = [r for r in caplog.records if "cannot send WATCHDOG=1" in r.getMessage()]
        assert len(said) == 1 and said[0].levelno == logging.ERROR, "said once, not every time"
        assert "nobody-listens" in said[0].getMessage() and "restart" in said[0].getMessage()
        assert not manager.healthy and manager.failures == 100
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
            listener.bind(str(tmp_path / "nobody-listens"))
            manager.alive(1000.0)
            assert listener.recv(64) == b"WATCHDOG=1"
        assert manager.healthy and manager.failures == 0
        assert any("again, after 100 failures" in r.getMessage() for r in caplog.records)
    finally:
        manager.close()
        manager.close()


def shown(view: ScreenView) -> list[str]:
    """The lines a screen shows of what is going on: its notices, a setup's problems."""
    return [n.text for n in view.notices] + list(view.setup.problems if view.setup else ())


def test_the_screen_says_when_systemd_cannot_hear_the_table(
    tmp_path: Path, recording_screen: RecordingScreen
) -> None:
    manager = Systemd(str(tmp_path / "nobody-listens"), 0.2)
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = Session.new(RULESET, LINEUP, JournalEffects(journal), Settings((1, 2, 3, 4)))
        loop = Loop(session, recording_screen, time.monotonic, service=manager)
        runner = threading.Thread(target=loop.run)
        runner.start()
        try:
            deadline = time.monotonic() + WAIT
            while UNHEARD.render() not in shown(recording_screen.views[-1]):
                assert time.monotonic() < deadline, "the screen never said it"
                recording_screen.wait_for_views(len(recording_screen.views) + 1, WAIT)
        finally:
            loop.stop()
            runner.join(WAIT)
            manager.close()
