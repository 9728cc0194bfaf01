"""What a stranger on the café's Wi-Fi can throw at the page, for the tests: idle and
half-sent connections, PIN guesses, and a phone that keeps asking for the table.

Everything goes to 127.0.0.1 only. Linux answers on the whole of 127.0.0.0/8, so a
client bound to 127.0.0.2 is, to the server, another phone at another address. Every
socket opened is closed by the `Flood` that opened it, whatever happens.
"""

import contextlib
import re
import resource
import selectors
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx

from companion.web.staff import CSRF_HEADER

ANSWER_SECONDS = 60.0
"""The longest wait for the server to answer or close a connection: a bound on a
failure, generous for a loaded machine."""
HALF_REQUEST = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
"""A request's first bytes, never finished."""
_CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]*)">')


def room_for_sockets(count: int) -> None:
    """Let this process hold `count` more sockets (its soft limit raised to its hard
    one if need be)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


@dataclass
class Flood:
    """Connections a stranger holds open to `port`."""

    port: int
    sockets: list[socket.socket] = field(default_factory=list)

    def open(self, count: int, sources: tuple[str, ...], first_bytes: bytes = b"") -> None:
        """`count` connections, spread over the source addresses, each sending
        `first_bytes` (nothing: idle). A connection the server refuses at once is kept
        as it is (the server's answer waits in it)."""
        for n in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.sockets.append(sock)
            sock.settimeout(ANSWER_SECONDS)
            sock.bind((sources[n % len(sources)], 0))
            sock.connect(("127.0.0.1", self.port))
            if first_bytes:
                with contextlib.suppress(OSError):  # already answered and closed
                    sock.sendall(first_bytes)

    def answers(self) -> list[bytes]:
        """What the server said on each connection before closing it, once it closed
        every one; b"" for a connection reset without a word. Fails if any is still
        open after `ANSWER_SECONDS`."""
        said = dict.fromkeys(self.sockets, b"")
        open_ = set(self.sockets)
        deadline = time.monotonic() + ANSWER_SECONDS
        with selectors.DefaultSelector() as selector:
            for sock in open_:
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ)
            while open_:
                left = deadline - time.monotonic()
                assert left > 0, f"{len(open_)} of {len(self.sockets)} connections still open"
                for key, _ in selector.select(min(left, 1.0)):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    try:
                        data = sock.recv(4096)
                    except (ConnectionResetError, BlockingIOError):
                        data = b""
                    said[sock] += data
                    if not data:
                        selector.unregister(sock)
                        open_.discard(sock)
        return [said[sock] for sock in self.sockets]

    def close(self) -> None:
        """Close every connection; safe twice."""
        for sock in self.sockets:
            sock.close()
        self.sockets.clear()

    def __enter__(self) -> "Flood":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


@contextlib.contextmanager
def phone(port: int, source: str = "127.0.0.1") -> Iterator[httpx.Client]:
    """A phone at `source` with the page's CSRF cookie, answers waited for at most
    `ANSWER_SECONDS`."""
    transport = httpx.HTTPTransport(local_address=source)
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, transport=transport, timeout=ANSWER_SECONDS) as client:
        yield client


def csrf_of(client: httpx.Client) -> dict[str, str]:
    """The header a change needs, from the page as a phone opens it."""
    page = client.get("/")
    assert page.status_code == 200, page.text[:300]
    found = _CSRF_META.search(page.text)
    assert found is not None
    return {CSRF_HEADER: found.group(1)}


def served_soon(port: int, path: str = "/api/state", source: str = "127.0.0.1") -> httpx.Response:
    """A phone asking for `path` until it is answered 200 (a busy answer or a refused
    connection asked again), within `ANSWER_SECONDS`; the last answer."""
    deadline = time.monotonic() + ANSWER_SECONDS
    last: object = None
    while time.monotonic() < deadline:
        try:
            with phone(port, source) as client:
                answer = client.get(path)
            if answer.status_code == 200:
                return answer
            last = answer.status_code
        except httpx.TransportError as error:
            last = error
        time.sleep(0.2)
    raise AssertionError(f"not served within {ANSWER_SECONDS:.0f} s: last {last!r}")
