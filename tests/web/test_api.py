"""Every route of the phone page through the test client, over a real session and
journal: the state, the games, the downloads and pictures, the pages, and every
change with its door (host, size, type, CSRF, the staff PIN) and the table's verdict."""

import io
import json
import sqlite3
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from companion.actions import Action
from companion.gamefile import parse_game
from companion.journal import Journal, archive_path
from companion.journal.archive import archive_games
from companion.language import Language, translations
from companion.phrases import Phrase, phrase
from companion.rules import Reveal
from companion.session.draft import KIT_COLOURS
from companion.web.staff import CSRF_HEADER, STAFF_COOKIE, StaffGate
from tests.journal.helpers import example, frame_of, play_into
from tests.session.observations import table_of
from tests.web.desk import (
    JPEG,
    LINEUP,
    PIN,
    PNG,
    Desk,
    all_find,
    change,
    csrf_token,
    log_in,
    playing_desk,
    round_of,
    served,
    setting_up_desk,
    staff_client,
)

STATE_KEYS = {
    "version",
    "phase",
    "ruleset",
    "players",
    "totals",
    "round",
    "waiting_for",
    "proposal",
    "game",
    "language",
    "storyteller",
    "problems",
    "winners",
    "setup",
}
"""`GET /api/state`'s keys: those the README documents, then those added since."""
PAGES = ["/", "/games", "/games/1", "/setup", "/staff"]
ROUND_1_TOTALS = {"Ann": 3, "Ben": 4, "Cleo": 0, "Dan": 3}
ROUND_2_TOTALS = {"Ann": 6, "Ben": 7, "Cleo": 4, "Dan": 3}
ILLEGAL = {"cards": {"1": "Ann"}, "votes": {}}
"""A round with only the storyteller's card."""


class Clock:
    """The clock of the staff gate's waits, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def round_json(reveal: Reveal) -> dict[str, object]:
    """A round in the game file's round shape, as the page sends a correction."""
    return {
        "cards": {str(slot): owner for slot, owner in reveal.cards.items()},
        "votes": {voter: list(slots) for voter, slots in reveal.votes.items()},
    }


def error_of(answer: httpx.Response) -> str:
    assert answer.headers["content-type"] == "application/json", answer.text
    words = answer.json()["error"]
    assert isinstance(words, str) and words
    return words


def french(words: Phrase) -> str:
    return words.render(translations(Language.FRENCH))


def assert_page(answer: httpx.Response, status: int = 200) -> None:
    """An HTML page with the security headers every page carries."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["x-frame-options"] == "DENY"
    policy = answer.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1]
    assert answer.text.lstrip().lower().startswith("<!doctype html>")


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    """A game with two rounds confirmed, the second without its pictures."""
    with playing_desk(tmp_path / "journal.sqlite", 2, without_photos=(2,)) as desk:
        yield desk


@pytest.fixture
def client(desk: Desk) -> Iterator[TestClient]:
    with served(desk) as client:
        yield client


@pytest.fixture
def setting_up(tmp_path: Path) -> Iterator[Desk]:
    with setting_up_desk(tmp_path / "journal.sqlite") as desk:
        yield desk


# The state


def test_the_state_of_a_game_in_progress_has_every_documented_key(
    desk: Desk, client: TestClient
) -> None:
    answer = client.get("/api/state")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "no-store"
    state = answer.json()
    assert set(state) == STATE_KEYS
    assert state["version"] == desk.snapshot().version
    assert state["phase"] == "waiting"
    assert state["ruleset"] == "odyssey"
    assert state["language"] == "en"
    assert state["game"] == desk.game_id
    assert state["players"] == [
        {"name": n, "colour": c, "scorer": n}
        for n, c in zip(LINEUP.names, LINEUP.colours, strict=True)
    ]
    assert state["totals"] == ROUND_2_TOTALS
    assert state["round"] == 3 and state["storyteller"] == "Cleo"
    assert state["proposal"] is None
    assert state["winners"] == [] and state["setup"] is None
    assert all(isinstance(w, str) for w in state["waiting_for"] + state["problems"])


def test_the_state_shows_the_proposal_waiting_for_confirm(desk: Desk, client: TestClient) -> None:
    desk.see(table_of(round_of(3), LINEUP))
    state = client.get("/api/state").json()
    assert state["phase"] == "proposal"
    proposal = state["proposal"]
    assert proposal["round"] == 3
    assert proposal["reveal"] == round_json(round_of(3))
    assert proposal["points"] == {"Ann": 0, "Ben": 3, "Cleo": 3, "Dan": 4}
    assert all(proposal["reasons"][s] for s in LINEUP.names)
    assert proposal["confirms_in"] is None


def test_the_state_follows_the_table_version_by_version(desk: Desk, client: TestClient) -> None:
    first = client.get("/api/state").json()["version"]
    desk.see(table_of(round_of(3), LINEUP))
    assert client.get("/api/state").json()["version"] == first + 1 == desk.snapshot().version


def test_the_state_of_a_finished_game_names_the_winners(tmp_path: Path) -> None:
    with playing_desk(tmp_path / "journal.sqlite", 3, target=10) as desk, served(desk) as client:
        state = client.get("/api/state").json()
        assert state["phase"] == "winner"
        assert state["winners"] == ["Ben"]
        assert state["round"] == 3 and state["storyteller"] is None


def test_the_state_during_setup_shows_the_draft(setting_up: Desk) -> None:
    with served(setting_up) as client:
        state = client.get("/api/state").json()
    assert set(state) == STATE_KEYS
    assert state["phase"] == "language"
    assert (state["game"], state["players"], state["totals"], state["round"]) == (
        None,
        [],
        {},
        None,
    )
    setup = state["setup"]
    assert setup["step"] == "language" and setup["ruleset"] == "odyssey"
    assert setup["seats"] == [] and setup["named"] == {}
    assert setup["options"]["target"] == 30


# The games


def test_the_games_are_listed_with_their_totals(desk: Desk, client: TestClient) -> None:
    answer = client.get("/api/games")
    assert answer.status_code == 200
    (game,) = answer.json()["games"]
    assert game["id"] == desk.game_id
    assert game["ruleset"] == "odyssey" and game["players"] == list(LINEUP.names)
    assert game["rounds_played"] == 2 and game["status"] == "playing"
    assert game["totals"] == ROUND_2_TOTALS and game["winners"] == []


def test_a_table_without_a_journal_yet_has_no_games(desk: Desk, tmp_path: Path) -> None:
    with served(desk, journal=tmp_path / "none" / "journal.sqlite") as client:
        assert client.get("/api/games").json() == {"games": []}
        answer = client.get("/api/games/1")
        assert answer.status_code == 404
        assert error_of(answer) == "this table has no games yet"


def test_a_game_has_every_round_with_its_pictures(desk: Desk, client: TestClient) -> None:
    game = client.get(f"/api/games/{desk.game_id}").json()
    assert game["colours"] == dict(zip(LINEUP.names, LINEUP.colours, strict=True))
    assert game["first_storyteller"] == "Ann"
    assert game["options"]["target"] == 30
    first, second = game["rounds"]
    base = f"/api/games/{desk.game_id}/rounds"
    assert first["number"] == 1 and first["storyteller"] == "Ann"
    assert {"cards": first["cards"], "votes": first["votes"]} == round_json(round_of(1))
    assert first["points"] == ROUND_1_TOTALS == first["totals"]
    assert first["corrected"] is False
    assert (first["frame"], first["overlay"]) == (f"{base}/1/frame.jpg", f"{base}/1/overlay.jpg")
    assert (second["frame"], second["overlay"]) == (None, None)
    assert second["totals"] == ROUND_2_TOTALS


def test_the_export_scored_by_companion_score_gives_the_journals_totals(
    desk: Desk, client: TestClient
) -> None:
    answer = client.get(f"/api/games/{desk.game_id}/export")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    disposition = answer.headers["content-disposition"]
    assert disposition == f'attachment; filename="game-{desk.game_id}.json"'
    scored = parse_game(answer.text, stored=True).play()
    assert dict(scored.totals) == dict(desk.session.state.game.totals) == ROUND_2_TOTALS
    assert answer.text == desk.export(desk.game_id)


def test_the_csv_and_the_zip_are_downloads(desk: Desk, client: TestClient) -> None:
    base = f"/api/games/{desk.game_id}/export"
    csv = client.get(f"{base}.csv")
    assert csv.status_code == 200
    assert csv.headers["content-type"] == "text/csv; charset=utf-8"
    assert csv.headers["content-disposition"] == f'attachment; filename="game-{desk.game_id}.csv"'
    assert csv.text.count("\n") >= 8 and "Cleo" in csv.text
    packed = client.get(f"{base}.zip")
    assert packed.status_code == 200
    assert packed.headers["content-type"] == "application/zip"
    assert (
        packed.headers["content-disposition"] == f'attachment; filename="game-{desk.game_id}.zip"'
    )
    with zipfile.ZipFile(io.BytesIO(packed.content)) as archive:
        assert archive.testzip() is None
        contents = [archive.read(name) for name in archive.namelist()]
    assert JPEG in contents and PNG in contents


@pytest.mark.parametrize(
    ("picture", "data", "media_type"),
    [("frame.jpg", JPEG, "image/jpeg"), ("overlay.jpg", PNG, "image/png")],
)
def test_a_rounds_pictures_come_from_the_journal(
    desk: Desk, client: TestClient, picture: str, data: bytes, media_type: str
) -> None:
    answer = client.get(f"/api/games/{desk.game_id}/rounds/1/{picture}")
    assert answer.status_code == 200
    assert answer.content == data
    assert answer.headers["content-type"] == media_type
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_round_kept_without_pictures_has_none_to_show(desk: Desk, client: TestClient) -> None:
    answer = client.get(f"/api/games/{desk.game_id}/rounds/2/frame.jpg")
    assert answer.status_code == 404
    assert error_of(answer) == "round 2 has no picture kept"


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/1/rounds/1/frame.png",
        "/api/games/1/rounds/1/journal.sqlite",
        "/api/games/one/rounds/1/frame.jpg",
        "/api/games/1/rounds/1.0/frame.jpg",
        "/api/games/1/rounds/-1/frame.jpg",
        "/api/games/1234567890/rounds/1/frame.jpg",
        "/api/games/1/rounds/1234567890/frame.jpg",
        "/api/games/99/rounds/1/frame.jpg",
        "/api/games/99",
        "/api/games/99/export",
        "/api/games/99/export.csv",
        "/api/games/99/export.zip",
        "/api/games/%31%2e%2e/export",
        "/static/journal.sqlite",
        "/static/%2e%2e%2fapp.py",
    ],
)
def test_what_does_not_exist_is_not_found(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404


@pytest.mark.parametrize("number", [0, 3, 999_999_999])
def test_the_pictures_of_a_round_not_played_are_not_found(
    desk: Desk, client: TestClient, number: int
) -> None:
    answer = client.get(f"/api/games/{desk.game_id}/rounds/{number}/frame.jpg")
    assert answer.status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/99",
        "/api/games/99/export.zip",
        "/games/99",
        "/api/games/1/rounds/3/frame.jpg",
    ],
)
def test_a_refusal_never_names_the_servers_files(desk: Desk, client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert str(desk.path.parent) not in answer.text
    assert "journal" not in answer.text.lower()


# The pages


@pytest.mark.parametrize("path", PAGES)
def test_the_pages_are_html_with_the_security_headers(client: TestClient, path: str) -> None:
    assert_page(client.get(path))


def test_a_page_during_setup_is_html_too(setting_up: Desk) -> None:
    with served(setting_up) as client:
        for path in PAGES[:2] + PAGES[3:]:
            assert_page(client.get(path))


@pytest.mark.parametrize("path", ["/games/99", "/games/ninety"])
def test_an_unknown_game_page_is_an_html_404(client: TestClient, path: str) -> None:
    assert_page(client.get(path), 404)


def test_the_static_files_are_served_by_name_only(client: TestClient) -> None:
    css = client.get("/static/page.css")
    assert css.status_code == 200
    assert css.headers["content-type"] == "text/css; charset=utf-8"
    assert client.get("/static/page.py").status_code == 404


def test_a_page_gives_its_csrf_token_in_an_http_only_cookie(client: TestClient) -> None:
    answer = client.get("/")
    cookie = answer.headers["set-cookie"].lower()
    assert cookie.startswith("companion_csrf=")
    assert "httponly" in cookie and "samesite=strict" in cookie
    token = csrf_token(client)
    assert "set-cookie" not in client.get("/").headers, "a page with the token keeps it"
    assert csrf_token(client) == token


# Changes: setup


def test_a_setup_during_setting_up_needs_no_pin(setting_up: Desk) -> None:
    with served(setting_up) as client:
        answer = change(client, "/api/setup", {"ruleset": "classic"})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"version": setting_up.snapshot().version}
        for colour in ("red", "blue", "green"):
            setting_up.press(Action.PICK, KIT_COLOURS.index(colour))
        named = change(client, "/api/setup", {"names": {"red": "Ann", "green": "Cleo"}})
        assert named.status_code == 200, named.text
        setup = client.get("/api/state").json()["setup"]
    assert setup["step"] == "seats" and setup["ruleset"] == "classic"
    assert setup["seats"] == [
        {"colour": "red", "name": "Ann"},
        {"colour": "blue", "name": "Blue"},
        {"colour": "green", "name": "Cleo"},
    ]
    assert setup["named"] == {"red": "Ann", "green": "Cleo"}


@pytest.mark.parametrize("csrf", ["", "not-the-token", "x" * 129])
def test_a_setup_without_the_pages_token_is_forbidden(setting_up: Desk, csrf: str) -> None:
    with served(setting_up) as client:
        csrf_token(client)
        headers = {CSRF_HEADER: csrf} if csrf else {}
        answer = client.post("/api/setup", json={"ruleset": "classic"}, headers=headers)
        assert answer.status_code == 403
        assert error_of(answer) == "this page is out of date: reload it"
    assert setting_up.submitted == []
    assert setting_up.snapshot().state.draft.ruleset == "odyssey"


def test_a_setup_without_the_token_cookie_is_forbidden(setting_up: Desk) -> None:
    with served(setting_up) as client:
        token = csrf_token(client)
        client.cookies.clear()
        answer = client.post(
            "/api/setup", json={"ruleset": "classic"}, headers={CSRF_HEADER: token}
        )
    assert answer.status_code == 403
    assert setting_up.submitted == []


def test_a_setup_outside_setting_up_needs_the_pin_and_is_then_refused(
    desk: Desk, client: TestClient
) -> None:
    answer = change(client, "/api/setup", {"names": {"red": "Zed"}})
    assert answer.status_code == 401
    assert error_of(answer) == "staff PIN needed"
    assert desk.submitted == []
    staff_client(client)
    answer = change(client, "/api/setup", {"names": {"red": "Zed"}})
    assert answer.status_code == 409
    assert error_of(answer) == "the table is not setting up a game: names wait for the next"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"ruleset": 3}, "the edition must be a name"),
        ({"options": {"target": "lots"}}, "each option must be a whole number or null"),
        ({"options": {"target": True}}, "each option must be a whole number or null"),
        ({"options": {"target": 10**6}}, "each option must be a whole number or null"),
        ({"options": [1]}, "each option must be a whole number or null"),
        ({"names": {"red": 5}}, "each name must be text"),
        ({"names": ["Ann"]}, "each name must be text"),
        ({"colour": "red"}, "unknown field: colour"),
        ([1, 2], "the request must be a JSON object"),
    ],
)
def test_a_setup_of_the_wrong_shape_is_refused_before_the_table_hears_of_it(
    setting_up: Desk, body: object, words: str
) -> None:
    with served(setting_up) as client:
        answer = change(client, "/api/setup", body)
    assert answer.status_code == 422
    assert error_of(answer) == words
    assert setting_up.submitted == []


def test_a_setup_the_table_refuses_is_a_conflict_with_its_reason(setting_up: Desk) -> None:
    with served(setting_up) as client:
        answer = change(client, "/api/setup", {"ruleset": "monopoly"})
    assert answer.status_code == 409
    assert error_of(answer) == "there is no edition monopoly"


# Changes: actions


def test_an_action_needs_the_pin(desk: Desk, client: TestClient) -> None:
    answer = change(client, "/api/actions", {"action": "undo"})
    assert answer.status_code == 401
    assert desk.submitted == []
    assert client.get("/api/state").json()["totals"] == ROUND_2_TOTALS


def test_undo_from_the_staff_page_takes_the_last_round_back(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    answer = change(client, "/api/actions", {"action": "undo"})
    assert answer.status_code == 200, answer.text
    state = client.get("/api/state").json()
    assert answer.json() == {"version": state["version"]}
    assert state["totals"] == ROUND_1_TOTALS and state["round"] == 2
    assert client.get(f"/api/games/{desk.game_id}").json()["rounds"][-1]["number"] == 1


def test_confirm_from_the_staff_page_keeps_the_proposed_round(
    desk: Desk, client: TestClient
) -> None:
    desk.see(table_of(round_of(3), LINEUP))
    staff_client(client)
    assert change(client, "/api/actions", {"action": "confirm"}).status_code == 200
    state = client.get("/api/state").json()
    assert state["phase"] == "clearing"
    assert state["totals"] == {"Ann": 6, "Ben": 10, "Cleo": 7, "Dan": 7}


def test_abandon_from_the_staff_page_gives_the_game_up(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    assert change(client, "/api/actions", {"action": "abandon"}).status_code == 200
    assert client.get("/api/state").json()["phase"] == "language"
    (game,) = client.get("/api/games").json()["games"]
    assert game["status"] == "abandoned"
    again = change(client, "/api/actions", {"action": "abandon"})
    assert again.status_code == 409
    assert error_of(again) == "there is no game in progress to give up"


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"action": "dance"}, 422),
        ({"action": 5}, 422),
        ({"action": "quit"}, 422),
        ({}, 422),
        ({"action": "undo", "round": 1}, 422),
    ],
)
def test_an_unknown_action_is_refused(
    desk: Desk, client: TestClient, body: dict[str, object], status: int
) -> None:
    staff_client(client)
    answer = change(client, "/api/actions", body)
    assert answer.status_code == status
    assert error_of(answer)
    assert desk.submitted == []


# Changes: a corrected round


def test_a_correction_without_the_pin_changes_nothing(desk: Desk, client: TestClient) -> None:
    before = client.get(f"/api/games/{desk.game_id}/export").text
    answer = change(client, f"/api/games/{desk.game_id}/rounds/1", round_json(all_find(1)))
    assert answer.status_code == 401
    assert desk.submitted == []
    assert client.get(f"/api/games/{desk.game_id}/export").text == before


def test_a_correction_with_the_pin_rescores_the_game(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    answer = change(client, f"/api/games/{desk.game_id}/rounds/1", round_json(all_find(1)))
    assert answer.status_code == 200, answer.text
    state = client.get("/api/state").json()
    assert answer.json() == {"version": state["version"]}
    assert state["totals"] == {"Ann": 3, "Ben": 5, "Cleo": 6, "Dan": 2}
    first = client.get(f"/api/games/{desk.game_id}").json()["rounds"][0]
    assert first["corrected"] is True
    assert {"cards": first["cards"], "votes": first["votes"]} == round_json(all_find(1))
    exported = client.get(f"/api/games/{desk.game_id}/export").text
    assert dict(parse_game(exported, stored=True).play().totals) == state["totals"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (json.dumps(ILLEGAL), "round 1: Ben has not laid a card; one card expected"),
        ('{"cards": {"1": "Zed", "2": "Ben", "3": "Cleo", "4": "Dan"}, "votes": {}}', "Zed"),
        ('{"cards":', "not JSON"),
        ("[]", "round 1 must be a JSON object, not a list"),
        ("", "round 1: nothing was sent"),
        ('{"cards": {}, "votes": {}, "x": 1}', "unknown key 'x'"),
        ('{"cards": {"1": "Ann", "1": "Ben"}, "votes": {}}', "appears twice"),
        ('{"cards": {"1": "Ann"}, "votes": {"Ben": [NaN]}}', ""),
        ('{"cards": {"1": "Ann"}, "votes": {"Ben": [1' + "0" * 400 + "]}}", ""),
        ("[" * 100_00 + "]" * 100_00, ""),
    ],
)
def test_a_correction_that_is_not_a_legal_round_is_refused_with_words(
    desk: Desk, client: TestClient, body: str, words: str
) -> None:
    staff_client(client)
    before = client.get(f"/api/games/{desk.game_id}/export").text
    answer = client.post(
        f"/api/games/{desk.game_id}/rounds/1",
        content=body.encode(),
        headers={CSRF_HEADER: csrf_token(client), "content-type": "application/json"},
    )
    assert answer.status_code in (400, 422), answer.text
    assert words in error_of(answer)
    assert desk.submitted == []
    assert client.get(f"/api/games/{desk.game_id}/export").text == before


def test_a_round_not_played_cannot_be_corrected(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    answer = change(client, f"/api/games/{desk.game_id}/rounds/4", round_json(round_of(4)))
    assert answer.status_code == 422
    assert "round 4" in error_of(answer)


def test_only_the_game_at_the_table_can_be_corrected(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    answer = change(client, f"/api/games/{desk.game_id + 1}/rounds/1", round_json(all_find(1)))
    assert answer.status_code == 409
    assert error_of(answer) == (
        f"only the game at the table can be corrected, and game {desk.game_id + 1} is not"
    )


def test_a_correction_while_the_editor_is_open_is_refused_by_the_table(
    desk: Desk, client: TestClient
) -> None:
    desk.press(Action.FIX)
    staff_client(client)
    answer = change(client, f"/api/games/{desk.game_id}/rounds/1", round_json(all_find(1)))
    assert answer.status_code == 409
    assert error_of(answer) == "the table is busy with a question: answer it there first"


# The door


def test_a_body_over_64_kib_is_too_large(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    headers = {CSRF_HEADER: csrf_token(client), "content-type": "application/json"}
    big = b" " * (64 * 1024 + 1)
    answer = client.post(f"/api/games/{desk.game_id}/rounds/1", content=big, headers=headers)
    assert answer.status_code == 413
    assert error_of(answer) == "the request is too large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield from [b" " * 16 * 1024] * 5

    answer = client.post("/api/actions", content=chunks(), headers=headers)
    assert answer.status_code == 413
    assert desk.submitted == []


@pytest.mark.parametrize("length", ["-1", "abc", "1" * 13, "99999999999"])
def test_a_bogus_content_length_is_refused(client: TestClient, length: str) -> None:
    answer = client.get("/api/state", headers={"content-length": length})
    assert answer.status_code == 413


@pytest.mark.parametrize("media_type", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_a_change_that_is_not_json_is_refused(
    desk: Desk, client: TestClient, media_type: str
) -> None:
    staff_client(client)
    headers = {CSRF_HEADER: csrf_token(client), "content-type": media_type}
    answer = client.post("/api/actions", content=b'{"action": "undo"}', headers=headers)
    assert answer.status_code == 415
    assert error_of(answer) == "changes are sent as JSON"
    assert desk.submitted == []


def test_json_with_a_charset_is_json(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    headers = {CSRF_HEADER: csrf_token(client), "content-type": "application/json; charset=utf-8"}
    answer = client.post("/api/actions", content=b'{"action": "undo"}', headers=headers)
    assert answer.status_code == 200


def test_a_body_that_is_not_utf8_is_refused(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    headers = {CSRF_HEADER: csrf_token(client), "content-type": "application/json"}
    answer = client.post("/api/actions", content=b'{"action": "\xff"}', headers=headers)
    assert answer.status_code == 400
    assert desk.submitted == []


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil", ""]
)
def test_a_request_to_another_host_name_is_misdirected(client: TestClient, host: str) -> None:
    for answer in (
        client.get("/api/state", headers={"host": host}),
        client.get("/", headers={"host": host}),
        client.post("/staff/login", json={"pin": PIN}, headers={"host": host}),
    ):
        assert answer.status_code == 421
        assert error_of(answer) == "open the page by the address the table shows"


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "192.168.1.23:8080", "localhost:8080", "[::1]:8080", "[fe80::1]"]
)
def test_a_request_to_an_address_is_served(client: TestClient, host: str) -> None:
    assert client.get("/api/state", headers={"host": host}).status_code == 200


# Logging in


def test_the_right_pin_gives_an_http_only_strict_cookie(client: TestClient) -> None:
    answer = log_in(client)
    assert answer.status_code == 200
    assert answer.json() == {"staff": True}
    cookie = answer.headers["set-cookie"].lower()
    assert cookie.startswith(f"{STAFF_COOKIE}=")
    assert "httponly" in cookie and "samesite=strict" in cookie and "max-age=43200" in cookie


def test_logging_in_needs_the_pages_token(desk: Desk, client: TestClient) -> None:
    answer = client.post("/staff/login", json={"pin": PIN})
    assert answer.status_code == 403
    assert STAFF_COOKIE not in client.cookies


def test_wrong_pins_are_refused_then_slowed_down(desk: Desk) -> None:
    clock = Clock()
    with served(desk, StaffGate(PIN, clock=clock)) as client:
        for _ in range(3):
            answer = log_in(client, "135799")
            assert answer.status_code == 401
            assert error_of(answer) == "wrong PIN"
        slowed = log_in(client, "135799")
        assert slowed.status_code == 429
        assert slowed.headers["retry-after"] == "1"
        assert error_of(slowed) == "too many wrong PINs: try again in 1 s"
        assert log_in(client).status_code == 429, "the right PIN waits too"
        assert STAFF_COOKIE not in client.cookies
        clock.now += 1.0
        assert log_in(client).status_code == 200
        assert change(client, "/api/actions", {"action": "undo"}).status_code == 200


@pytest.mark.parametrize(
    "pin", [246810, None, ["246810"], "246810 ", "\uff12\uff14\uff16\uff18\uff11\uff10", "0" * 100]
)
def test_a_pin_that_is_not_4_to_12_digits_is_malformed(client: TestClient, pin: object) -> None:
    answer = change(client, "/staff/login", {"pin": pin})
    assert (answer.status_code, error_of(answer)) == (400, "type the staff PIN: 4 to 12 digits")
    assert STAFF_COOKIE not in client.cookies


def test_a_forged_staff_cookie_is_not_staff(desk: Desk, client: TestClient) -> None:
    client.cookies.set(STAFF_COOKIE, "1700000000.abc.0123456789abcdef")
    answer = change(client, "/api/actions", {"action": "undo"})
    assert answer.status_code == 401
    assert desk.submitted == []


def test_another_tables_ticket_is_not_staff(desk: Desk, client: TestClient) -> None:
    other = StaffGate(PIN).log_in(PIN)
    assert isinstance(other, str)
    client.cookies.set(STAFF_COOKIE, other)
    assert change(client, "/api/actions", {"action": "undo"}).status_code == 401


def test_logging_out_ends_the_staff_tools(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    answer = change(client, "/staff/logout", {})
    assert answer.status_code == 200 and answer.json() == {"staff": False}
    assert STAFF_COOKIE not in client.cookies
    assert change(client, "/api/actions", {"action": "undo"}).status_code == 401


def test_without_a_usable_pin_the_staff_tools_are_off(desk: Desk) -> None:
    with served(desk, StaffGate(None)) as client:
        assert log_in(client).status_code == 403
        answer = change(client, "/api/actions", {"action": "undo"})
        assert answer.status_code == 403
        assert error_of(answer) == "staff tools are off: this table has no staff PIN"
    assert desk.submitted == []


# In French


def test_a_table_in_french_refuses_in_french(tmp_path: Path) -> None:
    with setting_up_desk(tmp_path / "journal.sqlite") as desk, served(desk) as client:
        desk.press(Action.NEXT)  # the language step: French
        assert client.get("/api/state").json()["language"] == "fr"
        change(client, "/api/setup", {"ruleset": "classic"})
        for colour in ("red", "blue", "green"):
            desk.press(Action.PICK, KIT_COLOURS.index(colour))
        answer = change(client, "/api/setup", {"names": {"red": "Ann", "blue": "Ann"}})
        assert answer.status_code == 409
        words = phrase("{name} is already the name of another seat", name="Ann")
        assert error_of(answer) == french(words) == "Ann est déjà le nom d'une autre place"


def test_a_game_in_french_refuses_a_correction_in_the_rules_french(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with playing_desk(path, 1, language=Language.FRENCH) as desk, served(desk) as client:
        refused = change(client, f"/api/games/{desk.game_id}/rounds/1", ILLEGAL)
        assert refused.status_code == 401
        assert error_of(refused) == french(phrase("staff PIN needed"))
        staff_client(client)
        answer = change(client, f"/api/games/{desk.game_id}/rounds/1", ILLEGAL)
        assert answer.status_code == 422
        assert error_of(answer).startswith("manche 1\u00a0: Ben n'a pas posé de carte")
        unknown = change(client, "/api/actions", {"action": "dance"})
        words = phrase(
            "the action must be one of: {actions}", actions="confirm, undo, next, abandon"
        )
        assert error_of(unknown) == french(words)
        page = client.get("/games/99")
        assert_page(page, 404)
        assert '<html lang="fr">' in page.text


# A year of service: damaged and pruned pictures, archived games


def spoil_frame(path: Path, game_id: int, number: int) -> None:
    """Change a kept frame's bytes behind the journal's back, its checksum left as it was."""
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE round_images SET frame = ? WHERE game_id = ? AND number = ?",
        (JPEG[::-1], game_id, number),
    )
    conn.commit()
    conn.close()


@pytest.fixture
def year(tmp_path: Path) -> Path:
    """A journal of its own: a finished classic game with its pictures moved into the
    archive, a finished odyssey game whose pictures were pruned, and a party game
    being played."""
    path = tmp_path / "year" / "journal.sqlite"
    long_ago = datetime(2020, 3, 14, 20, 0, tzinfo=UTC)
    with Journal(path, clock=lambda: long_ago) as journal:
        play_into(journal, example("classic-1e-4-players"))
    with Journal(path, clock=lambda: long_ago + timedelta(days=7)) as journal:
        play_into(journal, example("odyssey-8-players"))
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        play_into(journal, example("party-1e-7-players"), 2)
        assert archive_games(journal, archive, long_ago + timedelta(days=1)) == 1
        assert journal.prune_pictures(long_ago + timedelta(days=8)) == 2
    return path


def test_a_damaged_picture_is_never_served_and_its_page_says_so(
    desk: Desk, client: TestClient
) -> None:
    spoil_frame(desk.path, desk.game_id, 1)
    answer = client.get(f"/api/games/{desk.game_id}/rounds/1/frame.jpg")
    assert answer.status_code == 404
    assert error_of(answer) == "round 1's picture is damaged"
    assert JPEG[::-1] not in answer.content
    overlay = client.get(f"/api/games/{desk.game_id}/rounds/1/overlay.jpg")
    assert (overlay.status_code, overlay.content) == (200, PNG)
    page = client.get(f"/games/{desk.game_id}")
    assert_page(page)
    assert "picture damaged" in page.text
    assert f"/api/games/{desk.game_id}/rounds/1/frame.jpg" not in page.text
    first = client.get(f"/api/games/{desk.game_id}").json()["rounds"][0]
    assert (first["frame"], first["damaged_pictures"]) == (None, ["frame"])
    assert first["overlay"] == f"/api/games/{desk.game_id}/rounds/1/overlay.jpg"


def test_archived_games_are_listed_and_open_like_the_others(
    desk: Desk, year: Path, tmp_path: Path
) -> None:
    with served(desk, journal=year) as client:
        games = client.get("/api/games").json()["games"]
        assert [(g["id"], g["archived"]) for g in games] == [(3, False), (2, False), (1, True)]
        listing = client.get("/games")
        assert_page(listing)
        assert listing.text.count("data-archived") == 1
        page = client.get("/games/1")
        assert_page(page)
        assert "data-archived" in page.text
        frame = client.get("/api/games/1/rounds/2/frame.jpg")
        assert (frame.status_code, frame.content) == (200, frame_of(2))
        exported = client.get("/api/games/1/export")
        assert exported.status_code == 200
        assert dict(parse_game(exported.text).play().totals) == dict(
            example("classic-1e-4-players").play().totals
        )
        staff = staff_client(client)
        assert 'class="correction"' in staff.get("/games/3").text
        assert 'class="correction"' not in staff.get("/games/1").text  # not the table's to change


def test_a_pruned_rounds_pictures_are_gone_and_its_page_says_so(desk: Desk, year: Path) -> None:
    with served(desk, journal=year) as client:
        answer = client.get("/api/games/2/rounds/1/frame.jpg")
        assert answer.status_code == 410
        assert error_of(answer) == "round 1's pictures are no longer kept"
        page = client.get("/games/2")
        assert_page(page)
        assert page.text.count("pictures no longer kept") == 9
        first = client.get("/api/games/2").json()["rounds"][0]
        assert (first["frame"], first["pictures_pruned"]) == (None, True)


def test_an_archive_made_while_the_server_runs_is_read_at_once(desk: Desk, tmp_path: Path) -> None:
    path = tmp_path / "later" / "journal.sqlite"
    long_ago = datetime(2020, 3, 14, 20, 0, tzinfo=UTC)
    with Journal(path, clock=lambda: long_ago) as journal:
        play_into(journal, example("classic-1e-4-players"))
        play_into(journal, example("odyssey-8-players"), 1)
    with served(desk, journal=path) as client:
        assert [g["archived"] for g in client.get("/api/games").json()["games"]] == [False] * 2
        with Journal(path) as journal, Journal(archive_path(path)) as archive:
            assert archive_games(journal, archive, datetime.now(UTC)) == 1
        games = client.get("/api/games").json()["games"]
        assert [(g["id"], g["archived"]) for g in games] == [(2, False), (1, True)]
        assert client.get("/games/1").status_code == 200
