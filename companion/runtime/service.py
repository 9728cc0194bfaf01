"""Telling systemd how the companion is doing: started, still drawing, stopping.

On a Pi the companion runs as a systemd service of `Type=notify` with a watchdog. The
loop says READY once its first screen is drawn and WATCHDOG after every step, so a
companion that hangs (a driver stuck in a call, a deadlock) stops feeding the
watchdog and systemd restarts it; the journal resumes the game. Feeding from the
render loop, not a timer thread, is the point: a thread would keep the watchdog fed
while the screen is frozen.

The protocol is `sd_notify`: one datagram per message to the Unix socket named by
`NOTIFY_SOCKET`. Outside systemd there is no socket and `QuietManager` does nothing;
`service_manager(environ)` picks one of the two, and nothing else looks.

The datagram socket is opened once, at the start: a process that has run out of file
descriptors (a flood of connections to the phone page) could not open one for each
message, and the watchdog would starve in silence. A message that cannot be sent is
said on the log (once, then once a minute with how many failed) and the manager is no
longer `healthy`, which the loop shows on the screen.
"""

import abc
import logging
import os
import socket
import time
from collections.abc import Mapping

from companion.errors import SettingError

log = logging.getLogger(__name__)

NOTIFY_SOCKET = "NOTIFY_SOCKET"
"""Where systemd listens for a notify service's messages."""
WATCHDOG_USEC = "WATCHDOG_USEC"
"""The watchdog's period in microseconds, set when the unit has `WatchdogSec=`."""
WATCHDOG_PID = "WATCHDOG_PID"
"""The process the watchdog is meant for (the service's main process)."""
FEEDS_PER_PERIOD = 4
"""How many times per watchdog period the loop says it is alive: a slow step or two
never lets it run out."""
FAILURES_SAID_EVERY = 60.0
"""While messages keep failing, how often the log says how many did."""


class ServiceManager(abc.ABC):
    """What runs the companion and wants to hear from it."""

    healthy: bool = True
    """False while the manager cannot be told how the companion is (it will then
    think the companion hung, and restart it)."""

    @abc.abstractmethod
    def ready(self) -> None:
        """The companion is up: its first screen is drawn."""

    @abc.abstractmethod
    def alive(self, now: float) -> None:
        """The loop has finished a step at `now` (monotonic seconds)."""

    @abc.abstractmethod
    def extend_start(self, seconds: float) -> None:
        """Starting may take `seconds` more from now (a large journal to check)."""

    @abc.abstractmethod
    def stopping(self) -> None:
        """The companion is shutting down on purpose."""


class QuietManager(ServiceManager):
    """No service manager: started by hand, in a test, or in the demo."""

    def ready(self) -> None:
        """Nobody to tell."""

    def alive(self, now: float) -> None:
        """Nobody to tell."""

    def extend_start(self, seconds: float) -> None:
        """Nobody to tell."""

    def stopping(self) -> None:
        """Nobody to tell."""


class Systemd(ServiceManager):
    """systemd, through the notify socket; the watchdog fed at most `FEEDS_PER_PERIOD`
    times per period."""

    def __init__(self, address: str, watchdog_seconds: float | None) -> None:
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.feed_every = watchdog_seconds / FEEDS_PER_PERIOD if watchdog_seconds else None
        self.fed_at = float("-inf")
        self.failures = 0
        """Messages that could not be sent since the last that could."""
        self._said_at = float("-inf")
        self._socket: socket.socket | None = None
        try:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        except OSError as error:  # tried again at each message
            self._failed("open a socket to", error)

    def ready(self) -> None:
        """READY=1: systemd counts the service as started."""
        self._send("READY=1")

    def alive(self, now: float) -> None:
        """WATCHDOG=1, unless it was said a moment ago."""
        if self.feed_every is not None and now - self.fed_at >= self.feed_every:
            self._send("WATCHDOG=1")
            self.fed_at = now

    def extend_start(self, seconds: float) -> None:
        """EXTEND_TIMEOUT_USEC: systemd waits that much longer for READY."""
        self._send(f"EXTEND_TIMEOUT_USEC={round(seconds * 1e6)}")

    def stopping(self) -> None:
        """STOPPING=1: the exit that follows is on purpose."""
        self._send("STOPPING=1")

    def close(self) -> None:
        """Close the socket; safe twice."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def _send(self, message: str) -> None:
        """One datagram. A manager that cannot be told is no reason to stop the game,
        but it is said, and the manager is no longer `healthy`."""
        try:
            if self._socket is None:
                self._socket = socket.socket(
                    socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                )
            self._socket.sendto(message.encode(), self.address)
        except OSError as error:
            self._failed(f"send {message} to", error)
            return
        if self.failures:
            log.warning("systemd hears the companion again, after %d failures", self.failures)
        self.failures = 0
        self.healthy = True

    def _failed(self, doing: str, error: OSError) -> None:
        """Say a failure: the first at once, then how many once a minute."""
        self.failures += 1
        self.healthy = False
        now = time.monotonic()
        if self.failures == 1 or now - self._said_at >= FAILURES_SAID_EVERY:
            self._said_at = now
            log.error(
                "cannot %s systemd at %s (%d failures in a row): %s; without its watchdog "
                "fed it will restart the companion",
                doing,
                self.address.replace("\0", "@"),
                self.failures,
                error,
            )


def service_manager(environ: Mapping[str, str]) -> ServiceManager:
    """systemd if it started this process as a notify service, else `QuietManager`."""
    address = environ.get(NOTIFY_SOCKET, "")
    if not address:
        return QuietManager()
    return Systemd(address, _watchdog_seconds(environ))


def _watchdog_seconds(environ: Mapping[str, str]) -> float | None:
    """The watchdog period meant for this process, if any."""
    usec = environ.get(WATCHDOG_USEC, "")
    if not usec:
        return None
    pid = environ.get(WATCHDOG_PID, "")
    if pid and pid != str(os.getpid()):
        return None
    try:
        seconds = int(usec) / 1e6
    except ValueError:
        raise SettingError(f"{WATCHDOG_USEC}={usec!r} is not a number of microseconds") from None
    if seconds <= 0:
        raise SettingError(f"{WATCHDOG_USEC}={usec!r} must be positive")
    return seconds
