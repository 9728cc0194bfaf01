"""What a stranger's phone may send while the table sets up is bounded, and a setup the
table could not keep is never answered as kept: through the real application, a
real session and a real journal.

Each case failed before its fix: a name of 60,000 characters was taken (and then
froze the table at every restart), a target of 1 or 999,999 points and a deck of one
card were taken, and a setup on a full card answered 200 with the journal's path on
every phone.
"""

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from companion.actions import Action
from companion.errors import DiskFullError, JournalError
from companion.language import Language, translations
from companion.names import MAX_NAME_CHARS
from companion.phrases import plural
from companion.session.draft import KIT_COLOURS
from companion.web.staff import StaffGate
from tests.small_disk import small_disk
from tests.web.desk import PIN, Desk, change, log_in, served, setting_up_desk

SEATS = ("red", "blue", "green")


def error_of(answer: httpx.Response) -> str:
    words = answer.json()["error"]
    assert isinstance(words, str) and words
    return words


def seated(desk: Desk) -> None:
    """Three seats taken at the table (a phone cannot take seats)."""
    for colour in SEATS:
        desk.press(Action.PICK, KIT_COLOURS.index(colour))


@pytest.fixture
def setting_up(tmp_path: Path) -> Iterator[tuple[Desk, TestClient]]:
    with setting_up_desk(tmp_path / "journal.sqlite") as desk, served(desk) as client:
        assert change(client, "/api/setup", {"ruleset": "classic"}).status_code == 200
        seated(desk)
        yield desk, client


TOO_LONG = f"a name may have at most {MAX_NAME_CHARS} characters: choose a shorter one"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("W" * 60_000, TOO_LONG),
        ("Ann" * 5_000, TOO_LONG),
        ("a" * (MAX_NAME_CHARS + 1), TOO_LONG),
        ("e\u0301" * (MAX_NAME_CHARS + 1), TOO_LONG),
        (
            "W" * MAX_NAME_CHARS,
            "W" * MAX_NAME_CHARS + " is too wide for the screen: choose a shorter name",
        ),
        ("%" * 25, "%" * 25 + " is too wide for the screen: choose a shorter name"),
    ],
    ids=["60,000 characters", "15,000 characters", "one too many", "accents", "wide", "signs"],
)
def test_a_name_longer_or_wider_than_the_screen_shows_is_refused_whole(
    setting_up: tuple[Desk, TestClient], name: str, words: str
) -> None:
    desk, client = setting_up
    before = desk.snapshot()
    answer = change(client, "/api/setup", {"names": {"red": "Ann", "blue": name}})
    assert answer.status_code == 409, answer.text
    assert error_of(answer) == words
    assert desk.snapshot() == before, "nothing of the setup was taken"


def test_a_name_as_long_as_the_screen_shows_is_taken(setting_up: tuple[Desk, TestClient]) -> None:
    desk, client = setting_up
    longest = "Alexandrina Montgomery-Smythe"
    for name in ("a" * MAX_NAME_CHARS, "e\u0301" * MAX_NAME_CHARS, longest):
        answer = change(client, "/api/setup", {"names": {"blue": name}})
        assert answer.status_code == 200, answer.text
    assert dict(desk.snapshot().state.draft.names)["blue"] == longest


def test_a_french_table_refuses_a_long_name_in_french(tmp_path: Path) -> None:
    with (
        setting_up_desk(tmp_path / "journal.sqlite", Language.FRENCH) as desk,
        served(desk) as client,
    ):
        change(client, "/api/setup", {"ruleset": "classic"})
        seated(desk)
        answer = change(client, "/api/setup", {"names": {"red": "x" * 100}})
    assert answer.status_code == 409
    words = plural(
        "a name may have at most {n} character: choose a shorter one",
        "a name may have at most {n} characters: choose a shorter one",
        MAX_NAME_CHARS,
    )
    french = words.render(translations(Language.FRENCH))
    assert error_of(answer) == french != words.render(translations(Language.ENGLISH))


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": 1}, "target must be from 10 to 100"),
        ({"target": 999_999}, "target must be from 10 to 100"),
        ({"target": -30}, "target must be from 10 to 100"),
        ({"deck": 1}, "deck must be from 84 to 1008"),
        ({"deck": 999_999}, "deck must be from 84 to 1008"),
        ({"bonus_cap": 999}, "bonus_cap must be from 0 to 12"),
        ({"storyteller_turns": 0}, "storyteller_turns must be from 1 to 6"),
        ({"round_limit": 1}, "round_limit must be from 3 to 50"),
        ({"round_limit": 10, "target": 101}, "target must be from 10 to 100"),
    ],
)
def test_an_option_outside_what_a_cafe_would_choose_is_refused(
    setting_up: tuple[Desk, TestClient], options: dict[str, int], words: str
) -> None:
    desk, client = setting_up
    before = desk.snapshot()
    answer = change(client, "/api/setup", {"options": options})
    assert answer.status_code == 409, answer.text
    assert error_of(answer) == words
    assert desk.snapshot() == before


@pytest.mark.parametrize(
    "options",
    [
        {"target": 10},
        {"target": 100},
        {"deck": 168},
        {"deck": 1008},
        {"round_limit": 50, "target": None},
    ],
)
def test_an_option_a_cafe_would_choose_is_taken(
    setting_up: tuple[Desk, TestClient], options: dict[str, int | None]
) -> None:
    desk, client = setting_up
    answer = change(client, "/api/setup", {"options": options})
    assert answer.status_code == 200, answer.text
    assert all(desk.snapshot().state.draft.option(k) == v for k, v in options.items())


def test_a_log_in_without_a_pin_is_malformed_and_never_a_guess(tmp_path: Path) -> None:
    with (
        setting_up_desk(tmp_path / "journal.sqlite") as desk,
        served(desk, StaffGate(PIN)) as client,
    ):
        for _ in range(20):
            answer = change(client, "/staff/login", {})
            assert answer.status_code == 400, answer.text
            assert error_of(answer) == "type the staff PIN: 4 to 12 digits"
        assert log_in(client).status_code == 200, "none of them was counted"


# A full card


def test_a_setup_on_a_full_card_is_not_kept_and_says_so_without_a_path(tmp_path: Path) -> None:
    with small_disk(tmp_path / "card", "3m") as card:
        path = card.root / "journal.sqlite"
        with setting_up_desk(path) as desk, served(desk) as client:
            assert change(client, "/api/setup", {"ruleset": "classic"}).status_code == 200
            seated(desk)
            before = desk.snapshot().state
            card.fill()
            answer = change(client, "/api/setup", {"names": {"red": "Ann"}})
            assert answer.status_code == 507, answer.text
            words = error_of(answer)
            assert words == "this was not kept: the memory card is full; make room, then try again"
            state = client.get("/api/state").json()
            table = client.get("/").text
            after = desk.snapshot().state
            assert after.draft == before.draft, "nothing was taken that was not kept"
            card.filler.unlink()
            again = change(client, "/api/setup", {"names": {"red": "Ann"}})
            assert again.status_code == 200, again.text
    for shown in (words, str(state), table):
        assert str(card.root) not in shown and "sqlite" not in shown and "journal" not in shown
    assert words in str(state["problems"]) or words in table, "the table says it too"


@pytest.mark.parametrize(
    ("error", "status", "words"),
    [
        (
            DiskFullError("/var/lib/dixit-companion/journal.sqlite: the disk is full"),
            507,
            "this was not kept: the memory card is full; make room, then try again",
        ),
        (
            JournalError("/var/lib/dixit-companion/journal.sqlite: disk I/O error"),
            503,
            "this was not kept: the table could not write it down; try again",
        ),
        (
            OSError(5, "Input/output error", "/var/lib/dixit-companion/journal.sqlite"),
            503,
            "this was not kept: the table could not write it down; try again",
        ),
    ],
    ids=["full", "journal error", "system error"],
)
def test_a_setup_the_journal_cannot_keep_is_refused_in_plain_words(
    setting_up: tuple[Desk, TestClient],
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    status: int,
    words: str,
) -> None:
    desk, client = setting_up
    before = desk.snapshot().state

    def cannot_keep(*_: object) -> None:
        raise error

    monkeypatch.setattr(desk.journal, "save_setup", cannot_keep)
    answer = change(client, "/api/setup", {"names": {"red": "Ann"}, "options": {"target": 20}})
    assert answer.status_code == status, answer.text
    assert error_of(answer) == words
    assert desk.snapshot().state.draft == before.draft
    shown = client.get("/api/state").text + client.get("/").text
    assert words in shown or words.replace("'", "&#39;") in shown
    assert "/var/lib" not in shown and "sqlite" not in shown
