"""The phone page's real server: uvicorn on its thread, real sockets, the live stream;
and where it listens and the address it shows."""

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from companion.errors import SettingError, WebAddressError
from companion.web.address import (
    DEFAULT_PORT,
    LOOKUP_SECONDS,
    Listen,
    PageAddress,
    lan_address,
    page_url,
    parse_listen,
)
from companion.web.server import STOP_SECONDS, Listener, WebServer
from companion.web.staff import CSRF_COOKIE, CSRF_HEADER
from tests.session.observations import table_of
from tests.web.desk import LINEUP, PIN, SLOTS, Desk, playing_desk, round_of

WAIT_SECONDS = 60.0
"""The longest wait for an answer or for the next event of the live stream (updates
come every quarter second): a bound on a failure, generous for a loaded machine."""


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    with playing_desk(tmp_path / "journal.sqlite", 1) as desk:
        yield desk


@pytest.fixture
def server(desk: Desk) -> Iterator[WebServer]:
    with Listener(Listen("127.0.0.1", 0)) as listener:
        server = WebServer(listener, desk, desk.path, PIN, SLOTS)
        server.start()
        try:
            yield server
        finally:
            server.close()


@pytest.fixture
def http(server: WebServer) -> Iterator[httpx.Client]:
    base = f"http://127.0.0.1:{server.port}"
    with httpx.Client(base_url=base, timeout=WAIT_SECONDS) as client:
        yield client


def events(answer: httpx.Response) -> Iterator[dict[str, Any]]:
    """The live stream's events, each its JSON; keep-alive comments are skipped, though
    not for longer than `WAIT_SECONDS` after the next event was asked for."""
    deadline = time.monotonic() + WAIT_SECONDS
    for line in answer.iter_lines():
        if line.startswith("data: "):
            yield json.loads(line.removeprefix("data: "))
            deadline = time.monotonic() + WAIT_SECONDS
        elif time.monotonic() > deadline:
            raise AssertionError(f"no event within {WAIT_SECONDS:.0f} s, only keep-alives")


def test_the_server_answers_on_a_real_socket(desk: Desk, http: httpx.Client) -> None:
    answer = http.get("/api/state")
    assert answer.status_code == 200
    state = answer.json()
    assert state["version"] == desk.snapshot().version
    assert state["totals"] == {"Ann": 3, "Ben": 4, "Cleo": 0, "Dan": 3}
    assert "server" not in answer.headers


def test_the_live_stream_sends_the_state_now_then_each_change(
    desk: Desk, http: httpx.Client
) -> None:
    with http.stream("GET", "/events") as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        stream = events(answer)
        first = next(stream)
        assert first["version"] == desk.snapshot().version == first["state"]["version"]
        assert first["state"]["phase"] == "waiting"
        assert "Ann" in first["html"]
        desk.see(table_of(round_of(2), LINEUP))
        second = next(stream)
        assert second["version"] == desk.snapshot().version == first["version"] + 1
        assert second["state"]["phase"] == "proposal"
        assert second["state"]["proposal"]["round"] == 2


def test_a_phone_that_stops_following_makes_room_for_another(
    http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("companion.web.live.MAX_FOLLOWERS", 1)
    with http.stream("GET", "/events") as following:
        stream = events(following)  # kept: a generator dropped would close the stream
        next(stream)
        refused = http.get("/events")
        assert refused.status_code == 503
        assert refused.json() == {"error": "too many phones follow this table: try again soon"}
    deadline = time.monotonic() + WAIT_SECONDS
    while True:  # the server hears of the closed stream at its own pace
        with http.stream("GET", "/events") as again:
            if again.status_code == 200:
                assert next(events(again))["version"] >= 0
                break
        assert time.monotonic() < deadline, "the stream that ended still counts"


def test_a_change_through_the_server_reaches_the_table(desk: Desk, http: httpx.Client) -> None:
    http.get("/")
    token = http.cookies[CSRF_COOKIE]
    assert http.post("/staff/login", json={"pin": PIN}, headers={CSRF_HEADER: token}).is_success
    answer = http.post("/api/actions", json={"action": "undo"}, headers={CSRF_HEADER: token})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"version": desk.snapshot().version}
    assert desk.snapshot().state.game.played == ()


def test_closing_the_server_ends_the_open_streams(desk: Desk, server: WebServer) -> None:
    url = f"http://127.0.0.1:{server.port}/events"
    with httpx.stream("GET", url, timeout=STOP_SECONDS + WAIT_SECONDS) as answer:
        stream = events(answer)
        next(stream)
        closing = threading.Thread(target=server.close)
        closing.start()
        with pytest.raises((StopIteration, httpx.RemoteProtocolError, httpx.ReadError)):
            while True:
                next(stream)
        closing.join(STOP_SECONDS + WAIT_SECONDS)
        assert not closing.is_alive(), "closing ends, streams open or not"
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{server.port}/api/state", timeout=WAIT_SECONDS)


def test_a_port_in_use_is_an_error_naming_it() -> None:
    with Listener(Listen("127.0.0.1", 0)) as first:
        port = first.address.port
        with pytest.raises(WebAddressError, match=re.escape(f"127.0.0.1 port {port}")):
            Listener(Listen("127.0.0.1", port))


def test_an_address_the_machine_does_not_have_is_an_error_naming_it() -> None:
    with pytest.raises(WebAddressError, match=re.escape("192.0.2.1 port 8080")):
        Listener(Listen("192.0.2.1", 8080))


def test_closing_twice_is_safe(desk: Desk) -> None:
    listener = Listener(Listen("127.0.0.1", 0))
    server = WebServer(listener, desk, desk.path, PIN, SLOTS)
    server.start()
    server.close()
    server.close()
    listener.close()
    listener.close()
    never_started = WebServer(Listener(Listen("127.0.0.1", 0)), desk, desk.path, None, SLOTS)
    never_started.close()
    never_started.close()
    never_started.listener.close()


def test_the_listener_takes_the_port_the_system_chose() -> None:
    with Listener(Listen("127.0.0.1", 0)) as listener:
        port = listener.socket.getsockname()[1]
        assert listener.address.port == port > 0
        assert listener.address() == f"http://127.0.0.1:{port}/"


# Where it listens


@pytest.mark.parametrize(
    ("text", "listen"),
    [
        ("127.0.0.1:8081", Listen("127.0.0.1", 8081)),
        ("0.0.0.0", Listen("0.0.0.0", DEFAULT_PORT)),
        (":9000", Listen("0.0.0.0", 9000)),
        ("192.168.1.23:0", Listen("192.168.1.23", 0)),
        (" 10.0.0.2:65535 ", Listen("10.0.0.2", 65535)),
        ("localhost:8080", Listen("127.0.0.1", 8080)),
        ("localhost", Listen("127.0.0.1", DEFAULT_PORT)),
        ("[::1]:8080", Listen("::1", 8080)),
        ("[::]", Listen("::", DEFAULT_PORT)),
        ("::", Listen("::", DEFAULT_PORT)),
        ("fe80::1", Listen("fe80::1", DEFAULT_PORT)),
    ],
)
def test_the_forms_of_a_listening_address(text: str, listen: Listen) -> None:
    assert parse_listen(text) == listen


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("example.com:80", "give an IP address"),
        ("example.com", "give an IP address"),
        ("raspberrypi.local:8080", "give an IP address"),
        ("127.0.0.1:65536", "the port must be a number from 0 to 65535"),
        ("127.0.0.1:http", "the port must be a number from 0 to 65535"),
        ("127.0.0.1:-1", "the port must be a number from 0 to 65535"),
        ("127.0.0.1:\u0668\u0660", "the port must be a number from 0 to 65535"),
        ("127.0.0.1:000008080", "the port must be a number from 0 to 65535"),
        ("[::1]:99999", "the port must be a number from 0 to 65535"),
        ("256.0.0.1:80", "give an IP address"),
    ],
)
def test_an_address_that_is_not_one_is_refused_naming_what_was_given(text: str, words: str) -> None:
    with pytest.raises(SettingError) as refused:
        parse_listen(text)
    assert words in str(refused.value)
    assert f"--web {text.strip()}" in str(refused.value)


def test_the_wildcards_listen_everywhere() -> None:
    assert Listen("0.0.0.0", 80).wildcard and Listen("::", 80).wildcard
    assert not Listen("127.0.0.1", 80).wildcard


# The address shown


def test_the_pages_address_puts_an_ipv6_host_in_brackets() -> None:
    assert page_url("192.168.1.23", 8080) == "http://192.168.1.23:8080/"
    assert page_url("fe80::1", 8080) == "http://[fe80::1]:8080/"


class Network:
    """The LAN address as the machine would find it, and how often it was asked."""

    def __init__(self) -> None:
        self.address: str | None = None
        self.asked = 0
        self.now = 100.0

    def find(self) -> str | None:
        self.asked += 1
        return self.address

    def clock(self) -> float:
        return self.now


def test_the_address_is_none_without_a_network_and_found_again_later() -> None:
    network = Network()
    address = PageAddress(Listen("0.0.0.0", 0), 8080, find_lan=network.find, clock=network.clock)
    assert address() is None
    assert network.asked == 1
    network.address = "192.168.1.23"
    network.now += LOOKUP_SECONDS / 2
    assert address() is None, "looked up again only now and then"
    assert network.asked == 1
    network.now += LOOKUP_SECONDS / 2
    assert address() == "http://192.168.1.23:8080/"
    assert network.asked == 2
    network.address = None
    network.now += LOOKUP_SECONDS
    assert address() is None


def test_an_address_listened_on_is_shown_as_it_is_without_looking() -> None:
    network = Network()
    address = PageAddress(Listen("10.0.0.5", 0), 8123, find_lan=network.find, clock=network.clock)
    assert address() == "http://10.0.0.5:8123/"
    assert network.asked == 0


def test_the_lan_address_is_none_when_the_machine_has_no_route(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class NoRoute(socket.socket):
        def connect(self, address: object) -> None:
            raise OSError(101, "Network is unreachable")

    monkeypatch.setattr("companion.web.address.socket.socket", NoRoute)
    assert lan_address() is None


def test_the_lan_address_is_never_the_loopback() -> None:
    found = lan_address()
    assert found is None or not found.startswith("127.")
