"""Hostile requests against the phone page: random paths, methods, bodies, headers and
cookies never make it fail (no 5xx), never change the game without the staff PIN,
and never send a file of the machine; wrong PINs by the hundred never let anyone in."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import httpx
import pytest
from hypothesis import HealthCheck, event, given, reject, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from companion.gamefile import parse_game
from companion.session.states import Snapshot
from companion.web.staff import CSRF_COOKIE, CSRF_HEADER, STAFF_COOKIE, StaffGate
from companion.web.throttle import MAX_WAIT_SECONDS
from tests.web.desk import PIN, Desk, csrf_token, log_in, playing_desk, served, setting_up_desk

FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SECRET = "next-to-the-journal: 7f3a9c1e-not-for-phones"
"""The text of a file placed beside the journal: no answer may hold it."""
SOURCE = "class Refused(CompanionError, ValueError):"
"""A line of the server's own code."""
METHODS = ["GET"] * 4 + ["POST"] * 4 + ["HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"]
"""Methods, the routes' own the most often."""
ROUTES = [
    "/",
    "/games",
    "/games/{game}",
    "/setup",
    "/staff",
    "/static/{name}",
    "/api/state",
    "/api/games",
    "/api/games/{game}",
    "/api/games/{game}/export",
    "/api/games/{game}/export.csv",
    "/api/games/{game}/export.zip",
    "/api/games/{game}/rounds/{number}/{name}",
    "/api/games/{game}/rounds/{number}",
    "/staff/login",
    "/staff/logout",
    "/api/setup",
    "/api/actions",
]
"""Every route but the live stream, which never ends by itself."""
TRICKS = [
    "..",
    "%2e%2e",
    "%2E%2E%2F",
    "..%2f..%2f..%2fetc%2fpasswd",
    "%00",
    "journal.sqlite",
    "%2fetc%2fpasswd",
    "page.css%00.js",
    "~",
    "1e3",
    "0x1",
    "\uff10",
    "\u0661",
    "-1",
    "01",
    "9" * 10,
    "9" * 400,
    "frame.jpg",
    "overlay.jpg",
    "frame.png",
    "page.js",
    "page.css",
]
"""Path parts an attacker would try."""
FORBIDDEN = ("SQLite format 3", SECRET, SOURCE)


def passwd_line() -> str:
    try:
        return Path("/etc/passwd").read_text().splitlines()[0]
    except (OSError, IndexError):
        return "root:x:0:0:"


def path_part() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(TRICKS),
        st.integers(-(10**12), 10**12).map(str),
        st.text(max_size=30).map(lambda t: quote(t, safe="%./~")),
        st.text(st.characters(codec="ascii"), max_size=12),
        st.just("a" * 5000),
    )


@st.composite
def paths(draw: st.DrawFn) -> str:
    """A route with strange parts, or a path of random parts."""
    if draw(st.booleans()):
        template = draw(st.sampled_from(ROUTES))
        path = template.format(
            game=draw(st.one_of(st.just("1"), path_part())),
            number=draw(st.one_of(st.just("1"), path_part())),
            name=draw(st.one_of(st.sampled_from(TRICKS), path_part())),
        )
    else:
        path = "/" + "/".join(draw(st.lists(path_part(), max_size=6))).lstrip("/")
        # "//name" would be a URL of another host, not a path
    query = draw(st.one_of(st.just(""), st.text(max_size=40).map(lambda t: "?" + quote(t))))
    return quote(path, safe="/%.~-_:@!$&'()*+,;=") + query


def json_values() -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.integers(10**30, 10**40),
        st.floats(allow_nan=False),
        st.text(max_size=20),
        st.sampled_from(["Ann", "Ben", "undo", "confirm", "abandon", "classic", "red"]),
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=5),
            st.dictionaries(
                st.one_of(
                    st.sampled_from(
                        ["cards", "votes", "trap", "pin", "action", "ruleset", "options", "names"]
                    ),
                    st.text(max_size=8),
                ),
                inner,
                max_size=5,
            ),
        ),
        max_leaves=20,
    )


def bodies() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.just(b""),
        st.binary(max_size=300),
        json_values().map(lambda v: json.dumps(v).encode()),
        st.integers(1, 20_000).map(lambda n: b"[" * n + b"]" * n),
        st.integers(1, 8_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
        st.integers(300, 6000).map(lambda n: b'{"action": 1' + b"0" * n + b"}"),
        st.integers(300, 6000).map(
            lambda n: b'{"cards": {"1' + b"0" * n + b'": "Ann"}, "votes": {}}'
        ),
        st.sampled_from([b"NaN", b'{"pin": NaN}', b'{"pin": "1", "pin": "2"}', b"\xff\xfe{}"]),
    )


def header_text() -> st.SearchStrategy[str]:
    return st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=300)


@st.composite
def headers(draw: st.DrawFn, token: str) -> dict[str, str]:
    """Headers and cookies as a hostile phone sends them: the page's CSRF token or
    another, staff tickets made up, a content type and length that may lie."""
    sent: dict[str, str] = {}
    content_type = draw(
        st.one_of(
            st.none(),
            st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain"]),
            header_text(),
        )
    )
    if content_type is not None:
        sent["content-type"] = content_type
    csrf = draw(st.one_of(st.none(), st.just(token), header_text()))
    if csrf is not None:
        sent[CSRF_HEADER] = csrf
    cookies = []
    cookie_csrf = draw(st.one_of(st.none(), st.just(token), header_text()))
    if cookie_csrf is not None:
        cookies.append(f"{CSRF_COOKIE}={cookie_csrf}")
    staff = draw(
        st.one_of(
            st.none(),
            header_text(),
            st.builds(
                lambda issued, nonce, mac: f"{issued}.{nonce}.{mac}",
                st.integers(0, 10**13),
                st.text(st.characters(codec="ascii", categories=["L", "N"]), max_size=30),
                st.text(st.sampled_from("0123456789abcdef"), min_size=64, max_size=64),
            ),
        )
    )
    if staff is not None:
        cookies.append(f"{STAFF_COOKIE}={staff}")
    if cookies or draw(st.booleans()):
        cookies += draw(st.lists(header_text(), max_size=3))
        sent["cookie"] = "; ".join(cookies)
    length = draw(st.sampled_from([None] * 8 + ["-1", "0", "65537", "9" * 20, "1e3", " 12"]))
    if length is not None:
        sent["content-length"] = length
    if draw(st.integers(0, 9)) == 0:
        sent["host"] = draw(st.one_of(header_text(), st.just("evil.example")))
    return sent


class Watch:
    """What must never change, and what must never be sent."""

    def __init__(self, desk: Desk, client: TestClient, secret_folder: Path) -> None:
        self.desk = desk
        self.client = client
        self.token = csrf_token(client)
        self.snapshot: Snapshot = desk.snapshot()
        self.export = desk.export(desk.game_id) if desk.snapshot().state.game_id else ""
        (secret_folder / "secret.txt").write_text(SECRET)
        self.forbidden = [s.encode() for s in (*FORBIDDEN, passwd_line())]
        self.ticket: str | None = None
        """The staff ticket sent with `changes`, once logged in."""

    def changes(self) -> dict[str, str]:
        """The headers of a change the page's script sends: JSON, the page's token."""
        cookie = f"{CSRF_COOKIE}={self.token}"
        if self.ticket is not None:
            cookie += f"; {STAFF_COOKIE}={self.ticket}"
        return {CSRF_HEADER: self.token, "cookie": cookie, "content-type": "application/json"}

    def send(self, method: str, path: str, body: bytes, sent: dict[str, str]) -> httpx.Response:
        self.client.cookies.clear()
        try:
            return self.client.request(
                method, path, content=body, headers=sent, follow_redirects=False
            )
        except httpx.InvalidURL:
            reject()

    def check(self, answer: httpx.Response) -> None:
        assert answer.status_code < 500, (answer.status_code, answer.text[:300])
        for secret in self.forbidden:
            assert secret not in answer.content, f"an answer holds {secret[:30]!r}"

    def unchanged(self) -> None:
        desk = self.desk
        assert desk.submitted == [], "a command reached the table without the PIN"
        assert desk.snapshot() == self.snapshot
        if self.export:
            assert desk.export(desk.game_id) == self.export


@pytest.fixture(scope="module")
def watch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watch]:
    """A game of three rounds served to strangers (no PIN)."""
    folder = tmp_path_factory.mktemp("fuzz")
    with playing_desk(folder / "journal.sqlite", 3) as desk, served(desk) as client:
        yield Watch(desk, client, folder)


def not_the_stream(path: str) -> bool:
    return "events" not in unquote(path).lower()


@settings(FUZZ, max_examples=150)
@given(
    method=st.sampled_from(METHODS),
    path=paths().filter(not_the_stream),
    body=bodies(),
    data=st.data(),
)
def test_a_hostile_request_never_fails_never_changes_the_game_and_never_sends_a_file(
    watch: Watch, method: str, path: str, body: bytes, data: st.DataObject
) -> None:
    sent = data.draw(headers(watch.token))
    answer = watch.send(method, path, body, sent)
    event(f"status {answer.status_code}")
    watch.check(answer)
    watch.unchanged()


@FUZZ
@given(
    route=st.sampled_from(
        ["/api/actions", "/api/setup", "/api/games/1/rounds/1", "/api/games/1/rounds/3"]
    ),
    body=bodies(),
)
def test_a_change_with_the_pages_token_but_no_pin_changes_nothing(
    watch: Watch, route: str, body: bytes
) -> None:
    answer = watch.send("POST", route, body, watch.changes())
    watch.check(answer)
    assert answer.status_code in (401, 413), answer.text
    watch.unchanged()


@FUZZ
@given(body=bodies())
def test_a_pin_typed_in_any_shape_but_the_pins_logs_nobody_in(watch: Watch, body: bytes) -> None:
    answer = watch.send("POST", "/staff/login", body, watch.changes())
    watch.check(answer)
    assert answer.status_code in (400, 401, 413, 422, 429), answer.text
    assert STAFF_COOKIE not in answer.headers.get("set-cookie", "")
    watch.unchanged()


@pytest.fixture(scope="module")
def setting_up(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watch]:
    """A table setting up a game, where any phone may change the setup."""
    folder = tmp_path_factory.mktemp("setup")
    with setting_up_desk(folder / "journal.sqlite") as desk, served(desk) as client:
        yield Watch(desk, client, folder)


@FUZZ
@given(body=st.one_of(bodies(), json_values().map(lambda v: json.dumps({"names": v}).encode())))
def test_a_setup_in_any_shape_is_answered_in_words(setting_up: Watch, body: bytes) -> None:
    answer = setting_up.send("POST", "/api/setup", body, setting_up.changes())
    setting_up.check(answer)
    assert answer.status_code in (200, 400, 409, 413, 422), answer.text
    if answer.status_code != 200:
        assert answer.json()["error"]
    assert setting_up.client.get("/api/state").status_code == 200


@pytest.fixture(scope="module")
def staff(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watch]:
    """A game of two rounds, its page logged in as staff."""
    folder = tmp_path_factory.mktemp("staff")
    with playing_desk(folder / "journal.sqlite", 2) as desk, served(desk) as client:
        watch = Watch(desk, client, folder)
        assert log_in(client).status_code == 200
        watch.ticket = client.cookies[STAFF_COOKIE]
        yield watch


@FUZZ
@given(
    number=st.sampled_from(["1", "2", "3"]),
    body=st.one_of(
        bodies(),
        st.fixed_dictionaries(
            {
                "cards": st.dictionaries(
                    st.integers(-2, 14).map(str),
                    st.sampled_from(["Ann", "Ben", "Cleo", "Dan", "Zed", ""]),
                    max_size=6,
                ),
                "votes": st.dictionaries(
                    st.sampled_from(["Ann", "Ben", "Cleo", "Dan", "Zed"]),
                    st.lists(st.integers(-2, 14), max_size=3),
                    max_size=4,
                ),
            }
        ).map(lambda d: json.dumps(d).encode()),
    ),
)
def test_a_correction_in_any_shape_with_the_pin_is_rescored_or_refused_in_words(
    staff: Watch, number: str, body: bytes
) -> None:
    before = staff.desk.export(staff.desk.game_id)
    path = f"/api/games/{staff.desk.game_id}/rounds/{number}"
    answer = staff.send("POST", path, body, staff.changes())
    staff.check(answer)
    assert answer.status_code in (200, 400, 409, 413, 422), answer.text
    if answer.status_code != 200:
        assert answer.json()["error"]
        assert staff.desk.export(staff.desk.game_id) == before
    kept = parse_game(staff.desk.export(staff.desk.game_id), stored=True).play()
    assert staff.client.get("/api/state").json()["totals"] == dict(kept.totals)


class Clock:
    """The gate's monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 5_000.0

    def __call__(self) -> float:
        return self.now


def wrong_pins(count: int) -> Iterator[str]:
    """Wrong PINs as a guesser tries them: every number in turn, near misses, other
    scripts' digits."""
    near = [
        "246811",
        "24681",
        "2468100",
        "246810 ",
        " 246810",
        "\uff12\uff14\uff16\uff18\uff11\uff10",
        "246810\x00",
        "",
    ]
    for at in range(count):
        yield near[at] if at < len(near) else f"{at:06d}"


def test_wrong_pins_by_the_hundred_let_nobody_in_and_the_right_one_waits(tmp_path: Path) -> None:
    clock = Clock()
    with playing_desk(tmp_path / "journal.sqlite") as desk:
        with served(desk, StaffGate(PIN, clock=clock)) as client:
            token = csrf_token(client)
            headers = {CSRF_HEADER: token}
            statuses = set()
            for pin in wrong_pins(300):
                answer = client.post("/staff/login", json={"pin": pin}, headers=headers)
                statuses.add(answer.status_code)
                assert answer.status_code in (400, 401, 429), answer.text  # 400: no PIN
                assert STAFF_COOKIE not in client.cookies
                if answer.status_code == 429:  # come back when told, and be refused again
                    clock.now += float(answer.headers["retry-after"])
                    again = client.post("/staff/login", json={"pin": pin}, headers=headers)
                    assert again.status_code == 401, again.text
            assert statuses == {400, 401, 429}
            slowed = client.post("/staff/login", json={"pin": PIN}, headers=headers)
            assert slowed.status_code == 429
            assert float(slowed.headers["retry-after"]) == MAX_WAIT_SECONDS
            assert STAFF_COOKIE not in client.cookies
            clock.now += MAX_WAIT_SECONDS
            assert log_in(client).status_code == 200
            assert STAFF_COOKIE in client.cookies
        assert desk.submitted == []
