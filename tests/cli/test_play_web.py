"""`companion play` with the phone page: served while the game runs, left out with
`--no-web`, gone without stopping the game when its port is taken, and a `--web` that
is not an address refused before anything starts."""

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from companion.cli import main
from companion.runtime.service import NOTIFY_SOCKET, WATCHDOG_PID, WATCHDOG_USEC
from companion.service_options import STAFF_PIN_VARIABLE
from tests.service_ready import (
    READY_SECONDS,
    SERVICE_TEST_SECONDS,
    run_as_service,
    wait_until_ready,
)

pytestmark = pytest.mark.timeout(SERVICE_TEST_SECONDS)

NO_PARTS = ["--source", "none", "--display", "headless", "--no-buttons", "--no-light"]
"""A table with no camera, no screen to see, no buttons and no light."""
LINE_SECONDS = 60.0
"""The longest wait for a line the child says once ready (or for an answer of its
page): a bound on a failure, generous for a loaded machine."""
_PAGE = re.compile(r"^companion play: phone page at (http://127\.0\.0\.1:(\d+)/)$")


@dataclass
class Playing:
    """A `companion play` child and the lines it says on stderr."""

    child: subprocess.Popen[str]
    lines: "queue.SimpleQueue[str | None]"
    said: list[str] = field(default_factory=list)

    def line_matching(self, pattern: re.Pattern[str]) -> re.Match[str]:
        """The first line (said so far or to come) that matches, waiting with a deadline."""
        for line in self.said:
            found = pattern.match(line)
            if found is not None:
                return found
        deadline = time.monotonic() + LINE_SECONDS
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.said.append(line)
            found = pattern.match(line)
            if found is not None:
                return found
        raise AssertionError(f"no line matches {pattern.pattern}; said: {self.said}")

    def everything(self) -> list[str]:
        """Every line said, once the child has ended."""
        while (line := self.lines.get(timeout=LINE_SECONDS)) is not None:
            self.said.append(line)
        return self.said


def listening_sockets(pid: int) -> set[int]:
    """The inodes of the TCP sockets process `pid` listens on (Linux's /proc)."""
    listening: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        listening |= {int(row.split()[9]) for row in rows if row.split()[3] == "0A"}
    owned: set[int] = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            owned.add(int(target[8:-1]))
    return owned & listening


@contextmanager
def playing(arguments: list[str], folder: Path, environ: dict[str, str]) -> Iterator[Playing]:
    """`companion play ARGUMENTS` running as the service would (ready once it said
    READY=1), stopped with SIGTERM at the end; it must then exit cleanly. The staff
    PIN is the one `environ` gives, if any."""
    command = [sys.executable, "-m", "companion", "play", *arguments]
    left_out = (WATCHDOG_USEC, WATCHDOG_PID, STAFF_PIN_VARIABLE)
    base = {k: v for k, v in os.environ.items() if k not in left_out}
    notify = folder / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        env = {**base, **environ, NOTIFY_SOCKET: str(notify)}
        child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
        lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()

        def read() -> None:
            assert child.stderr is not None
            for line in child.stderr:
                lines.put(line.rstrip("\n"))
            lines.put(None)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            wait_until_ready(listener, child)
            yield Playing(child, lines)
            child.send_signal(signal.SIGTERM)
            assert child.wait(READY_SECONDS) == 0
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            reader.join(READY_SECONDS)


def test_the_page_answers_while_play_runs(tmp_path: Path) -> None:
    arguments = [*NO_PARTS, "--journal", str(tmp_path / "journal.sqlite"), "--web", "127.0.0.1:0"]
    with playing(arguments, tmp_path, {STAFF_PIN_VARIABLE: "246810"}) as play:
        page = play.line_matching(_PAGE)
        url, port = page.group(1), int(page.group(2))
        assert port != 0
        answer = httpx.get(f"{url}api/state", timeout=LINE_SECONDS)
        assert answer.status_code == 200
        assert answer.json()["phase"] == "language"
        assert len(listening_sockets(play.child.pid)) == 1
    assert not any("staff tools" in line for line in play.everything())


def test_without_a_pin_the_page_is_served_with_its_staff_tools_off(tmp_path: Path) -> None:
    arguments = [*NO_PARTS, "--journal", str(tmp_path / "journal.sqlite"), "--web", "127.0.0.1:0"]
    with playing(arguments, tmp_path, {}) as play:
        off = re.compile(r"^companion play: staff tools on the phone page are off: no staff PIN")
        play.line_matching(off)
        play.line_matching(_PAGE)


def test_no_web_serves_nothing_and_says_no_address(tmp_path: Path) -> None:
    arguments = [*NO_PARTS, "--journal", str(tmp_path / "journal.sqlite"), "--no-web"]
    with playing(arguments, tmp_path, {}) as play:
        assert listening_sockets(play.child.pid) == set()
    assert not any("phone page" in line for line in play.everything())


def test_a_taken_port_means_no_page_and_the_game_still_starts(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, errors = run_as_service(
            [
                *NO_PARTS,
                "--journal",
                str(tmp_path / "journal.sqlite"),
                "--web",
                f"127.0.0.1:{port}",
            ],
            tmp_path / "notify",
        )
    assert status == 0, errors
    assert (
        f"companion play: no phone page: the phone page cannot listen on 127.0.0.1 port {port}"
        in errors
    )
    assert "phone page at" not in errors


@pytest.mark.parametrize(
    ("web", "words"),
    [
        ("example.com:80", "--web example.com:80: give an IP address to listen on"),
        ("127.0.0.1:99999", "--web 127.0.0.1:99999: the port must be a number from 0 to 65535"),
    ],
)
def test_a_web_address_that_is_not_one_is_refused_at_once(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    web: str,
    words: str,
) -> None:
    looked_up: list[object] = []

    def lookup(*arguments: object) -> None:
        looked_up.append(arguments)
        raise OSError("a name looked up")

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    monkeypatch.setattr(socket, "gethostbyname", lookup)
    journal = tmp_path / "journal.sqlite"
    assert main(["play", *NO_PARTS, "--journal", str(journal), "--web", web]) == 2
    assert looked_up == [], "refused from the words given, no name looked up on the network"
    error = capsys.readouterr().err
    assert error.startswith(f"companion play: {words}")
    assert error.count("\n") == 1
    assert not journal.exists(), "refused before anything was opened"
