"""A stranger on the café's Wi-Fi cannot take the page down: half-sent requests are
cut off, connections are capped (in all and per address), and guessing the PIN
slows only the guesser, across restarts. Through the real server (uvicorn on its
thread, real sockets) over a real session and journal.

Each failed before its fix: 310 half-sent requests held every place for good (every
new phone got 503), and a phone posting `{}` five times a second locked the staff
out of their own PIN until the next restart, which then forgot it all.
"""

import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.web.address import Listen
from companion.web.connections import MAX_CONNECTIONS, MAX_PER_ADDRESS
from companion.web.server import Listener, WebServer
from companion.web.staff import CSRF_COOKIE, CSRF_HEADER, STAFF_COOKIE
from companion.web.throttle import FREE_TRIES, TRIES_FILE
from tests.session.observations import table_of
from tests.web.desk import LINEUP, PIN, SLOTS, Desk, playing_desk, round_of
from tests.web.flood import (
    HALF_REQUEST,
    Flood,
    csrf_of,
    phone,
    room_for_sockets,
    served_soon,
)

STRANGERS = tuple(f"127.0.0.{n}" for n in range(2, 12))
"""Ten addresses a stranger floods from (the staff and players are at 127.0.0.1)."""


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    with playing_desk(tmp_path / "journal.sqlite", 1) as desk:
        yield desk


@contextmanager
def serving(desk: Desk) -> Iterator[WebServer]:
    """The page of `desk` served on a port of its own, as a companion starting does."""
    with Listener(Listen("127.0.0.1", 0)) as listener:
        server = WebServer(listener, desk, desk.path, PIN, SLOTS)
        server.start()
        try:
            yield server
        finally:
            server.close()


@pytest.fixture
def server(desk: Desk) -> Iterator[WebServer]:
    with serving(desk) as server:
        yield server


# Half-sent requests and idle connections


def test_half_sent_requests_are_cut_off_and_phones_are_served_again(server: WebServer) -> None:
    room_for_sockets(400)
    with Flood(server.port) as flood:
        flood.open(310, STRANGERS, HALF_REQUEST)
        served_soon(server.port)
        answers = flood.answers()  # every one closed by the server, none by the stranger
    cut_off = [a for a in answers if a.startswith(b"HTTP/1.1 408")]
    turned_away = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
    assert len(cut_off) + len(turned_away) + answers.count(b"") == 310
    assert 0 < len(cut_off) <= MAX_CONNECTIONS
    assert server.doors.cut_off == len(cut_off)
    assert sum(server.doors.open.values()) == 0


def test_when_every_place_is_taken_a_phone_pushes_out_the_connection_waiting_longest(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("companion.web.connections.REQUEST_SECONDS", 600.0)  # no cutting off
    room_for_sockets(400)
    with (
        serving(desk) as server,
        phone(server.port) as follower,
        follower.stream("GET", "/events") as following,
        Flood(server.port) as flood,
    ):
        lines = following.iter_lines()
        assert next(line for line in lines if line.startswith("data: "))
        flood.open(MAX_CONNECTIONS, STRANGERS, HALF_REQUEST)
        assert served_soon(server.port).status_code == 200
        assert server.doors.pushed_out >= 2 and server.doors.cut_off == 0
        assert sum(server.doors.open.values()) <= MAX_CONNECTIONS
        desk.see(table_of(round_of(2), LINEUP))  # the stream, being served, stayed
        assert any(line.startswith("data: ") for line in lines)
        flood.close()


def test_idle_connections_are_capped_per_address_and_cut_off(server: WebServer) -> None:
    room_for_sockets(200)
    with Flood(server.port) as flood:
        flood.open(MAX_PER_ADDRESS + 52, ("127.0.0.2",))
        assert served_soon(server.port).status_code == 200, "another phone is served at once"
        answers = flood.answers()
    assert sum(a.startswith(b"HTTP/1.1 408") for a in answers) == MAX_PER_ADDRESS
    assert server.doors.turned_away >= 52


def test_a_request_that_arrives_in_time_is_served_on_a_connection_kept_alive(
    server: WebServer,
) -> None:
    with phone(server.port) as client:
        for _ in range(3):
            assert client.get("/api/state").status_code == 200
    assert server.doors.cut_off == 0 and server.doors.turned_away == 0


def test_a_body_sent_too_slowly_is_cut_off(server: WebServer) -> None:
    with phone(server.port) as client:
        token = csrf_of(client)[CSRF_HEADER]
    head = (
        "POST /staff/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: 100\r\n{CSRF_HEADER}: {token}\r\nCookie: {CSRF_COOKIE}={token}\r\n"
        '\r\n{"pin": '
    )
    with Flood(server.port) as flood:
        flood.open(1, ("127.0.0.2",), head.encode())
        (answer,) = flood.answers()
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert server.doors.cut_off == 1


# Guessing the PIN


def test_a_phone_guessing_the_pin_never_locks_the_staff_out_even_after_a_restart(
    desk: Desk, caplog: pytest.LogCaptureFixture
) -> None:
    tries = desk.path.with_name(TRIES_FILE)
    with serving(desk) as server:
        with phone(server.port, "127.0.0.2") as guesser:
            csrf = csrf_of(guesser)
            statuses = []
            for n in range(60):
                body = {} if n % 2 else {"pin": f"{n:06d}"}
                statuses.append(guesser.post("/staff/login", json=body, headers=csrf).status_code)
        assert statuses[1::2] == [400] * 30, "a body without a PIN is malformed, never a guess"
        guesses = statuses[0::2]
        assert guesses[:FREE_TRIES] == [401] * FREE_TRIES
        assert set(guesses) == {401, 429}, "slowed (30 guesses not slowed would take an hour)"
        with phone(server.port) as staff:
            answer = staff.post("/staff/login", json={"pin": PIN}, headers=csrf_of(staff))
            assert answer.status_code == 200, answer.text
            assert STAFF_COOKIE in staff.cookies
    kept = json.loads(tries.read_text())["clients"]
    assert kept["address 127.0.0.2"][0] == guesses.count(401)
    kept["address 127.0.0.2"] = [FREE_TRIES + 20, time.time()]  # as after an hour of guessing
    tries.write_text(json.dumps({"clients": kept}))
    with serving(desk) as server:  # the companion restarted
        with phone(server.port, "127.0.0.2") as guesser:
            answer = guesser.post("/staff/login", json={"pin": PIN}, headers=csrf_of(guesser))
            assert answer.status_code == 429, "the guesser still waits, even with the PIN"
            assert 0 < int(answer.headers["retry-after"]) <= 60
        with phone(server.port, "127.0.0.3") as staff:
            answer = staff.post("/staff/login", json={"pin": PIN}, headers=csrf_of(staff))
            assert answer.status_code == 200, answer.text
    tries.write_text("{ damaged")
    with (
        caplog.at_level(logging.WARNING, "companion.web.throttle"),
        serving(desk) as server,
        phone(server.port, "127.0.0.2") as guesser,
    ):
        answer = guesser.post("/staff/login", json={"pin": PIN}, headers=csrf_of(guesser))
        assert answer.status_code == 200, "a damaged file is read as no counts"
    assert any("damaged or unreadable" in r.getMessage() for r in caplog.records)
