"""The gate before every change a phone asks for: the staff PIN, the ticket it earns,
and the CSRF token that proves a change comes from the table's own page.

Anyone on the café's network can read the table; only staff who typed the table's
PIN may change it. The PIN buys a ticket (an HTTP-only cookie) signed with a secret
that lives only in this process, so a restart logs every phone out and no file holds
anything worth stealing. Wrong PINs are slowed down per client (`throttle`): after a
few from one phone, each try from it waits longer, and a try made during the wait is
refused without being checked, so guessing by the hundred gets nowhere, while the
staff's own phone is let in at once. Only something that could be a PIN (4 to 12
digits) counts as a guess; anything else is a malformed request. The counts outlive
a restart. Nothing here sleeps: a refusal says when to come back.

Changes also carry a double-submit CSRF token: an HTTP-only cookie, and the same
token written into the page itself, which its script sends back in a header. A page
on another site can neither read the page nor set the header, so it cannot send both.

Pure apart from the clocks and the randomness, both injectable, and free of any web
framework: the routes call it and turn a `Refusal` into a response.
"""

import hashlib
import hmac
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from companion.phrases import Phrase, phrase
from companion.service_options import PIN_DIGITS, pin_problem
from companion.web.throttle import FREE_TRIES, PinTries

log = logging.getLogger(__name__)

STAFF_COOKIE = "companion_staff"
"""The cookie that holds a staff ticket (HTTP-only)."""
CSRF_COOKIE = "companion_csrf"
"""The cookie that holds the page's CSRF token (HTTP-only: the script reads the token
from the page)."""
CSRF_HEADER = "x-csrf-token"
"""The header the page copies the CSRF token into for every change."""
TICKET_SECONDS = 12 * 3600
"""How long a ticket lasts: a café's opening hours, so staff type the PIN once a day."""
MAX_TOKEN_CHARS = 128
"""The longest CSRF token taken for one (this gate's are 43 characters)."""
_MAX_TICKET_CHARS = 256
"""The longest ticket looked at (this gate's are about 100 characters)."""

MALFORMED = 400
"""A log in without anything that could be a PIN: not a guess, and not counted."""
NOT_STAFF = 401
"""No ticket, or one this gate did not sign or that has expired; also a wrong PIN."""
FORBIDDEN = 403
"""A change without the page's CSRF token, or staff tools that are off."""
SLOWED = 429
"""A PIN tried before the wait after wrong ones was over."""


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: its HTTP status and the words for the page."""

    status: int
    """400 no PIN in a log in, 401 no or expired ticket (or a wrong PIN), 403 wrong or
    missing CSRF token or staff tools off, 429 slowed down."""
    words: Phrase
    """What the page shows, translated by the caller."""
    retry_after: float | None = None
    """Seconds until a PIN is tried again (429 only)."""


class StaffGate:
    """The table's staff PIN, the tickets it grants, and the counts of wrong PINs.

    Thread-safe, though the server's requests all run on its one event loop today: a
    lock costs nothing next to a PIN check, and keeps the counts right for any server.
    `clock` times the waits after wrong PINs (wall-clock seconds: the counts, kept in
    `tries`, outlive the process); `wall` dates the tickets."""

    def __init__(
        self,
        pin: str | None,
        *,
        secret: bytes | None = None,
        clock: Callable[[], float] = time.time,
        wall: Callable[[], float] = time.time,
        tries: Path | None = None,
    ) -> None:
        self.problem: str | None = pin_problem(pin)
        """What is wrong with the PIN (English, for the log); None when it is usable."""
        self.enabled: bool = self.problem is None
        """Whether the staff tools are on: only with a usable PIN."""
        self._pin = pin.encode("ascii") if pin is not None and self.enabled else b""
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self._wall = wall
        self._lock = threading.Lock()
        self._tries = PinTries(tries, clock)

    def log_in(self, typed: object, client: str = "") -> str | Refusal:
        """A signed ticket (the staff cookie's value) for the right PIN; a refusal for a
        wrong one, or for any try from `client` while it waits after wrong ones.
        `typed` is whatever a request's body held: anything but 4 to 12 ASCII digits
        is no PIN at all (400), never counted as a guess."""
        if not self.enabled:
            return _staff_off()
        if not _pin_shaped(typed):
            return Refusal(MALFORMED, phrase("type the staff PIN: 4 to 12 digits"))
        with self._lock:
            wait = self._tries.wait_left(client)
            if wait > 0:
                return Refusal(
                    SLOWED,
                    phrase(
                        "too many wrong PINs: try again in {seconds} s", seconds=math.ceil(wait)
                    ),
                    retry_after=wait,
                )
            if not hmac.compare_digest(typed.encode("ascii"), self._pin):
                count = self._tries.wrong(client)
                if count == FREE_TRIES or count % 100 == 0:
                    log.warning("%d wrong staff PINs in a row from %s", count, client or "?")
                return Refusal(NOT_STAFF, phrase("wrong PIN"))
            self._tries.right(client)
        return self._ticket(int(self._wall()))

    def ticket_nonce(self, ticket: str | None) -> str | None:
        """The nonce of a ticket this gate signed, expired or not (a phone's staff
        ticket identifies it better than its address); None for anything else."""
        if not self.enabled or not isinstance(ticket, str) or len(ticket) > _MAX_TICKET_CHARS:
            return None
        if not ticket.isascii():
            return None
        issued, _, rest = ticket.partition(".")
        nonce = rest.partition(".")[0]
        if not (issued.isdigit() and len(issued) <= 12) or not hmac.compare_digest(
            ticket, self._ticket(int(issued), nonce)
        ):
            return None
        return nonce

    def is_staff(self, ticket: str | None) -> bool:
        """Whether `ticket` was signed by this gate and has not expired. Anything else,
        however malformed, is simply not staff."""
        if self.ticket_nonce(ticket) is None:
            return False
        assert ticket is not None
        return 0 <= self._wall() - int(ticket.partition(".")[0]) < TICKET_SECONDS

    def check_staff(self, ticket: str | None) -> Refusal | None:
        """None when `ticket` is staff's; else 403 when the staff tools are off, 401 when
        the PIN is needed."""
        if not self.enabled:
            return _staff_off()
        if not self.is_staff(ticket):
            return Refusal(NOT_STAFF, phrase("staff PIN needed"))
        return None

    def new_csrf_token(self) -> str:
        """A fresh random token for the CSRF cookie."""
        return secrets.token_urlsafe(32)

    def check_csrf(self, cookie: str | None, header: str | None) -> Refusal | None:
        """None when the request's CSRF cookie and header are both there and alike;
        else 403, as a page that lost its token (or another site's) should reload."""
        if _token(cookie) and _token(header) and hmac.compare_digest(cookie, header):
            return None
        return Refusal(FORBIDDEN, phrase("this page is out of date: reload it"))

    def _ticket(self, issued: int, nonce: str | None = None) -> str:
        """The ticket issued at `issued` (wall seconds) with `nonce` (a new one when
        None), signed."""
        body = f"{issued}.{secrets.token_urlsafe(16) if nonce is None else nonce}"
        mac = hmac.new(self._secret, body.encode("ascii"), hashlib.sha256).hexdigest()
        return f"{body}.{mac}"


def _pin_shaped(typed: object) -> TypeGuard[str]:
    """Whether `typed` could be a PIN at all: 4 to 12 ASCII digits."""
    return (
        isinstance(typed, str) and typed.isascii() and typed.isdigit() and len(typed) in PIN_DIGITS
    )


def _token(value: object) -> TypeGuard[str]:
    """Whether `value` can be a CSRF token: text, ASCII, not empty, not too long."""
    return isinstance(value, str) and 0 < len(value) <= MAX_TOKEN_CHARS and value.isascii()


def _staff_off() -> Refusal:
    return Refusal(FORBIDDEN, phrase("staff tools are off: this table has no staff PIN"))
