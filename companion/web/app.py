"""The phone page's web application: its routes, and the live stream beside them.

Reading is open to anyone on the café's network (`reading`); every change passes the
door (`door`) and goes to the loop as a command (`changes`). The live stream renders
the page's live part once per new snapshot for every phone following (`live`).
"""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from companion.phrases import phrase
from companion.session.states import Snapshot
from companion.view.present import present
from companion.web import changes, reading
from companion.web.documents import state_document
from companion.web.door import guarded
from companion.web.live import Live, update
from companion.web.pending import pending
from companion.web.site import Refused, Site, error_page, refusal


def make_app(site: Site, live: Live | None = None) -> ASGIApp:
    """The web application for one table, its live stream from `live` (the server
    keeps it, to end the streams when it stops)."""
    if live is None:
        live = live_for(site)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(live.run())
        try:
            yield
        finally:
            task.cancel()

    def route(
        path: str,
        handler: Callable[[Site, Request], Awaitable[Response]],
        *,
        post: bool = False,
        page: bool = False,
    ) -> Route:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(site, request)
            except Refused as refused:
                return error_page(site, refused) if page else refusal(site, refused)

        return Route(path, endpoint, methods=["POST"] if post else ["GET", "HEAD"])

    async def events(site: Site, request: Request) -> Response:
        if request.method != "GET":  # a HEAD would hold a place with no stream to read
            raise Refused(405, phrase("there is no such page"))
        if live.full():
            words = phrase("too many phones follow this table: try again soon")
            raise Refused(503, words, retry_after=30.0)
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(live.follow(), media_type="text/event-stream", headers=headers)

    routes = [
        route("/", reading.table_page, page=True),
        route("/games", reading.games_page, page=True),
        route("/games/{game}", reading.game_page, page=True),
        route("/setup", reading.setup_page, page=True),
        route("/staff", reading.staff_page, page=True),
        route("/static/{name}", reading.static_file),
        route("/events", events),
        route("/api/state", reading.api_state),
        route("/api/games", reading.api_games),
        route("/api/games/{game}", reading.api_game),
        route("/api/games/{game}/export", reading.api_export),
        route("/api/games/{game}/export.csv", reading.api_csv),
        route("/api/games/{game}/export.zip", reading.api_zip),
        route("/api/games/{game}/rounds/{number}/{picture}", reading.api_picture),
        route("/staff/login", changes.log_in, post=True),
        route("/staff/logout", changes.log_out, post=True),
        route("/api/setup", changes.api_setup, post=True),
        route("/api/actions", changes.api_actions, post=True),
        route("/api/games/{game}/rounds/{number}", changes.api_correct, post=True),
    ]

    async def not_here(request: Request, error: Exception) -> Response:
        """Starlette's own 404 and 405, answered as every refusal is."""
        status = error.status_code if isinstance(error, HTTPException) else 500
        return refusal(site, Refused(status, phrase("there is no such page")))

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: not_here})
    return guarded(app, site)


def live_for(site: Site) -> Live:
    """The live stream of a site's table."""
    return Live(site.table.snapshot, lambda snapshot: live_update(site, snapshot))


def live_update(site: Site, snapshot: Snapshot) -> str:
    """The live stream's update for a snapshot: its version, the table page's live
    part, the staff page's panel, and the state."""
    now = site.table.now()
    language = snapshot.state.language
    view = present(snapshot.state, now, None)
    state = state_document(snapshot, now)
    panel = site.pages.staff_panel(pending(snapshot.state, snapshot.version, now), language)
    return update(snapshot.version, site.pages.live(view, state, language), state, panel)
