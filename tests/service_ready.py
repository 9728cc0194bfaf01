"""Waiting for a `companion play` child to be ready, as systemd waits for it."""

import contextlib
import socket
import subprocess
import time

READY_SECONDS = 30.0
"""Longest wait for `companion play` to start and draw its first screen."""


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
