"""Talking to systemd: READY once the first screen is drawn, WATCHDOG from the render
loop while it turns, STOPPING on the way out; nothing at all outside systemd."""

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.errors import SettingError
from companion.journal import Journal
from companion.runtime.effects import JournalEffects
from companion.runtime.loop import Loop
from companion.runtime.service import QuietManager, Systemd, service_manager
from companion.session.session import Session, Settings
from tests.screens import RecordingScreen
from tests.session.table_frames import LINEUP, RULESET

WAIT = 60.0
"""Longest wait for the loop to draw the screens, or to send the messages, a test waits
for: a bound on a failure, generous for a loaded machine."""


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[socket.socket]:
    """A notify socket as systemd would listen on."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify"))
        sock.settimeout(WAIT)
        yield sock


def received(sock: socket.socket, until: str) -> list[str]:
    """Messages up to and including the first `until`."""
    messages: list[str] = []
    while not messages or messages[-1] != until:
        messages.append(sock.recv(256).decode())
    return messages


def test_the_loop_says_ready_feeds_the_watchdog_while_it_draws_and_says_stopping(
    tmp_path: Path, listener: socket.socket, recording_screen: RecordingScreen
) -> None:
    environ = {"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "200000"}
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = Session.new(RULESET, LINEUP, JournalEffects(journal), Settings((1, 2, 3, 4)))
        loop = Loop(session, recording_screen, time.monotonic, service=service_manager(environ))
        runner = threading.Thread(target=loop.run)
        try:
            runner.start()
            first = received(listener, "WATCHDOG=1")
            assert first == ["READY=1", "WATCHDOG=1"]
            assert len(recording_screen.views) >= 1, "ready only once a screen is drawn"
            fed = received(listener, "WATCHDOG=1") + received(listener, "WATCHDOG=1")
            assert fed == ["WATCHDOG=1", "WATCHDOG=1"]
            assert len(recording_screen.views) >= 3, "fed from the loop, once per step at most"
            loop.stop()
            runner.join(timeout=WAIT)
            rest = received(listener, "STOPPING=1")
            assert set(rest) <= {"WATCHDOG=1", "STOPPING=1"} and rest[-1] == "STOPPING=1"
        finally:
            loop.stop()
            runner.join(timeout=WAIT)


def test_the_watchdog_is_fed_a_few_times_per_period_not_every_step(
    tmp_path: Path, listener: socket.socket
) -> None:
    manager = Systemd(str(tmp_path / "notify"), watchdog_seconds=4.0)
    for now in (0.0, 0.5, 0.99, 1.0, 1.5, 2.0):
        manager.alive(now)
    listener.settimeout(0.2)
    assert [listener.recv(64) for _ in range(3)] == [b"WATCHDOG=1"] * 3
    with pytest.raises(TimeoutError):
        listener.recv(64)


def test_an_abstract_notify_socket_is_reached() -> None:
    name = f"companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(WAIT)
        service_manager({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(64) == b"READY=1"


def test_a_vanished_service_manager_does_not_stop_the_game(
    tmp_path: Path, recording_screen: RecordingScreen
) -> None:
    manager = service_manager({"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "1"})
    assert isinstance(manager, Systemd) and manager.feed_every is not None
    manager.ready()
    manager.alive(0.0)
    manager.stopping()
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = Session.new(RULESET, LINEUP, JournalEffects(journal), Settings((1, 2, 3, 4)))
        loop = Loop(session, recording_screen, time.monotonic, service=manager)
        runner = threading.Thread(target=loop.run)
        runner.start()
        try:
            drawing = recording_screen.wait_for_views(3, WAIT)
        finally:
            loop.stop()
            runner.join(timeout=WAIT)
    assert drawing, "the loop goes on drawing, telling nobody"
    assert not runner.is_alive(), "and stops when asked"


def test_outside_systemd_nobody_is_told() -> None:
    assert isinstance(service_manager({}), QuietManager)


def test_a_watchdog_meant_for_another_process_is_left_alone(tmp_path: Path) -> None:
    environ = {"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "1000000"}
    mine = service_manager({**environ, "WATCHDOG_PID": str(os.getpid())})
    other = service_manager({**environ, "WATCHDOG_PID": str(os.getpid() + 1)})
    assert isinstance(mine, Systemd) and mine.feed_every == 0.25
    assert isinstance(other, Systemd) and other.feed_every is None


@pytest.mark.parametrize("usec", ["soon", "0", "-5"])
def test_a_malformed_watchdog_period_is_a_setting_error(usec: str) -> None:
    with pytest.raises(SettingError, match="WATCHDOG_USEC"):
        service_manager({"NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": usec})


def test_a_long_start_asks_systemd_for_more_time(tmp_path: Path, listener: socket.socket) -> None:
    service_manager({"NOTIFY_SOCKET": str(tmp_path / "notify")}).extend_start(95.5)
    assert listener.recv(64) == b"EXTEND_TIMEOUT_USEC=95500000"
