"""The phone page's server: uvicorn on a thread of its own, beside the game loop.

Starlette and uvicorn because they are small, well kept and asynchronous: thirty
phones holding a live stream open cost one thread and a few coroutines, not thirty
threads, and nothing in them can make the loop wait. The socket is bound before the
thread starts, so a port in use is an error the companion can name (and go on
without the page) instead of a thread that quietly dies.

A stranger on the café's Wi-Fi cannot take the table down through it: connections
are capped below the process's file descriptor limit (`FILES_NEEDED`, which the
service's unit grants and which is raised to here when run by hand) and each request
must arrive in time (`connections`), repeated errors are logged once a minute with
their count (`logs`), and wrong staff PINs slow only the phone that types them, across
restarts (`throttle`, its file beside the journal).
"""

import contextlib
import logging
import resource
import socket
import threading
import time
from pathlib import Path

import uvicorn

from companion.closing import Closing
from companion.errors import WebAddressError, WebError
from companion.web.address import Listen, PageAddress
from companion.web.app import live_for, make_app
from companion.web.connections import (
    ACCEPT_BATCH,
    MAX_CONNECTIONS,
    UNSEEN_FILES,
    Doors,
    guarded_protocol,
)
from companion.web.logs import quieted
from companion.web.pages import Pages
from companion.web.reader import JournalReader
from companion.web.site import Site, Table
from companion.web.staff import StaffGate
from companion.web.throttle import TRIES_FILE

log = logging.getLogger(__name__)

START_SECONDS = 10.0
"""How long the server may take to start."""
STOP_SECONDS = 3.0
"""How long open streams get to close when the companion stops."""
OTHER_FILES = 200
"""File descriptors the rest of the companion may hold besides the page's connections:
the journal and its archive, pictures being read, fonts, the camera, pipes."""
FILES_NEEDED = MAX_CONNECTIONS + UNSEEN_FILES + OTHER_FILES
"""The file descriptor limit the companion needs (the unit's `LimitNOFILE` grants more)."""


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
        gate = StaffGate(pin, tries=journal.with_name(TRIES_FILE))
        site = Site(table, self._journal, gate, Pages(), slots)
        self._live = live_for(site)
        self.doors = Doors(most=connection_room())
        """The connections open now, and those turned away or cut off."""
        config = uvicorn.Config(
            make_app(site, self._live),
            http=guarded_protocol(self.doors),
            ws="none",
            loop="asyncio",
            lifespan="on",
            log_level="warning",
            access_log=False,
            server_header=False,
            limit_concurrency=self.doors.most + 16,  # a backstop: the doors keep to `most`
            timeout_keep_alive=5,
            timeout_graceful_shutdown=int(STOP_SECONDS),
            h11_max_incomplete_event_size=16 * 1024,
            backlog=ACCEPT_BATCH,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [listener.socket]}, name="web", daemon=True
        )
        self._logs = contextlib.ExitStack()
        self._closed = False

    @property
    def port(self) -> int:
        """The port listened on."""
        return self.listener.address.port

    def start(self) -> None:
        """Serve from now on; `WebError` if the server did not come up in time."""
        self._logs.enter_context(quieted())
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
        self._logs.close()


def connection_room() -> int:
    """How many connections the page may hold: `MAX_CONNECTIONS`, the soft file
    descriptor limit first raised to `FILES_NEEDED` where the hard one allows (a
    companion run by hand gets the shell's 1,024), and fewer if it still falls short."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < FILES_NEEDED:
        raised = FILES_NEEDED if hard == resource.RLIM_INFINITY else min(hard, FILES_NEEDED)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    room = min(MAX_CONNECTIONS, soft - UNSEEN_FILES - OTHER_FILES)
    if room < MAX_CONNECTIONS:
        log.warning("only %d file descriptors: the phone page keeps to %d connections", soft, room)
    return max(8, room)


def _bind(listen: Listen) -> socket.socket:
    """A listening socket at `listen`; `WebAddressError` naming the address."""
    family = socket.AF_INET6 if ":" in listen.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((listen.host, listen.port))
        sock.listen(ACCEPT_BATCH)
        sock.setblocking(False)
    except OSError as err:
        sock.close()
        raise WebAddressError(
            f"the phone page cannot listen on {listen.host} port {listen.port}: "
            f"{err.strerror or err}"
        ) from None
    return sock
