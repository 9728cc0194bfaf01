"""The routes that change something: the staff's log in, a setup typed on a phone, a
press from the staff page, a corrected round.

Each passes the door (`door.json_body`: JSON, bounded, CSRF, the staff's ticket
unless the table is setting up a game), is checked for its types and, for a round,
by the rules, then posted to the loop as a command; the loop's verdict is the answer.
"""

import asyncio
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from companion.actions import Action, Press
from companion.errors import GameFileError, RulesError
from companion.gamefile import parse_round
from companion.phrases import phrase
from companion.session.commands import Command, Correct, GiveUp, SetUp
from companion.session.draft import OPTION_CHOICES
from companion.web.connections import address_key
from companion.web.door import json_body, raw_body
from companion.web.fields import problems_by_field, refused_fields
from companion.web.site import Refused, Site, json_response, path_number
from companion.web.staff import STAFF_COOKIE, TICKET_SECONDS, Refusal

VERDICT_SECONDS = 5.0
"""How long a change waits for the loop's verdict before the phone is told the table
is busy (a loop that hangs is restarted by the watchdog)."""

_ACTIONS: dict[str, Command] = {
    "confirm": Press(Action.CONFIRM),
    "undo": Press(Action.UNDO),
    "next": Press(Action.NEXT),
    "abandon": GiveUp(),
}
"""What `POST /api/actions` may ask for."""
_SETUP_KEYS = {"ruleset", "options", "names", "version"}


async def log_in(site: Site, request: Request) -> Response:
    """`POST /staff/login`: the staff's PIN, answered with the staff's cookie. Wrong
    PINs are counted for the client that typed them (`client_of`)."""
    body = await json_body(site, request, allowed={"pin"})
    answer = site.gate.log_in(body.get("pin"), client_of(site, request))
    if isinstance(answer, Refusal):
        raise Refused(answer.status, answer.words, answer.retry_after)
    response = json_response({"staff": True})
    response.set_cookie(
        STAFF_COOKIE, answer, max_age=int(TICKET_SECONDS), httponly=True, samesite="strict"
    )
    return response


async def log_out(site: Site, request: Request) -> Response:
    """`POST /staff/logout`: the staff's cookie forgotten."""
    await json_body(site, request, allowed=set())
    response = json_response({"staff": False})
    response.delete_cookie(STAFF_COOKIE, httponly=True, samesite="strict")
    return response


async def api_setup(site: Site, request: Request) -> Response:
    """`POST /api/setup`: a setup typed on a phone (any phone while the table sets up)."""
    setting_up = site.table.snapshot().state.setting_up
    body = await json_body(site, request, allowed=_SETUP_KEYS, staff=not setting_up)
    return await submit(site, replace(setup_command(body), seen=version_of(body.get("version"))))


async def api_actions(site: Site, request: Request) -> Response:
    """`POST /api/actions`: a press from the staff's page."""
    body = await json_body(site, request, allowed={"action", "version"}, staff=True)
    asked = body.get("action")
    command = _ACTIONS.get(asked) if isinstance(asked, str) else None
    if command is None:
        raise Refused(
            422, phrase("the action must be one of: {actions}", actions=", ".join(_ACTIONS))
        )
    return await submit(site, replace(command, seen=version_of(body.get("version"))))


async def api_correct(site: Site, request: Request) -> Response:
    """`POST /api/games/ID/rounds/N`: a round of the game at the table corrected, or
    the round being played entered by hand."""
    game_id, number = path_number(request, "game"), path_number(request, "number")
    raw = await raw_body(site, request, staff=True)
    state = site.table.snapshot().state
    if state.game_id != game_id or state.setting_up:
        raise Refused(
            409,
            phrase(
                "only the game at the table can be corrected, and game {number} is not",
                number=game_id,
            ),
        )
    try:
        reveal = parse_round(raw, number)
    except GameFileError as error:
        words = phrase("the corrected round cannot be read: {problem}", problem=error.phrase)
        raise Refused(422, words) from None
    try:  # the rules' word, before the loop is asked
        if number == state.game.round_number and state.game.outcome is None:
            state.game.score(reveal)  # the round being played, entered by hand
        else:
            state.game.corrected(number, reveal)
    except RulesError as error:
        problems = problems_by_field(state.game, site.slots, number, reveal)
        return refused_fields(problems, error.phrase, state.language)
    seen = version_of(request.query_params.get("version"), query=True)
    return await submit(site, Correct(game_id, number, reveal, seen))


def client_of(site: Site, request: Request) -> str:
    """Who typed a PIN, for counting wrong ones: the table's own staff ticket when the
    request carries one (even expired), else its address (for IPv6 its /64 network,
    which a phone may hop around in at will)."""
    nonce = site.gate.ticket_nonce(request.cookies.get(STAFF_COOKIE))
    if nonce is not None:
        return f"ticket {nonce}"
    return address_key(request.client.host if request.client is not None else "")


def version_of(value: object, *, query: bool = False) -> int | None:
    """The snapshot version a change was made from (the `version` the page got with the
    state it showed); None when the change names none (it then applies to the table as
    it is). In a query string it is digits."""
    if value is None:
        return None
    if query and isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value[:18])
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**18:
        return value
    raise Refused(422, phrase("the version must be a whole number"))


def setup_command(body: dict[str, Any]) -> SetUp:
    """A setup from a phone, its types checked (the session checks the values)."""
    ruleset = body.get("ruleset")
    options = body.get("options", {})
    names = body.get("names", {})
    if ruleset is not None and not isinstance(ruleset, str):
        raise Refused(422, phrase("the edition must be a name"))
    if not isinstance(options, dict) or not all(
        (isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**6) or v is None
        for v in options.values()
    ):
        raise Refused(422, phrase("each option must be a whole number or null"))
    unknown = sorted(set(options) - set(OPTION_CHOICES))
    if unknown:
        raise Refused(422, phrase("there is no option {name}", name=unknown[0][:40]))
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        raise Refused(422, phrase("each name must be text"))
    return SetUp(ruleset, dict(options), dict(names))


async def submit(site: Site, command: Command) -> Response:
    """Post a command to the loop and answer with its verdict."""
    future = site.table.submit(command)
    waiting = asyncio.wrap_future(future)
    try:
        verdict = await asyncio.wait_for(asyncio.shield(waiting), VERDICT_SECONDS)
    except TimeoutError:
        if future.cancel():  # it never reached the session: nothing was done
            raise Refused(503, phrase("the table is busy: try again")) from None
        verdict = await waiting  # the session is acting on it: its verdict is the answer
    if verdict.unkept is not None:  # nothing was done: the journal could not keep it
        raise Refused(507 if verdict.unkept.card_full else 503, verdict.unkept.words)
    if verdict.refused is not None:  # not now, made from an older snapshot, or not allowed
        raise Refused(409, verdict.refused, version=verdict.version)
    return json_response({"version": verdict.version})
