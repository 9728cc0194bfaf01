"""Ctrl-C and SIGTERM end every command that runs for a while in one line on stderr,
never a traceback, with the documented exit status, and leave nothing half-written.

Each command runs as its own process and gets the signal once it is known to be at
work: `play` (by hand, and reading a simulated camera on its thread) once it has told
its notify socket READY=1 (as systemd hears it), the demo once it prints that its
game is set up, `calibrate` once the simulated camera gave its first frame, the
doctor once it asks for a button to be pressed. Ctrl-C is restored in the child,
which may inherit it ignored when the tests run as a background job.
"""

import os
import queue
import re
import select
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.cli import main
from companion.runtime.service import NOTIFY_SOCKET, WATCHDOG_PID, WATCHDOG_USEC
from companion.statedir import STATE_DIR_VARIABLE
from companion.vision.calibration import save_calibration
from tests.cli.simulated_camera import READY_FD
from tests.service_ready import SERVICE_TEST_SECONDS, wait_until_ready
from tests.vision.scenes import LAYOUT_NAME, calibration

pytestmark = pytest.mark.timeout(SERVICE_TEST_SECONDS)

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 120.0
"""Longest wait for a command to be at work (a demo sets its game up first)."""
STOP_SECONDS = 60.0
"""Longest wait for a command to end once signalled."""
WORDS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}
BOTH = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])


@dataclass(frozen=True)
class Ended:
    """How a signalled command ended."""

    status: int
    out: str
    err: str


class Child:
    """A command's process, its standard output read line by line as it comes."""

    def __init__(self, process: "subprocess.Popen[str]") -> None:
        self.process = process
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.said: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.said.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def wait_for_line(self, pattern: str) -> None:
        """Wait until the command prints a line matching `pattern`."""
        while True:
            try:
                line = self.lines.get(timeout=READY_SECONDS)
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r}: {self.said}") from None
            assert line is not None, f"it ended before {pattern!r}: {''.join(self.said)}"
            if re.search(pattern, line):
                return


def _ctrl_c_heard() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stopped_by(
    signum: int,
    command: Sequence[str],
    folder: Path,
    ready: Callable[[Child], None],
    environ: Mapping[str, str] | None = None,
    pass_fds: Sequence[int] = (),
) -> Ended:
    """Run `python -m COMMAND` in the project folder, wait until `ready` says it is at
    work, send `signum`, and give how it ended."""
    left_out = (NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID)
    env = {k: v for k, v in os.environ.items() if k not in left_out}
    env[STATE_DIR_VARIABLE] = str(folder / "state")
    env.update(environ or {})
    errors = folder / "stderr.txt"
    with errors.open("w", encoding="utf-8") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", *command],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            pass_fds=pass_fds,
            preexec_fn=_ctrl_c_heard,
        )
    child = Child(process)
    try:
        ready(child)
        assert process.poll() is None, "it ended before it was signalled"
        process.send_signal(signum)
        status = process.wait(STOP_SECONDS)
        child.reader.join(STOP_SECONDS)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return Ended(status, "".join(child.said), errors.read_text(encoding="utf-8"))


def assert_one_line(ended: Ended, command: str, signum: int) -> None:
    assert "Traceback" not in ended.err, ended.err
    assert ended.err == f"companion {command}: stopped by {WORDS[signum]}\n", ended.err


@BOTH
@pytest.mark.parametrize("camera", [False, True], ids=["by hand", "camera"])
def test_play_stops_after_its_frame_in_one_line(tmp_path: Path, signum: int, camera: bool) -> None:
    journal = tmp_path / "journal.sqlite"
    command = ["companion", "play", "--source", "none", "--display", "headless"]
    if camera:  # the simulated camera over the calibrated small board, read on its thread
        save_calibration(calibration(), tmp_path / "calibration.json")
        command = ["tests.cli.simulated_camera", "play", "--source", "sim", "--display"]
        command += ["headless", "--calibration", str(tmp_path / "calibration.json")]
    command += ["--no-buttons", "--no-light", "--no-web", "--journal", str(journal)]
    notify = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        ended = stopped_by(
            signum,
            command,
            tmp_path,
            lambda child: wait_until_ready(listener, child.process),
            {NOTIFY_SOCKET: str(notify)},
        )
    assert_one_line(ended, "play", signum)
    assert ended.status == {signal.SIGINT: 130, signal.SIGTERM: 0}[signum]
    assert main(["history", "--journal", str(journal)]) == 0  # closed whole, lock released


@BOTH
def test_the_demo_sums_up_the_game_it_was_playing_in_one_line(
    tmp_path: Path, signum: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    command = ["companion", "demo", "--headless", "--no-web", "--layout", LAYOUT_NAME]
    command += ["--players", "4", "--auto-confirm", "0.3", "--rounds", "1", "--stay"]
    command += ["--out", str(tmp_path / "screens")]
    ended = stopped_by(
        signum, command, tmp_path, lambda child: child.wait_for_line(r"^demo: game 1 set up in ")
    )
    assert_one_line(ended, "demo", signum)
    assert ended.status == {signal.SIGINT: 0, signal.SIGTERM: 143}[signum]
    assert re.search(r"^demo: game 1 stopped after [01] rounds?; ", ended.out, re.M), ended.out
    assert "demo: see it with: companion history 1 " in ended.out

    monkeypatch.setenv(STATE_DIR_VARIABLE, str(tmp_path / "state"))
    capsys.readouterr()
    assert main(["history", "1"]) == 0  # every round kept replays
    assert capsys.readouterr().out.startswith("game 1  ")


@BOTH
def test_calibrate_stopped_while_the_camera_settles_writes_nothing(
    tmp_path: Path, signum: int
) -> None:
    out = tmp_path / "table" / "calibration.json"
    command = ["tests.cli.simulated_camera", "calibrate", "--source", "sim"]
    command += ["--frames", "100000", "--layout", LAYOUT_NAME, "--out", str(out)]
    read, write = os.pipe()
    try:

        def reading(child: Child) -> None:
            os.close(write)
            ready, _, _ = select.select([read], [], [], READY_SECONDS)
            assert ready and os.read(read, 64) == b"reading\n", "the camera was never read"

        ended = stopped_by(signum, command, tmp_path, reading, {READY_FD: str(write)}, (write,))
    finally:
        os.close(read)
    assert_one_line(ended, "calibrate", signum)
    assert ended.status == 128 + signum
    assert ended.out == ""
    assert list(out.parent.iterdir()) == []


@BOTH
def test_the_doctor_stopped_while_it_waits_for_a_press_in_one_line(
    tmp_path: Path, signum: int
) -> None:
    command = ["companion", "doctor", "--source", "none", "--press", "--no-light"]
    command += ["--journal", str(tmp_path / "journal.sqlite")]
    command += ["--options-file", str(tmp_path / "none")]
    ended = stopped_by(
        signum,
        command,
        tmp_path,
        lambda child: child.wait_for_line(r"press Confirm now"),
        {"GPIOZERO_PIN_FACTORY": "mock"},
    )
    assert_one_line(ended, "doctor", signum)
    assert ended.status == 128 + signum
    assert ended.out.splitlines()[-1].strip().startswith("press Confirm now")  # no summary
    assert not (tmp_path / "journal.sqlite").exists()
