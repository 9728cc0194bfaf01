"""The staff gate: the PIN earns a signed ticket that expires, wrong PINs are slowed
down for the whole table, a change needs the page's CSRF token, and nothing a request
sends (however malformed) raises or passes for staff."""

import threading

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

PIN = "482913"
SECRET = b"s" * 32


class Clock:
    """A clock that moves only when told."""

    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def gate(pin: str | None = PIN, *, secret: bytes = SECRET) -> tuple[StaffGate, Clock, Clock]:
    """A gate with its monotonic clock and its wall clock."""
    clock, wall = Clock(), Clock(1_700_000_000.0)
    return StaffGate(pin, secret=secret, clock=clock, wall=wall), clock, wall


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


def test_one_count_for_the_whole_table_even_from_many_threads_at_once() -> None:
    staff, _, _ = gate()
    start = threading.Barrier(12)
    statuses: list[int] = []
    lock = threading.Lock()

    def guess() -> None:
        start.wait(timeout=10)
        outcome = refusal_of(staff.log_in("000000"))
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
        PIN[:-1],
        f"{PIN}0",
        "".join(chr(0xFF10 + int(digit)) for digit in PIN),
        "".join(chr(0x0660 + int(digit)) for digit in PIN),
        "",
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
        "too short",
        "too long",
        "full-width digits",
        "arabic digits",
        "empty",
        "a megabyte",
    ],
)
def test_only_the_pins_own_digits_as_text_open_and_anything_else_counts_as_wrong(
    typed: object,
) -> None:
    staff, _, _ = gate()
    assert refusal_of(staff.log_in(typed)).status == 401
    for _ in range(FREE_TRIES - 1):
        staff.log_in(typed)
    assert refusal_of(staff.log_in(PIN)).status == 429, "counted as a wrong PIN"


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
