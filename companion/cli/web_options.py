"""The phone page's options, shared by `companion play` and `companion demo`.

The page is on by default, on every address of the machine at port 8080; `--web
HOST:PORT` moves it and `--no-web` switches it off. A page that cannot start (the
port is taken) never stops the game: the command says why on stderr and the table
plays on without it. The staff PIN comes from the environment (the service reads
it from `/etc/default/dixit-companion`), never from the command line, where any
user of the machine could read it. Where the page listens is part of the table's
configuration (`companion.runtime.config`), checked with the rest. The web stack is
imported only by a command that serves the page, so every other command starts as
fast as before.
"""

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from companion.closing import Closing
from companion.errors import CompanionError
from companion.runtime.config import DEFAULT_HOST, DEFAULT_PORT, Listen
from companion.runtime.loop import Loop
from companion.service_options import STAFF_PIN_VARIABLE, pin_problem

if TYPE_CHECKING:
    from companion.web.server import Listener, WebServer


def add_web_options(parser: argparse.ArgumentParser) -> None:
    """`--web HOST:PORT` and `--no-web`."""
    web = parser.add_mutually_exclusive_group()
    web.add_argument(
        "--web",
        metavar="HOST:PORT",
        help=f"serve the phone page there (default {DEFAULT_HOST}:{DEFAULT_PORT}: every "
        "address of this machine; the table shows its address as a QR code)",
    )
    web.add_argument("--no-web", action="store_true", help="no phone page")


def open_listener(listen: Listen | None, command: str) -> "Listener | None":
    """The page's socket, or None (said on stderr) when there is to be no page or it
    cannot be opened."""
    if listen is None:
        return None
    from companion.web.server import Listener  # the web stack, only for commands that serve

    try:
        return Listener(listen)
    except CompanionError as err:
        print(f"companion {command}: no phone page: {err}", file=sys.stderr, flush=True)
        return None


class PhonePage(Closing):
    """The phone page of a command's tables (`build_table`'s `page` and `serve`): its
    socket opened once, as the first table is served, after what a table opens first
    (the journal: a journal in use stops the command before anything listens), and
    served from each table's loop in turn."""

    def __init__(self, listen: Listen | None, journal: Path, command: str) -> None:
        self.listen = listen
        """Where to listen; None: no page."""
        self.journal = journal
        self.command = command
        self.listener: Listener | None = None
        """The page's socket, once opened (None: not yet, or it could not be)."""
        self._opened = False

    def address(self) -> str | None:
        """The page's address now, for the table's QR code; None while there is none."""
        return self.listener.page() if self.listener is not None else None

    def serve(self, loop: Loop) -> Closing | None:
        """The page served for `loop`, or None (said on stderr) when it did not start."""
        if not self._opened:
            self._opened = True
            self.listener = open_listener(self.listen, self.command)
        if self.listener is None:
            return None
        return serve(self.listener, loop, self.journal, os.environ, self.command)

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()


def serve(
    listener: "Listener",
    loop: Loop,
    journal: Path,
    environ: Mapping[str, str],
    command: str,
) -> "WebServer | None":
    """The page served for `loop`, or None (said on stderr) when it did not start. The
    staff PIN is the environment's; without a usable one the staff tools are off,
    and stderr says so."""
    pin = environ.get(STAFF_PIN_VARIABLE)
    problem = pin_problem(pin)
    if problem is not None:
        print(
            f"companion {command}: staff tools on the phone page are off: {problem} "
            f"(set {STAFF_PIN_VARIABLE})",
            file=sys.stderr,
            flush=True,
        )
    from companion.web.server import WebServer

    try:
        server = WebServer(listener, loop, journal, pin, loop.session.settings.slots)
        server.start()
    except CompanionError as err:
        print(f"companion {command}: no phone page: {err}", file=sys.stderr, flush=True)
        return None
    address = listener.address() or f"port {listener.address.port} (no network yet)"
    print(f"companion {command}: phone page at {address}", file=sys.stderr, flush=True)
    return server
