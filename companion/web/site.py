"""What every route of the phone page works with: the table, the journal, the staff's
gate, the pages, and the ways an answer is given (a page, JSON, an error).

A refusal is raised as `Refused` anywhere in a route and answered in one place, in
the table's language: as JSON for the page's script, as a page for a person.
"""

import re
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from companion.errors import (
    CompanionError,
    JournalError,
    RulesError,
    UnknownGameError,
    UnknownRoundError,
    UnreadableFileError,
)
from companion.journal import History
from companion.language import Language, translations
from companion.phrases import Phrase, phrase
from companion.session.commands import Command, Verdict
from companion.session.states import Snapshot
from companion.web.exports import picture_extension
from companion.web.pages import Pages
from companion.web.reader import JournalReader
from companion.web.staff import CSRF_COOKIE, StaffGate

_NUMBER = re.compile(r"[0-9]{1,9}")


class Table(Protocol):
    """The game loop as the web server sees it: a snapshot to read, a queue to post to."""

    def snapshot(self) -> Snapshot:
        """The state the loop last published."""

    def now(self) -> float:
        """The loop's clock (countdowns are in its seconds)."""

    def submit(self, command: Command) -> "Future[Verdict]":
        """Post a command; its verdict comes back once the loop acted on it."""


@dataclass(frozen=True)
class Site:
    """What the routes work with."""

    table: Table
    journal: JournalReader
    gate: StaffGate
    pages: Pages
    slots: tuple[int, ...]
    """The board's slot numbers (a correction's owners and votes are chosen among them)."""


class Refused(CompanionError, ValueError):
    """A request the server answers with an error status and words for the page."""

    def __init__(
        self,
        status: int,
        words: Phrase,
        retry_after: float | None = None,
        *,
        version: int | None = None,
    ) -> None:
        super().__init__(words)
        self.status = status
        self.retry_after = retry_after
        self.version = version
        """For a change the table refused (409): the version of the snapshot it was
        judged against, so the page knows it is to be drawn again."""


async def read_journal(site: Site, work: Callable[[History], Any], *, missing: Any = None) -> Any:
    """A read of the journal, its errors turned into answers: no journal yet is
    `missing` (or 404), an unknown game 404, a damaged one 422. The journal's own
    words are for the café's terminal, not for phones: they name its path on the Pi."""
    try:
        return await site.journal.read(work)
    except UnreadableFileError:
        if missing is not None:
            return missing
        raise Refused(404, phrase("this table has no games yet")) from None
    except (UnknownGameError, UnknownRoundError):  # their words name the journal's path
        raise Refused(404, phrase("there is no such page")) from None
    except (JournalError, RulesError, OSError):  # the words name the journal's path too
        raise Refused(
            422,
            phrase(
                "this game is damaged in the journal: `companion history` on the table says more"
            ),
        ) from None


def table_language(site: Site) -> Language:
    """The language the table speaks now: every page and error is in it."""
    return site.table.snapshot().state.language


def page_csrf(site: Site, request: Request) -> str:
    """The page's CSRF token: the one its cookie holds, or a new one."""
    token = request.cookies.get(CSRF_COOKIE, "")
    return token if site.gate.check_csrf(token, token) is None else site.gate.new_csrf_token()


def page_response(html: str, csrf: str, request: Request) -> Response:
    """A page, with the headers every page has, and its CSRF cookie when new."""
    response = Response(html, media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)
    if request.cookies.get(CSRF_COOKIE) != csrf:
        response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict")
    return response


PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'",
}


def error_page(site: Site, refused: Refused) -> Response:
    """The error as a page, for a person who followed a link."""
    language = table_language(site)
    title = phrase("Sorry")
    html = site.pages.message(title, refused.phrase, language, refused.status)
    return Response(
        html,
        status_code=refused.status,
        media_type="text/html; charset=utf-8",
        headers=PAGE_HEADERS,
    )


def json_response(doc: object) -> Response:
    """A JSON answer, never cached: the table moves on."""
    return JSONResponse(doc, headers={"Cache-Control": "no-store"})


def attachment(name: str) -> dict[str, str]:
    """The header that makes a download a file of that name."""
    return {"Content-Disposition": f'attachment; filename="{name}"'}


_MEDIA_TYPES = {".jpg": "image/jpeg", ".png": "image/png"}


def image_type(data: bytes) -> str:
    """A kept picture's media type, from its first bytes (anything else is sent as
    bytes, which no browser runs or shows as a page)."""
    return _MEDIA_TYPES.get(picture_extension(data), "application/octet-stream")


def path_number(request: Request, name: str) -> int:
    """A game's or round's number from the path; 404 for anything but a few digits."""
    text = str(request.path_params[name])
    if not _NUMBER.fullmatch(text):
        raise Refused(404, phrase("there is no such page"))
    return int(text)


def refusal(site: Site, refused: Refused) -> Response:
    """The error as JSON for the page's script (`{"error": words}`, with the table's
    `version` when the table refused a change), in the table's language."""
    words = refused.phrase.render(translations(table_language(site)))
    headers = {"Cache-Control": "no-store"}
    if refused.retry_after is not None:
        headers["Retry-After"] = str(max(1, round(refused.retry_after)))
    doc: dict[str, object] = {"error": words}
    if refused.version is not None:
        doc["version"] = refused.version
    return JSONResponse(doc, status_code=refused.status, headers=headers)
