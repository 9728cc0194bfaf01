"""The phone page's server: uvicorn on a thread of its own, beside the game loop.

Starlette and uvicorn because they are small, well kept and asynchronous: thirty
phones holding a live stream open cost one thread and a few coroutines, not thirty
threads, and nothing in them can make the loop wait. The socket is bound before the
thread starts, so a port in use is an error the companion can name (and go on
without the page) instead of a thread that quietly dies.
"""

import socket
import threading
import time
from pathlib import Path

import uvicorn

from companion.closing import Closing
from companion.errors import WebAddressError, WebError
from companion.web.address import Listen, PageAddress
from companion.web.app import live_for, make_app
from companion.web.pages import Pages
from companion.web.reader import JournalReader
from companion.web.site import Site, Table
from companion.web.staff import StaffGate

START_SECONDS = 10.0
"""How long the server may take to start."""
STOP_SECONDS = 3.0
"""How long open streams get to close when the companion stops."""
MAX_CONNECTIONS = 300
"""Connections served at once; more are answered 503 (a table has a dozen phones)."""


class Listener(Closing):
    """The page's socket, bound before anything else starts: the table's screen shows
    its address from the first frame, and the server serves it once the loop exists."""

    def __init__(self, listen: Listen) -> None:
        """Bind; `WebAddressError` when the address cannot be listened on."""
        self.socket = _bind(listen)
        self.address = PageAddress(listen, int(self.socket.getsockname()[1]))
        """The page's address as phones reach it (None while the Pi has no network)."""
        self.serving = False
        """Whether a server answers on it now (set by the server that serves it)."""

    def page(self) -> str | None:
        """The address to show players: only while the page is served, so the table
        never shows the code of a page that did not start."""
        return self.address() if self.serving else None

    def close(self) -> None:
        """Stop listening; safe twice."""
        self.socket.close()


class WebServer(Closing):
    """The phone page for one table, served from its own thread until closed."""

    def __init__(
        self,
        listener: Listener,
        table: Table,
        journal: Path,
        pin: str | None,
        slots: tuple[int, ...],
    ) -> None:
        self.listener = listener
        """Where it serves."""
        self._journal = JournalReader(journal)
        site = Site(table, self._journal, StaffGate(pin), Pages(), slots)
        self._live = live_for(site)
        config = uvicorn.Config(
            make_app(site, self._live),
            http="h11",
            ws="none",
            loop="asyncio",
            lifespan="on",
            log_level="warning",
            access_log=False,
            server_header=False,
            limit_concurrency=MAX_CONNECTIONS,
            timeout_keep_alive=5,
            timeout_graceful_shutdown=int(STOP_SECONDS),
            h11_max_incomplete_event_size=16 * 1024,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [listener.socket]}, name="web", daemon=True
        )
        self._closed = False

    @property
    def port(self) -> int:
        """The port listened on."""
        return self.listener.address.port

    def start(self) -> None:
        """Serve from now on; `WebError` if the server did not come up in time."""
        self._thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.close()
                raise WebError("the phone page's server did not start")
            time.sleep(0.01)
        self.listener.serving = True

    def close(self) -> None:
        """Stop serving (open streams are closed) and let the journal go; safe twice.
        The listener stays open for whoever owns it (the demo serves each game in turn)."""
        if self._closed:
            return
        self._closed = True
        self.listener.serving = False
        self._live.stop()
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(STOP_SECONDS + 2)
        self._journal.close()


def _bind(listen: Listen) -> socket.socket:
    """A listening socket at `listen`; `WebAddressError` naming the address."""
    family = socket.AF_INET6 if ":" in listen.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((listen.host, listen.port))
        sock.listen(128)
        sock.setblocking(False)
    except OSError as err:
        sock.close()
        raise WebAddressError(
            f"the phone page cannot listen on {listen.host} port {listen.port}: "
            f"{err.strerror or err}"
        ) from None
    return sock
