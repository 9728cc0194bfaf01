"""The page's connections, held to what a table needs, whatever a stranger sends.

uvicorn counts connections only once a request has arrived (`limit_concurrency`
answers 503 then), and runs no timeout until a first request is whole: its
keep-alive timeout runs only between requests. So idle connections, or requests
sent a few bytes at a time (slowloris), would each hold a file descriptor and a
place for as long as the stranger likes. The protocol here is uvicorn's own h11
protocol with two rules added where connections begin:

- **Doors:** at most `MAX_CONNECTIONS` connections at once (below the process's file
  descriptor limit, see `server`), and `MAX_PER_ADDRESS` from one address (for IPv6,
  from its /64 network). When all are taken, a new connection takes the place of the
  one that has waited longest without a request being served (idle, or its request
  still arriving): a phone's request arrives at once and is served, a stranger's
  idle connections only push each other out. A connection with no place to take is
  answered 503 and closed at once, so it holds nothing. Connections are taken from
  the listening socket `ACCEPT_BATCH` at a time, so a burst cannot take file
  descriptors faster than the doors give them back.
- **A deadline:** a request must arrive whole, headers and body, within
  `REQUEST_SECONDS` of its first byte (or of the connection, for the first one), or
  the connection is answered 408 and closed. Phones send a request in one go; a
  connection that is merely slow to send is the only one this closes.

Connections pushed out, turned away or cut off are counted and said on the log
(which `logs.Repeats` keeps to one line a minute however many there are).
"""

import asyncio
import ipaddress
import logging
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 300
"""Connections open at once: 30 phones following the live stream and loading pages
use about 60; a table has a dozen."""
MAX_PER_ADDRESS = 48
"""Connections from one address (or IPv6 /64 network) at once: a phone opens at most
about eight (six for a page's files, one stream, one change)."""
REQUEST_SECONDS = 5.0
"""How long a request may take to arrive whole, from its first byte."""
ACCEPT_BATCH = 64
"""The listening socket's backlog, which is also how many connections asyncio accepts
at each turn of its loop before any of them is let in or turned away (uvicorn's own
2,048 would let one burst take every file descriptor before the doors see it)."""
UNSEEN_FILES = 8 * ACCEPT_BATCH
"""File descriptors that connections accepted but not yet let in or closed may hold:
a few turns of the loop's batches."""


def _answer(status: str, words: str) -> bytes:
    """A whole HTTP answer that closes the connection (sent before any request is read)."""
    body = words.encode("ascii")
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


_BUSY = _answer("503 Service Unavailable", "the table is busy: try again")
_SLOW = _answer("408 Request Timeout", "the request came too slowly: try again")


def address_key(host: str) -> str:
    """Who a connection comes from: its IPv4 address, or its IPv6 /64 network (a phone
    may take any address in its network at will)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return f"address {host[:64]}"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return f"address {address.ipv4_mapped}"
        return f"network {ipaddress.IPv6Network((address, 64), strict=False)}"
    return f"address {address}"


class Doors:
    """The connections open now, in all and by address, those waiting for a request,
    and those turned away, pushed out or cut off since the server started. Used on the
    server's event loop only."""

    def __init__(self, most: int = MAX_CONNECTIONS, per_address: int = MAX_PER_ADDRESS) -> None:
        self.most = most
        """Connections open at once."""
        self.per_address = per_address
        """Connections from one address at once."""
        self.open: Counter[str] = Counter()
        """Connections open now, by address."""
        self.turned_away = 0
        """Connections refused at the door since the start."""
        self.cut_off = 0
        """Connections closed for a request that did not arrive in time."""
        self.pushed_out = 0
        """Waiting connections closed to make room for a new one."""
        self._waiting: dict[GuardedProtocol, None] = {}
        """Connections without a request being served, the longest waiting first."""

    def admit(self, address: str) -> bool:
        """Let a connection from `address` in, if there is room or a waiting connection
        to push out (then `leave` when it ends)."""
        full = self.open.total() >= self.most
        if self.open[address] >= self.per_address or (full and not self._push_out()):
            self.turned_away += 1
            log.warning(
                "too many connections: one from %s turned away (%d in all)",
                address,
                self.turned_away,
            )
            return False
        self.open[address] += 1
        return True

    def waiting(self, connection: "GuardedProtocol") -> None:
        """`connection` has no request being served: it may be pushed out (it keeps its
        place in the queue while its request arrives, however slowly)."""
        self._waiting.setdefault(connection, None)

    def serving(self, connection: "GuardedProtocol") -> None:
        """`connection` has a request being served (or is gone)."""
        self._waiting.pop(connection, None)

    def _push_out(self) -> bool:
        """Close the connection that has waited longest; whether there was one."""
        if not self._waiting:
            return False
        oldest = next(iter(self._waiting))
        self.serving(oldest)
        oldest.push_out()
        self.pushed_out += 1
        log.warning(
            "all connections taken: the one waiting longest, from %s, closed (%d in all)",
            oldest.address,
            self.pushed_out,
        )
        return True

    def leave(self, address: str) -> None:
        """A connection let in has ended."""
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def slow(self, address: str) -> None:
        """A connection from `address` was closed for a request that came too slowly."""
        self.cut_off += 1
        log.warning(
            "a request from %s did not arrive within %.0f s: connection closed (%d in all)",
            address,
            REQUEST_SECONDS,
            self.cut_off,
        )


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol behind `doors` and with a deadline on every request."""

    doors: ClassVar[Doors]
    """The server's doors (each server makes its own subclass: `guarded_protocol`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self.address = ""
        """Who the connection comes from (`address_key`)."""
        self._admitted = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Let the connection in, or answer 503 and close it; start the deadline."""
        super().connection_made(transport)
        self.address = address_key(self.client[0] if self.client else "")
        self._admitted = self.doors.admit(self.address)
        if not self._admitted:
            transport.write(_BUSY)
            transport.close()
            return
        self.doors.waiting(self)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: its place is free."""
        self._leave()
        super().connection_lost(exc)

    def push_out(self) -> None:
        """Close the connection to make room: its place is free at once."""
        self._leave()
        if self.cycle is None:  # never served: a browser retries a kept-alive one by itself
            self.transport.write(_BUSY)
        self.transport.close()

    def _leave(self) -> None:
        self._disarm()
        self.doors.serving(self)
        if self._admitted:
            self._admitted = False
            self.doors.leave(self.address)

    def data_received(self, data: bytes) -> None:
        """A request's bytes: the first of a request starts its deadline, and the
        deadline ends once the request is whole."""
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm()
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        """An answer sent: a request already begun behind it has its deadline."""
        super().on_response_complete()
        self._follow()

    def _follow(self) -> None:
        """Disarm once the request being read is whole (it is then being served); arm
        for a next one begun (the connection then waits again)."""
        state = self.conn.their_state
        if state is h11.IDLE or state is h11.SEND_BODY:
            if self._admitted and not self.transport.is_closing():
                self.doors.waiting(self)
            if state is h11.IDLE and self._deadline is None and self.conn.trailing_data[0]:
                self._arm()
        else:
            self._disarm()
            self.doors.serving(self)

    def _arm(self) -> None:
        if self._deadline is None and not self.transport.is_closing():
            self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The deadline passed with the request still arriving: 408, and close."""
        self._deadline = None
        if self.transport.is_closing():
            return
        self.doors.slow(self.address)
        idle = self.conn.their_state is h11.IDLE  # a new request: the last one is answered
        if idle or self.cycle is None or not self.cycle.response_started:
            self.transport.write(_SLOW)
        self.transport.close()


def guarded_protocol(doors: Doors) -> type[GuardedProtocol]:
    """The protocol class for one server, behind `doors`."""
    return type("Guarded", (GuardedProtocol,), {"doors": doors})
