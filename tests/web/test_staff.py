"""The staff gate: the PIN earns a signed ticket that expires, wrong PINs are slowed
down for the phone that types them (and stay counted across a restart), a change
needs the page's CSRF token, and nothing a request sends (however malformed) raises
or passes for staff."""

import json
import logging
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.service_options import PLACEHOLDER_PIN
from companion.web.staff import (
    FREE_TRIES,
    MAX_TOKEN_CHARS,
    TICKET_SECONDS,
    Refusal,
    StaffGate,
)
from companion.web.throttle import MAX_CLIENTS, MAX_WAIT_SECONDS, TRIES_FILE

PIN = "482913"
SECRET = b"s" * 32


class Clock:
    """A clock that moves only when told."""

    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def gate(
    pin: str | None = PIN, *, secret: bytes = SECRET, tries: Path | None = None
) -> tuple[StaffGate, Clock, Clock]:
    """A gate with the clock of its waits and the wall clock of its tickets."""
    clock, wall = Clock(), Clock(1_700_000_000.0)
    return StaffGate(pin, secret=secret, clock=clock, wall=wall, tries=tries), clock, wall


def ticket_of(staff: StaffGate, typed: object = PIN) -> str:
    ticket = staff.log_in(typed)
    assert isinstance(ticket, str), ticket
    return ticket


def refusal_of(outcome: str | Refusal) -> Refusal:
    assert isinstance(outcome, Refusal), "a ticket where a refusal was due"
    return outcome


def test_the_right_pin_gives_a_ticket_that_is_staff() -> None:
    staff, _, wall = gate()
    assert staff.enabled and staff.problem is None
    ticket = ticket_of(staff)
    issued, nonce, mac = ticket.split(".")
    assert int(issued) == int(wall.now) and nonce
    assert len(mac) == 64 and set(mac) <= set("0123456789abcdef")
    assert staff.is_staff(ticket)
    assert staff.check_staff(ticket) is None


def test_each_log_in_gives_a_new_ticket() -> None:
    staff, _, _ = gate()
    assert ticket_of(staff) != ticket_of(staff)


def test_a_wrong_pin_is_refused_with_401_and_no_wait_for_the_first_tries() -> None:
    staff, _, _ = gate()
    for _ in range(FREE_TRIES):
        refusal = refusal_of(staff.log_in("000000"))
        assert refusal.status == 401 and refusal.retry_after is None
        assert str(refusal.words) == "wrong PIN"


def test_wrong_pins_after_the_free_tries_wait_longer_each_time_up_to_a_minute() -> None:
    staff, clock, _ = gate()
    for _ in range(FREE_TRIES):
        staff.log_in("000000")
    waits = []
    for _ in range(10):
        refusal = refusal_of(staff.log_in("000000"))
        assert refusal.status == 429
        assert refusal.retry_after is not None
        waits.append(refusal.retry_after)
        clock.now += refusal.retry_after
        assert refusal_of(staff.log_in("000000")).status == 401, "checked again after the wait"
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60, 60, 60]


def test_the_wait_counts_from_the_last_wrong_pin_and_says_when_to_come_back() -> None:
    staff, clock, _ = gate()
    for _ in range(FREE_TRIES + 1):
        clock.now += 1.0
        staff.log_in("000000")
    clock.now += 0.5
    refusal = refusal_of(staff.log_in("000000"))
    assert refusal.status == 429 and refusal.retry_after == pytest.approx(1.5)
    assert str(refusal.words) == "too many wrong PINs: try again in 2 s"


def test_a_try_during_the_wait_is_not_checked_even_the_right_pin() -> None:
    staff, clock, _ = gate()
    for _ in range(FREE_TRIES):
        staff.log_in("000000")
    assert refusal_of(staff.log_in(PIN)).status == 429
    for _ in range(50):  # guesses during the wait neither count nor lengthen it
        assert refusal_of(staff.log_in("000000")).retry_after == 1
    clock.now += 1
    assert staff.is_staff(ticket_of(staff))


def test_the_right_pin_resets_the_count_of_wrong_ones() -> None:
    staff, clock, _ = gate()
    for _ in range(FREE_TRIES):
        staff.log_in("000000")
    clock.now += 1
    ticket_of(staff)
    for _ in range(FREE_TRIES):
        assert refusal_of(staff.log_in("000000")).status == 401
    assert refusal_of(staff.log_in("000000")).status == 429


def test_one_count_per_phone_even_from_many_threads_at_once() -> None:
    staff, _, _ = gate()
    start = threading.Barrier(12)
    statuses: list[int] = []
    lock = threading.Lock()

    def guess() -> None:
        start.wait(timeout=10)
        outcome = refusal_of(staff.log_in("000000", "address 192.168.1.66"))
        with lock:
            statuses.append(outcome.status)

    threads = [threading.Thread(target=guess) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(statuses) == [401] * FREE_TRIES + [429] * (12 - FREE_TRIES)


@pytest.mark.parametrize(
    "typed",
    [
        int(PIN),
        float(PIN),
        None,
        True,
        [PIN],
        {"pin": PIN},
        f" {PIN}",
        f"{PIN}\n",
        "".join(chr(0xFF10 + int(digit)) for digit in PIN),
        "".join(chr(0x0660 + int(digit)) for digit in PIN),
        "",
        "123",
        "1" * 13,
        "12ab56",
        PIN * 200_000,
    ],
    ids=[
        "int",
        "float",
        "null",
        "bool",
        "list",
        "object",
        "leading blank",
        "newline",
        "full-width digits",
        "arabic digits",
        "empty",
        "three digits",
        "thirteen digits",
        "letters",
        "a megabyte",
    ],
)
def test_what_cannot_be_a_pin_is_malformed_and_never_counted(typed: object) -> None:
    staff, _, _ = gate()
    for _ in range(FREE_TRIES * 5):
        refusal = refusal_of(staff.log_in(typed))
        assert refusal.status == 400
        assert str(refusal.words) == "type the staff PIN: 4 to 12 digits"
    assert staff.is_staff(ticket_of(staff)), "no guess was counted"


@pytest.mark.parametrize("typed", [PIN[:-1], f"{PIN}0", "0000", "9" * 12])
def test_digits_that_are_not_the_pin_are_wrong_and_counted(typed: str) -> None:
    staff, _, _ = gate()
    assert refusal_of(staff.log_in(typed)).status == 401
    for _ in range(FREE_TRIES - 1):
        staff.log_in(typed)
    assert refusal_of(staff.log_in(PIN)).status == 429, "counted as a wrong PIN"


def test_a_phone_guessing_slows_itself_and_not_the_staffs_phone() -> None:
    staff, clock, _ = gate()
    guesser, staffs = "address 192.168.1.66", "address 192.168.1.20"
    for _ in range(200):
        staff.log_in("000000", guesser)
        clock.now += 0.2
    assert refusal_of(staff.log_in(PIN, guesser)).status == 429
    assert staff.is_staff(ticket_of_client(staff, staffs)), "the staff are let in at once"
    assert refusal_of(staff.log_in("000000", guesser)).status == 429, "still slowed"


def ticket_of_client(staff: StaffGate, client: str) -> str:
    ticket = staff.log_in(PIN, client)
    assert isinstance(ticket, str), ticket
    return ticket


def test_the_table_s_own_ticket_names_the_phone_even_once_expired() -> None:
    staff, _, wall = gate()
    ticket = ticket_of(staff)
    nonce = ticket.split(".")[1]
    assert staff.ticket_nonce(ticket) == nonce
    wall.now += TICKET_SECONDS * 3
    assert not staff.is_staff(ticket)
    assert staff.ticket_nonce(ticket) == nonce
    assert staff.ticket_nonce(ticket_of(gate(secret=b"o" * 32)[0])) is None
    assert staff.ticket_nonce("1.2.3") is None


def test_wrong_pins_stay_counted_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / TRIES_FILE
    first, clock, _ = gate(tries=path)
    for _ in range(FREE_TRIES + 3):
        clock.now += 100
        first.log_in("000000", "address 10.0.0.9")
    assert path.exists()
    again = StaffGate(PIN, secret=SECRET, clock=clock, tries=path)
    refusal = refusal_of(again.log_in(PIN, "address 10.0.0.9"))
    assert refusal.status == 429 and refusal.retry_after == 8
    assert isinstance(again.log_in(PIN, "address 10.0.0.10"), str)
    clock.now += 8
    assert isinstance(again.log_in(PIN, "address 10.0.0.9"), str)
    assert "10.0.0.9" not in path.read_text(), "the right PIN starts the count again"


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"clients": []}',
        '{"clients": {"a": [1]}}',
        '{"clients": {"a": ["x", 1.0]}}',
        '{"clients": {"a": [2, 1e400]}}',
        '{"clients": {"a": [2, 1' + "0" * 400 + "]}}",
        '{"clients": {"a": [true, 1.0]}}',
        "\udcff",
        "[" * 100_000,
    ],
)
def test_a_damaged_file_of_wrong_pins_is_said_on_the_log_and_read_as_none(
    tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / TRIES_FILE
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    with caplog.at_level(logging.WARNING, "companion.web.throttle"):
        staff, _, _ = gate(tries=path)
    assert any("damaged or unreadable" in r.getMessage() for r in caplog.records)
    assert staff.is_staff(ticket_of(staff))
    assert refusal_of(staff.log_in("000000", "address 10.0.0.9")).status == 401
    assert json.loads(path.read_text())["clients"], "written afresh"


def test_a_file_of_wrong_pins_that_cannot_be_written_stops_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "gone" / TRIES_FILE
    staff, _, _ = gate(tries=path)
    with caplog.at_level(logging.WARNING, "companion.web.throttle"):
        for _ in range(FREE_TRIES):
            assert refusal_of(staff.log_in("000000", "x")).status == 401
    assert refusal_of(staff.log_in(PIN, "x")).status == 429, "counted in memory"
    said = [r for r in caplog.records if "cannot be kept" in r.getMessage()]
    assert len(said) == 1, "said once"


def test_the_file_of_wrong_pins_keeps_a_bounded_number_of_phones(tmp_path: Path) -> None:
    path = tmp_path / TRIES_FILE
    staff, clock, _ = gate(tries=path)
    for n in range(MAX_CLIENTS + 50):
        clock.now += 0.01
        staff.log_in("000000", f"address 10.1.{n // 256}.{n % 256}")
    clients = json.loads(path.read_text())["clients"]
    assert len(clients) == MAX_CLIENTS
    assert "address 10.1.0.0" not in clients, "the oldest forgotten"
    assert path.stat().st_size < 100_000
    assert MAX_WAIT_SECONDS == 60


def test_a_ticket_expires_after_its_hours() -> None:
    staff, _, wall = gate()
    ticket = ticket_of(staff)
    wall.now += TICKET_SECONDS - 1
    assert staff.is_staff(ticket)
    wall.now += 1
    assert not staff.is_staff(ticket)
    refusal = staff.check_staff(ticket)
    assert refusal is not None and refusal.status == 401
    assert str(refusal.words) == "staff PIN needed"


def test_a_ticket_from_the_future_is_not_staff() -> None:
    staff, _, wall = gate()
    ticket = ticket_of(staff)
    wall.now -= 5
    assert not staff.is_staff(ticket)


def test_a_ticket_signed_by_another_gate_is_not_staff() -> None:
    staff, _, _ = gate()
    other, _, _ = gate(secret=b"o" * 32)
    assert not staff.is_staff(ticket_of(other))
    assert gate(secret=SECRET)[0].is_staff(ticket_of(staff)), "the secret signs, nothing else"


def test_a_gate_without_a_secret_makes_its_own_so_a_restart_logs_staff_out() -> None:
    first, second = StaffGate(PIN), StaffGate(PIN)
    assert first.is_staff(ticket_of(first))
    assert not second.is_staff(ticket_of(first))


def _tampered(ticket: str) -> list[str]:
    issued, nonce, mac = ticket.split(".")
    flipped = "0" if mac[0] != "0" else "1"
    return [
        f"{int(issued) + 1}.{nonce}.{mac}",
        f"{int(issued) + TICKET_SECONDS}.{nonce}.{mac}",
        f"0{issued}.{nonce}.{mac}",
        f"{issued}.{nonce}x.{mac}",
        f"{issued}..{mac}",
        f"{issued}.{nonce}.{flipped}{mac[1:]}",
        f"{issued}.{nonce}.{mac.upper()}",
        f"{issued}.{nonce}.{mac[:-1]}",
        f"{issued}.{nonce}.{mac}.",
        f"{issued}.{nonce}.{mac}0",
        f"{issued}.{nonce}",
        f".{nonce}.{mac}",
        f"-{issued}.{nonce}.{mac}",
        f"{issued}.{nonce}.{mac} ",
        f"{issued}.{nonce}.{mac[:-1]}é",
        "",
    ]


@pytest.mark.parametrize("which", range(len(_tampered("1.n.0123"))))
def test_a_ticket_tampered_in_any_part_is_not_staff(which: int) -> None:
    staff, _, _ = gate()
    forged = _tampered(ticket_of(staff))[which]
    assert not staff.is_staff(forged)
    refusal = staff.check_staff(forged)
    assert refusal is not None and refusal.status == 401


_BYTES_AS_TEXT = st.binary(max_size=300).map(lambda raw: raw.decode("latin-1"))
_TEXT = st.text(max_size=300) | _BYTES_AS_TEXT


@given(ticket=_TEXT | st.text(alphabet="0123456789abcdef.", max_size=120))
def test_no_text_is_a_ticket_or_raises(ticket: str) -> None:
    staff, _, _ = gate()
    assert not staff.is_staff(ticket)
    assert staff.check_staff(ticket) is not None


@given(cookie=_TEXT | st.none(), header=_TEXT | st.none())
def test_csrf_values_pass_only_when_both_are_the_same_token(
    cookie: str | None, header: str | None
) -> None:
    staff, _, _ = gate()
    refusal = staff.check_csrf(cookie, header)
    fits = cookie is not None and 0 < len(cookie) <= MAX_TOKEN_CHARS and cookie.isascii()
    assert (refusal is None) == (fits and cookie == header)
    if refusal is not None:
        assert refusal.status == 403
        assert str(refusal.words) == "this page is out of date: reload it"


def test_a_new_csrf_token_passes_with_itself_and_differs_from_the_last() -> None:
    staff, _, _ = gate()
    token = staff.new_csrf_token()
    assert staff.check_csrf(token, token) is None
    assert token != staff.new_csrf_token()
    assert token.isascii() and len(token) <= MAX_TOKEN_CHARS


@pytest.mark.parametrize(
    ("cookie", "header"),
    [
        (None, "abc"),
        ("abc", None),
        (None, None),
        ("", ""),
        ("abc", "abd"),
        ("a" * (MAX_TOKEN_CHARS + 1), "a" * (MAX_TOKEN_CHARS + 1)),
        ("jeton-é", "jeton-é"),
    ],
    ids=["no cookie", "no header", "neither", "empty", "unlike", "too long", "not ascii"],
)
def test_a_missing_or_unlike_csrf_token_is_refused_with_403(
    cookie: str | None, header: str | None
) -> None:
    staff, _, _ = gate()
    refusal = staff.check_csrf(cookie, header)
    assert refusal is not None and refusal.status == 403


@pytest.mark.parametrize(
    "pin", [None, "", PLACEHOLDER_PIN, "12", "12ab56"], ids=["none", "empty", "0000", "12", "ab"]
)
def test_without_a_usable_pin_the_staff_tools_are_off(pin: str | None) -> None:
    staff, _, _ = gate(pin)
    assert not staff.enabled and staff.problem is not None
    for typed in (pin, PLACEHOLDER_PIN, "12"):
        refusal = refusal_of(staff.log_in(typed))
        assert refusal.status == 403
        assert str(refusal.words) == "staff tools are off: this table has no staff PIN"
    ticket = ticket_of(gate()[0])  # signed with the same secret, by a gate with the PIN
    off = staff.check_staff(ticket)
    assert off is not None and off.status == 403
    assert not staff.is_staff(ticket)
