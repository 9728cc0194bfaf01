"""`companion play` as the service runs it (a notify socket, a 2-second watchdog, the
1,024 file descriptors a process gets by default), its page flooded from the
café's Wi-Fi: the loop goes on feeding the watchdog, phones are served, the log stays
a few lines, and a name no table can show is refused, even one an older companion
kept in its journal.

Each failed before its fix: 1,100 idle connections took every file descriptor, so
the watchdog's messages failed in silence (systemd restarted the table every 30 s)
and the log grew by a traceback a second; a 60,000-character name was taken from a
phone, and froze the table's loop for a minute at every restart.
"""

import os
import queue
import re
import resource
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
from typing import Any

from companion.journal import Journal
from companion.names import MAX_NAME_CHARS
from companion.runtime.service import NOTIFY_SOCKET, WATCHDOG_PID, WATCHDOG_USEC
from companion.service_options import STAFF_PIN_VARIABLE
from tests.web.flood import ANSWER_SECONDS, Flood, csrf_of, phone, room_for_sockets, served_soon

PIN = "246810"
FILES = 1024
"""The file descriptor limit the table runs with: the default of a process, and of a
unit without `LimitNOFILE`."""
WATCHDOG_SECONDS = 2.0
"""The watchdog's period: the loop says it is alive four times a period."""
STOP_SECONDS = 120.0
"""The longest wait for the table to stop once told (a bound on a failure)."""
NO_PARTS = ["--source", "none", "--display", "headless", "--no-buttons", "--no-light"]
STRANGERS = tuple(f"127.0.0.{n}" for n in range(2, 12))
_PAGE = re.compile(r"companion play: phone page at http://127\.0\.0\.1:(\d+)/")


@dataclass
class Table:
    """A `companion play` child, what it told systemd and what it wrote on stderr."""

    child: subprocess.Popen[bytes]
    told: "queue.SimpleQueue[str]" = field(default_factory=queue.SimpleQueue)
    stderr: list[str] = field(default_factory=list)
    fed: int = 0
    """WATCHDOG=1 messages received so far (counted by `wait_fed`)."""

    def wait_for(self, message: str) -> None:
        """Wait for `message` on the notify socket."""
        deadline = time.monotonic() + ANSWER_SECONDS * 2
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {message} within {ANSWER_SECONDS * 2:.0f} s: {self.stderr[-5:]}"
            assert self.child.poll() is None, f"the table ended: {self.stderr[-5:]}"
            try:
                said = self.told.get(timeout=min(left, 1.0))
            except queue.Empty:
                continue
            self.fed += said == "WATCHDOG=1"
            if said == message:
                return

    def wait_fed(self, times: int) -> None:
        """Wait until the watchdog has been fed `times` more times."""
        for _ in range(times):
            self.wait_for("WATCHDOG=1")

    def port(self) -> int:
        deadline = time.monotonic() + ANSWER_SECONDS
        while time.monotonic() < deadline:
            for line in list(self.stderr):
                found = _PAGE.search(line)
                if found is not None:
                    return int(found.group(1))
            time.sleep(0.05)
        raise AssertionError(f"no page address said: {self.stderr}")


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@contextmanager
def table(journal: Path, folder: Path) -> Iterator[Table]:
    """The table started as the service starts it and ready (its first screen drawn);
    stopped with SIGTERM at the end, which it must obey cleanly."""
    command = [sys.executable, "-m", "companion", "play", *NO_PARTS]
    command += ["--journal", str(journal), "--web", "127.0.0.1:0"]
    notify = folder / "notify"
    notify.unlink(missing_ok=True)
    base = {k: v for k, v in os.environ.items() if k not in (WATCHDOG_USEC, WATCHDOG_PID)}
    environ = {
        **base,
        NOTIFY_SOCKET: str(notify),
        WATCHDOG_USEC: str(int(WATCHDOG_SECONDS * 1e6)),
        STAFF_PIN_VARIABLE: PIN,
    }
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        listener.settimeout(0.5)
        child = subprocess.Popen(command, stderr=subprocess.PIPE, env=environ, preexec_fn=_limited)
        running = Table(child)
        done = threading.Event()

        def hear() -> None:
            while not done.is_set():
                try:
                    running.told.put(listener.recv(256).decode())
                except TimeoutError:
                    continue
                except OSError:
                    return

        def read() -> None:
            assert child.stderr is not None
            for line in child.stderr:
                running.stderr.append(line.decode(errors="replace").rstrip("\n"))

        threads = [
            threading.Thread(target=hear, daemon=True),
            threading.Thread(target=read, daemon=True),
        ]
        for thread in threads:
            thread.start()
        try:
            running.wait_for("READY=1")
            yield running
            child.send_signal(signal.SIGTERM)
            assert child.wait(STOP_SECONDS) == 0, running.stderr[-10:]
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            done.set()
            for thread in threads:
                thread.join(STOP_SECONDS)
            if child.stderr is not None:
                child.stderr.close()


def test_a_flood_of_idle_connections_neither_starves_the_watchdog_nor_the_log(
    tmp_path: Path,
) -> None:
    room_for_sockets(1_200)
    with table(tmp_path / "journal.sqlite", tmp_path) as running:
        port = running.port()
        said_before = len(running.stderr)
        with Flood(port) as flood:
            flood.open(1_100, STRANGERS)
            running.wait_fed(8)  # the loop's steps still reach systemd, the flood held
            assert served_soon(port).status_code == 200
            answers = flood.answers()  # each turned away, or cut off once idle too long
            running.wait_fed(4)
        assert all(a.startswith((b"HTTP/1.1 503", b"HTTP/1.1 408")) or a == b"" for a in answers)
        served_soon(port)
        said = running.stderr[said_before:]
    assert len(said) < 40, said[:40]
    assert not any("Traceback" in line for line in said), said
    assert any("all connections taken" in line for line in said), "the flood is said on the log"


def _setup(names: dict[str, str]) -> dict[str, Any]:
    return {
        "language": "en",
        "ruleset": "classic",
        "options": {},
        "seats": ["red", "blue", "green"],
        "names": names,
    }


def test_a_name_the_table_cannot_show_is_refused_and_one_kept_before_cannot_freeze_it(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    with Journal(journal) as kept:
        kept.save_setup("names", _setup({}))
    with table(journal, tmp_path) as running:
        port = running.port()
        with phone(port, "127.0.0.2") as stranger:
            body = {"names": {"blue": "W" * 60_000}}
            answer = stranger.post("/api/setup", json=body, headers=csrf_of(stranger))
            assert answer.status_code == 409, answer.text
            assert answer.json()["error"] == (
                f"a name may have at most {MAX_NAME_CHARS} characters: choose a shorter one"
            )
            body = {"names": {"blue": "Ann"}}
            answer = stranger.post("/api/setup", json=body, headers=csrf_of(stranger))
            assert answer.status_code == 200, answer.text
            seats = stranger.get("/api/state").json()["setup"]["seats"]
        assert [s["name"] for s in seats] == ["Red", "Ann", "Green"]
        running.wait_fed(4)
    with Journal(journal) as kept:  # as an older companion kept what a phone typed
        kept.save_setup("names", _setup({"red": "Cleo", "blue": "W" * 60_000}))
    with table(journal, tmp_path) as running:  # restarted by systemd: ready, and alive
        running.wait_fed(8)
        state = served_soon(running.port()).json()
    assert state["setup"]["step"] == "names"
    assert [s["name"] for s in state["setup"]["seats"]] == ["Cleo", "Blue", "Green"]
