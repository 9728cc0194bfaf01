"""The one rule for players' names, and every entry point that must follow it."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import GameFileError, SeatingError
from companion.gamefile import parse_game
from companion.names import name_fault, player_name
from companion.rules import Seating
from companion.session.lineup import Lineup

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
    text = (
        '{"ruleset": "classic", "players": ["R\u00e9mi", "Re\u0301mi", "Ann"], '
        '"first_storyteller": "Ann", "rounds": []}'
    )
    with pytest.raises(GameFileError, match="more than once"):
        parse_game(text)


def test_a_game_file_refuses_a_name_with_spaces_at_its_ends() -> None:
    text = '{"ruleset": "classic", "players": [" Ann", "Ben", "Cleo"], "first_storyteller": "Ben", "rounds": []}'
    with pytest.raises(GameFileError, match="spaces at its start or end"):
        parse_game(text)


@pytest.mark.parametrize("name", BAD_NAMES)
def test_every_entry_point_refuses_a_bad_name(name: str) -> None:
    with pytest.raises(SeatingError):
        Lineup.parse([f"{name}=red", "Ben", "Cleo"])
    escaped = name.encode("unicode_escape").decode().replace('"', '\\"')
    text = (
        f'{{"ruleset": "classic", "players": ["{escaped}", "Ben", "Cleo"], '
        '"first_storyteller": "Ben", "rounds": []}'
    )
    with pytest.raises((GameFileError, SeatingError)):
        parse_game(text)


@pytest.mark.parametrize(
    "players",
    [("\u200b", "Ben", "Cleo"), ("\ue000", "\u0301", "Cleo"), ("Rémi", "Re\u0301mi", "Ann")],
)
def test_the_rules_seat_names_an_older_version_let_in(players: tuple[str, ...]) -> None:
    """The rules engine replays stored games, so it keeps only what it needs itself: a
    name refused where names enter now may already be in a journal."""
    assert Seating(players).players == players


@pytest.mark.parametrize(
    ("players", "fault"),
    [(("", "Ben", "Cleo"), "needs a name"), (("Ann+Ben", "Cleo", "Dan"), "joins team names")],
)
def test_the_rules_still_refuse_what_they_cannot_seat(players: tuple[str, ...], fault: str) -> None:
    with pytest.raises(SeatingError, match=fault):
        Seating(players)
