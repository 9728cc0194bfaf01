"""Waiting for a `companion play` child to be ready, as systemd waits for it."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from companion.runtime.service import NOTIFY_SOCKET, WATCHDOG_PID, WATCHDOG_USEC

READY_SECONDS = 120.0
"""Longest wait for `companion play` to start and draw its first screen (or to stop):
a bound on a failure, generous for a start-up on a loaded machine."""
SERVICE_TEST_SECONDS = 3 * READY_SECONDS
"""The time limit of a test that starts `companion play` and waits for it to be ready,
then to stop (or to refuse and end): above its own waits, so that on a loaded machine
the test's own deadline, which names what did not happen, is what fails, not the
runner's limit, which is a bound on a hung test."""


def wait_until_ready(listener: socket.socket, child: subprocess.Popen[str]) -> None:
    """Wait for the child's READY=1 on the notify socket, as systemd would: `play` says
    it once its first screen is drawn, after its SIGTERM handler is installed."""
    deadline = time.monotonic() + READY_SECONDS
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no READY=1 within {READY_SECONDS:.0f} s"
        assert child.poll() is None, f"play ended before it was ready: {child.communicate()[1]}"
        listener.settimeout(min(left, 1.0))
        with contextlib.suppress(TimeoutError):
            if listener.recv(256) == b"READY=1":
                return


def run_as_service(arguments: list[str], notify: Path) -> tuple[int, str]:
    """Run `companion play ARGUMENTS` as systemd would (told READY over a notify socket
    at `notify`, no watchdog), stop it with SIGTERM once it is ready, and give its exit
    status and stderr. The test fails if it ends before it is stopped."""
    command = [sys.executable, "-m", "companion", "play", *arguments]
    environ = {k: v for k, v in os.environ.items() if k not in (WATCHDOG_USEC, WATCHDOG_PID)}
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        child = subprocess.Popen(
            command, stderr=subprocess.PIPE, text=True, env={**environ, NOTIFY_SOCKET: str(notify)}
        )
        try:
            wait_until_ready(listener, child)
            assert child.poll() is None, "it stays up until the service is stopped"
            child.send_signal(signal.SIGTERM)
            _, errors = child.communicate(timeout=READY_SECONDS)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
    return child.returncode, errors
