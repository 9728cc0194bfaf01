"""The door every request passes: the host it was sent to, its size, and for a
change its type, its CSRF token and the staff's ticket.

The host must be an IP address or localhost, the names the table itself gives out:
a page of another site renamed to the Pi's address (DNS rebinding) is turned away
before any route sees it.
"""

import json
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from companion.phrases import phrase
from companion.web.site import Refused, Site, refusal
from companion.web.staff import CSRF_COOKIE, CSRF_HEADER, STAFF_COOKIE

MAX_BODY_BYTES = 64 * 1024
"""The largest change a phone may send: a corrected round or a setup is a few hundred
bytes."""


def guarded(app: Starlette, site: Site) -> ASGIApp:
    """The app behind the checks every request passes: the host it was sent to (an
    IP address or localhost: a page of another site renamed to the Pi's address, DNS
    rebinding, is refused) and the size it announces."""

    async def checked(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            refused = _door(headers)
            if refused is not None:
                response = refusal(site, refused)
                await response(scope, receive, send)
                return
        await app(scope, receive, send)

    return checked


def _door(headers: dict[bytes, bytes]) -> "Refused | None":
    host = headers.get(b"host", b"").decode("latin-1")
    if not _host_allowed(host):
        return Refused(421, phrase("open the page by the address the table shows"))
    length = headers.get(b"content-length", b"0")
    if not length.isdigit() or len(length) > 12 or int(length) > MAX_BODY_BYTES:
        return Refused(413, phrase("the request is too large"))
    return None


def _host_allowed(host: str) -> bool:
    """Whether a Host header names an IP address or localhost (with any port)."""
    if host.startswith("["):
        name = host[1:].partition("]")[0]
    else:
        name = host.rpartition(":")[0] if ":" in host else host
    if name == "localhost":
        return True
    parts = name.split(".")
    if len(parts) == 4 and all(p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts):
        return True
    return ":" in name and all(c in "0123456789abcdefABCDEF:." for c in name)


async def raw_body(site: Site, request: Request, *, staff: bool = False) -> str:
    """A change's body as text, once the door is passed: JSON, at most
    `MAX_BODY_BYTES`, the CSRF token, and the staff's ticket when `staff`."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused(415, phrase("changes are sent as JSON"))
    denied = site.gate.check_csrf(
        request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)
    )
    if denied is None and staff:
        denied = site.gate.check_staff(request.cookies.get(STAFF_COOKIE))
    if denied is not None:
        raise Refused(denied.status, denied.words, denied.retry_after)
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY_BYTES:
                raise Refused(413, phrase("the request is too large"))
    except ClientDisconnect:  # gone, or cut off for sending too slowly (`connections`)
        raise Refused(408, phrase("the request came too slowly: try again")) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, phrase("the request is not UTF-8 text")) from None


async def json_body(
    site: Site, request: Request, *, allowed: set[str], staff: bool = False
) -> dict[str, Any]:
    """A change's body as a JSON object with only `allowed` keys."""
    raw = await raw_body(site, request, staff=staff)
    try:
        body = json.loads(raw or "{}")
    except (ValueError, RecursionError):
        raise Refused(400, phrase("the request is not JSON")) from None
    if not isinstance(body, dict):
        raise Refused(422, phrase("the request must be a JSON object"))
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise Refused(422, phrase("unknown field: {field}", field=unknown[0][:40]))
    return body
