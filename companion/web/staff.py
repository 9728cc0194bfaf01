"""The gate before every change a phone asks for: the staff PIN, the ticket it earns,
and the CSRF token that proves a change comes from the table's own page.

Anyone on the café's network can read the table; only staff who typed the table's
PIN may change it. The PIN buys a ticket (an HTTP-only cookie) signed with a secret
that lives only in this process, so a restart logs every phone out and no file holds
anything worth stealing. Wrong PINs are slowed down for the whole table rather than
per address, since addresses cost nothing on a LAN: after a few, each try waits
longer, and a try made during the wait is refused without being checked, so guessing
by the hundred gets nowhere. Nothing here sleeps: a refusal says when to come back.

Changes also carry a double-submit CSRF token: an HTTP-only cookie, and the same
token written into the page itself, which its script sends back in a header. A page
on another site can neither read the page nor set the header, so it cannot send both.

Pure apart from the clocks and the randomness, both injectable, and free of any web
framework: the routes call it and turn a `Refusal` into a response.
"""

import hashlib
import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeGuard

from companion.phrases import Phrase, phrase
from companion.service_options import pin_problem

STAFF_COOKIE = "companion_staff"
"""The cookie that holds a staff ticket (HTTP-only)."""
CSRF_COOKIE = "companion_csrf"
"""The cookie that holds the page's CSRF token (HTTP-only: the script reads the token
from the page)."""
CSRF_HEADER = "x-csrf-token"
"""The header the page copies the CSRF token into for every change."""
TICKET_SECONDS = 12 * 3600
"""How long a ticket lasts: a café's opening hours, so staff type the PIN once a day."""
FREE_TRIES = 3
"""Wrong PINs in a row before each further try must wait."""
MAX_WAIT_SECONDS = 60.0
"""The longest wait between two tries, however many were wrong."""
MAX_TOKEN_CHARS = 128
"""The longest CSRF token taken for one (this gate's are 43 characters)."""
_MAX_TICKET_CHARS = 256
"""The longest ticket looked at (this gate's are about 100 characters)."""
_MAX_PIN_CHARS = 64
"""The longest typed PIN compared (a PIN has at most 12 digits)."""

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
    """401 no or expired ticket (or a wrong PIN), 403 wrong or missing CSRF token or
    staff tools off, 429 slowed down."""
    words: Phrase
    """What the page shows, translated by the caller."""
    retry_after: float | None = None
    """Seconds until a PIN is tried again (429 only)."""


class StaffGate:
    """The table's staff PIN, the tickets it grants, and the count of wrong PINs.

    Thread-safe, though the server's requests all run on its one event loop today: a
    lock costs nothing next to a PIN check, and keeps the count right for any server."""

    def __init__(
        self,
        pin: str | None,
        *,
        secret: bytes | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.problem: str | None = pin_problem(pin)
        """What is wrong with the PIN (English, for the log); None when it is usable."""
        self.enabled: bool = self.problem is None
        """Whether the staff tools are on: only with a usable PIN."""
        self._pin = pin.encode("ascii") if pin is not None and self.enabled else b""
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self._clock = clock
        self._wall = wall
        self._lock = threading.Lock()
        self._wrong = 0
        self._last_wrong = 0.0

    def log_in(self, typed: object) -> str | Refusal:
        """A signed ticket (the staff cookie's value) for the right PIN; a refusal for a
        wrong one, or for any try while the table waits after wrong ones. `typed` is
        whatever a request's body held: only a string of the PIN's digits is right."""
        if not self.enabled:
            return _staff_off()
        with self._lock:
            wait = self._wait_left()
            if wait > 0:
                return Refusal(
                    SLOWED,
                    phrase(
                        "too many wrong PINs: try again in {seconds} s", seconds=math.ceil(wait)
                    ),
                    retry_after=wait,
                )
            if not self._is_pin(typed):
                self._wrong += 1
                self._last_wrong = self._clock()
                return Refusal(NOT_STAFF, phrase("wrong PIN"))
            self._wrong = 0
        return self._ticket(int(self._wall()))

    def is_staff(self, ticket: str | None) -> bool:
        """Whether `ticket` was signed by this gate and has not expired. Anything else,
        however malformed, is simply not staff."""
        if not self.enabled or not isinstance(ticket, str) or len(ticket) > _MAX_TICKET_CHARS:
            return False
        if not ticket.isascii():
            return False
        issued, _, rest = ticket.partition(".")
        if not (issued.isdigit() and len(issued) <= 12) or not hmac.compare_digest(
            ticket, self._ticket(int(issued), rest.partition(".")[0])
        ):
            return False
        return 0 <= self._wall() - int(issued) < TICKET_SECONDS

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

    def _wait_left(self) -> float:
        """Seconds before the next PIN may be tried (0 when it may be now)."""
        if self._wrong < FREE_TRIES:
            return 0.0
        wait = min(2.0 ** (self._wrong - FREE_TRIES), MAX_WAIT_SECONDS)
        return self._last_wrong + wait - self._clock()

    def _is_pin(self, typed: object) -> bool:
        """Whether `typed` is the PIN, compared in constant time for a PIN's length."""
        if not isinstance(typed, str) or len(typed) > _MAX_PIN_CHARS or not typed.isascii():
            return False
        return hmac.compare_digest(typed.encode("ascii"), self._pin)

    def _ticket(self, issued: int, nonce: str | None = None) -> str:
        """The ticket issued at `issued` (wall seconds) with `nonce` (a new one when
        None), signed."""
        body = f"{issued}.{secrets.token_urlsafe(16) if nonce is None else nonce}"
        mac = hmac.new(self._secret, body.encode("ascii"), hashlib.sha256).hexdigest()
        return f"{body}.{mac}"


def _token(value: object) -> TypeGuard[str]:
    """Whether `value` can be a CSRF token: text, ASCII, not empty, not too long."""
    return isinstance(value, str) and 0 < len(value) <= MAX_TOKEN_CHARS and value.isascii()


def _staff_off() -> Refusal:
    return Refusal(FORBIDDEN, phrase("staff tools are off: this table has no staff PIN"))
