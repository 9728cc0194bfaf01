"""The one rule for players' names, and every entry point that must follow it."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.lineup import Lineup
from companion.errors import GameFileError, SeatingError
from companion.gamefile import parse_game
from companion.names import name_fault, player_name
from companion.rules import Seating

BAD_NAMES = {
    "An\nn": "control character",
    "An\tn": "control character",
    "\u200b": "nothing visible",
    "\u200b\u200d": "nothing visible",
    "\u0301": "nothing visible",
    "": "empty",
    "An\u2028n": "line separator",
    "Ann\ud800": "lone surrogate",
}


@pytest.mark.parametrize(("name", "fault"), BAD_NAMES.items())
def test_a_name_that_breaks_a_line_or_shows_nothing_is_refused(name: str, fault: str) -> None:
    found = name_fault(name)
    assert found is not None and fault in found


@pytest.mark.parametrize("name", ["Ann", "Zoë", "李雷", "Ann-Marie", "J. P.", "👩\u200d🍳 Cleo"])
def test_ordinary_names_are_accepted(name: str) -> None:
    assert name_fault(name) is None
    assert player_name(name) == name


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_every_accepted_name_is_one_trimmed_visible_nfc_line(text: str) -> None:
    try:
        name = player_name(text)
    except SeatingError as err:
        assert str(err) and "\n" not in str(err)
        return
    assert name == unicodedata.normalize("NFC", name) == name.strip()
    assert len(name.splitlines()) == 1 and name_fault(name) is None
    assert any(unicodedata.category(c)[0] in "LNPS" for c in name)


def test_names_that_differ_only_in_normalisation_are_one_name() -> None:
    assert player_name("Re\u0301mi") == player_name("Rémi") == "Rémi"
    with pytest.raises(SeatingError, match="more than once"):
        Lineup.parse(["Rémi=red", "Re\u0301mi=blue", "Ann"])
    with pytest.raises(SeatingError, match="seated twice"):
        Seating(("Rémi", "Re\u0301mi", "Ann"))


@pytest.mark.parametrize("name", BAD_NAMES)
def test_every_entry_point_refuses_a_bad_name(name: str) -> None:
    with pytest.raises(SeatingError):
        Seating((name, "Ben", "Cleo"))
    with pytest.raises(SeatingError):
        Lineup.parse([f"{name}=red", "Ben", "Cleo"])
    escaped = name.encode("unicode_escape").decode().replace('"', '\\"')
    text = (
        f'{{"ruleset": "classic", "players": ["{escaped}", "Ben", "Cleo"], '
        '"first_storyteller": "Ben", "rounds": []}'
    )
    with pytest.raises((GameFileError, SeatingError)):
        parse_game(text)
