"""Where the phone page is served, and the address a phone reaches it at.

`--web HOST:PORT` says where to listen; by default every address of the Pi, port
8080. The address shown to players (the QR code on the table's screen) is the Pi's
IP address on the café's network, never a `.local` name, which many Android phones
cannot resolve. The network may come up after the companion (a Pi boots faster than
a café's router answers DHCP), so the address is looked up again now and then. Where
it listens is part of the table's configuration (`companion.runtime.config`).
"""

import ipaddress
import socket
import time
from collections.abc import Callable

from companion.runtime.config import DEFAULT_HOST as DEFAULT_HOST
from companion.runtime.config import DEFAULT_PORT as DEFAULT_PORT
from companion.runtime.config import Listen as Listen
from companion.runtime.config import parse_listen as parse_listen

LOOKUP_SECONDS = 10.0
"""How often the LAN address is looked up again."""
_PROBE = ("192.0.2.1", 9)
"""An address no packet is sent to (TEST-NET-1): connecting a UDP socket towards it
only asks the kernel which local address its route would leave from."""


def lan_address() -> str | None:
    """The machine's address on its network, or None when it has no route out."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def page_url(host: str, port: int) -> str:
    """The page's address for a host and port: "http://192.168.1.23:8080/"."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


class PageAddress:
    """The address phones reach the page at, looked up again every `LOOKUP_SECONDS`
    when the server listens everywhere; None while the Pi has no network."""

    def __init__(
        self,
        listen: Listen,
        port: int,
        *,
        find_lan: Callable[[], str | None] = lan_address,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.listen = listen
        self.port = port
        """The port actually bound (the system's choice when asked for 0)."""
        self.find_lan = find_lan
        self.clock = clock
        self._found: str | None = None
        self._looked_at = float("-inf")

    def __call__(self) -> str | None:
        """The address now."""
        if not self.listen.wildcard:
            return page_url(self.listen.host, self.port)
        now = self.clock()
        if now - self._looked_at >= LOOKUP_SECONDS:
            self._looked_at = now
            self._found = self.find_lan()
        return None if self._found is None else page_url(self._found, self.port)
