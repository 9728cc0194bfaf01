"""The routes that read: the pages, the JSON interface, the downloads and the pictures.

Open to anyone on the café's network. Games and rounds are numbers in the path,
pictures come from the journal's own rows (or the archive's), and the two static
files from a fixed table: nothing a request says becomes a file path. A picture that
no longer matches its checksum is never served: its page says it is damaged and its
address answers 404; one pruned after the time pictures are kept answers 410.
"""

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from companion.journal import GameSummary, History, RoundImages, RoundSummary, StoredGame
from companion.journal.history import GameList, exported
from companion.phrases import phrase
from companion.view.present import present
from companion.web.documents import game_document, state_document, summary_document
from companion.web.exports import bgstats_link, game_csv, game_zip
from companion.web.pending import pending
from companion.web.site import (
    Refused,
    Site,
    attachment,
    image_type,
    json_response,
    page_csrf,
    page_response,
    path_number,
    read_journal,
    table_language,
)
from companion.web.staff import STAFF_COOKIE


async def table_page(site: Site, request: Request) -> Response:
    """`GET /`: the table now, followed live."""
    snapshot, now = site.table.snapshot(), site.table.now()
    language = snapshot.state.language
    view = present(snapshot.state, now, None)
    csrf = page_csrf(site, request)
    html = site.pages.table(
        view,
        state_document(snapshot, now),
        language,
        csrf=csrf,
        staff=site.gate.is_staff(request.cookies.get(STAFF_COOKIE)),
    )
    return page_response(html, csrf, request)


NO_GAMES = GameList((), None)
"""The list of games of a table that has no journal yet."""


async def games_page(site: Site, request: Request) -> Response:
    """`GET /games`: the table's games, under a note when the archive is damaged."""
    listed = await read_journal(site, lambda history: history.listing(), missing=NO_GAMES)
    damage = listed.archive_damage
    html = site.pages.games(
        listed.games,
        table_language(site),
        archive_damage=None if damage is None else damage.reason,
    )
    return page_response(html, page_csrf(site, request), request)


async def game_page(site: Site, request: Request) -> Response:
    """`GET /games/ID`: a game round by round, with its photos and downloads."""
    game_id = path_number(request, "game")

    def work(history: History) -> tuple[GameSummary, StoredGame, tuple[RoundSummary, ...]]:
        if not isinstance(history.game(game_id), GameSummary):
            raise Refused(422, phrase("game {number} is damaged", number=game_id))
        return history.whole(game_id)

    version = site.table.snapshot().version  # before the journal: never newer than the page
    summary, stored, rounds = await read_journal(site, work)
    csrf = page_csrf(site, request)
    staff = site.gate.is_staff(request.cookies.get(STAFF_COOKIE))
    html = site.pages.game(
        stored,
        summary,
        rounds,
        table_language(site),
        csrf=csrf,
        staff=staff and not summary.archived,  # the table corrects only its journal's games
        slots=site.slots,
        bgstats=bgstats_link(stored) if stored.game.outcome is not None else None,
        version=version,
    )
    return page_response(html, csrf, request)


async def setup_page(site: Site, request: Request) -> Response:
    """`GET /setup`: names, edition and options typed on a phone."""
    snapshot = site.table.snapshot()
    csrf = page_csrf(site, request)
    state = state_document(snapshot, site.table.now())
    return page_response(site.pages.setup(state, snapshot.state.language, csrf=csrf), csrf, request)


async def staff_page(site: Site, request: Request) -> Response:
    """`GET /staff`: the PIN form, or the staff's tools."""
    snapshot = site.table.snapshot()
    csrf = page_csrf(site, request)
    staff = site.gate.is_staff(request.cookies.get(STAFF_COOKIE))
    now = site.table.now()
    state = state_document(snapshot, now)
    waiting = pending(snapshot.state, snapshot.version, now)
    html = site.pages.staff(state, snapshot.state.language, csrf=csrf, staff=staff, waiting=waiting)
    return page_response(html, csrf, request)


async def static_file(site: Site, request: Request) -> Response:
    """`GET /static/NAME`: the page's style sheet or script, from a fixed table."""
    found = site.pages.static(str(request.path_params["name"]))
    if found is None:
        raise Refused(404, phrase("there is no such page"))
    body, media_type = found
    headers = {"Cache-Control": "max-age=3600", "X-Content-Type-Options": "nosniff"}
    return Response(body, media_type=media_type, headers=headers)


async def api_state(site: Site, request: Request) -> Response:
    """`GET /api/state`: the table now, as JSON."""
    return json_response(state_document(site.table.snapshot(), site.table.now()))


async def api_games(site: Site, request: Request) -> Response:
    """`GET /api/games`: the table's games, as JSON; with `archive_damage` saying why the
    archive's games are missing when it cannot be read."""
    listed = await read_journal(site, lambda history: history.listing(), missing=NO_GAMES)
    doc: dict[str, Any] = {"games": [summary_document(s) for s in listed.games]}
    if listed.archive_damage is not None:
        doc["archive_damage"] = listed.archive_damage.reason
    return json_response(doc)


async def api_game(site: Site, request: Request) -> Response:
    """`GET /api/games/ID`: one game with its rounds, as JSON."""
    game_id = path_number(request, "game")

    def work(history: History) -> dict[str, Any]:
        summary = history.game(game_id)
        if not isinstance(summary, GameSummary):
            return summary_document(summary)
        return game_document(*history.whole(game_id))

    return json_response(await read_journal(site, work))


async def api_export(site: Site, request: Request) -> Response:
    """`GET /api/games/ID/export`: the game file `companion score` reads."""
    game_id = path_number(request, "game")
    text = await read_journal(site, lambda history: history.export(game_id))
    return Response(text, media_type="application/json", headers=attachment(f"game-{game_id}.json"))


async def api_csv(site: Site, request: Request) -> Response:
    """`GET /api/games/ID/export.csv`: every round of the game, one row per scorer."""
    game_id = path_number(request, "game")

    def work(history: History) -> str:
        _, stored, rounds = history.whole(game_id)
        return game_csv(stored, rounds)

    text = await read_journal(site, work)
    return Response(
        text, media_type="text/csv; charset=utf-8", headers=attachment(f"game-{game_id}.csv")
    )


async def api_zip(site: Site, request: Request) -> Response:
    """`GET /api/games/ID/export.zip`: the game file, the CSV and every photo."""
    game_id = path_number(request, "game")

    def work(history: History) -> bytes:
        _, stored, rounds = history.whole(game_id)
        pictures = [(r.number, history.images(game_id, r.number)) for r in rounds]
        text = exported(stored.game)
        return game_zip(
            game_id, text, game_csv(stored, rounds), pictures, started_at=stored.started_at
        )

    data = await read_journal(site, work)
    return Response(data, media_type="application/zip", headers=attachment(f"game-{game_id}.zip"))


async def api_picture(site: Site, request: Request) -> Response:
    """`GET /api/games/ID/rounds/N/frame.jpg` or `overlay.jpg`, from the journal."""
    game_id, number = path_number(request, "game"), path_number(request, "number")
    which = str(request.path_params["picture"])
    if which not in ("frame.jpg", "overlay.jpg"):
        raise Refused(404, phrase("there is no such page"))

    def work(history: History) -> RoundImages:
        return history.images(game_id, number)

    images = await read_journal(site, work)
    pruned = images.pruned
    kind = "frame" if which == "frame.jpg" else "overlay"
    data = images.frame if kind == "frame" else images.overlay
    if kind in images.damaged:
        raise Refused(404, phrase("round {number}'s picture is damaged", number=number))
    if data is None and pruned:
        raise Refused(410, phrase("round {number}'s pictures are no longer kept", number=number))
    if data is None:
        raise Refused(404, phrase("round {number} has no picture kept", number=number))
    return Response(
        data,
        media_type=image_type(data),
        headers={"Cache-Control": "private, max-age=300", "X-Content-Type-Options": "nosniff"},
    )
