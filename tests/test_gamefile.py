"""Parsing and writing game files: strict, with messages that say where."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import (
    CompanionError,
    GameFileError,
    InvalidOptionError,
    PlayerCountError,
    TrapError,
    UnknownRulesetError,
)
from companion.gamefile import game_document, parse_game, result_document
from companion.rules import Termination
from tests.rules.strategies import games, legal_reveals

GOOD = {
    "ruleset": "odyssey",
    "players": ["red", "blue", "green"],
    "first_storyteller": "red",
    "options": {"target": 30},
    "rounds": [
        {
            "cards": {"1": "blue", "2": "red", "3": "green", "4": "blue", "5": "green"},
            "votes": {"blue": [2], "green": [4]},
        }
    ],
}


def text(**changes: object) -> str:
    return json.dumps(GOOD | changes)


def round_text(**changes: object) -> str:
    return text(rounds=[GOOD["rounds"][0] | changes])  # type: ignore[index]


def test_the_issue_example_parses_and_scores() -> None:
    game = parse_game(text()).play()
    assert dict(game.totals) == {"red": 3, "blue": 3 + 1, "green": 0}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "the file is empty"),
        ("   \n", "the file is empty"),
        ("{", "not JSON: Expecting property name enclosed in double quotes at line 1, column 2"),
        ("[]", "the game must be a JSON object, not a list"),
        ('{"ruleset": NaN}', "NaN is not a number JSON allows"),
        (text(players="red"), "players must be a JSON list, not the string 'red'"),
        (text(players=["red", 7, "green"]), "players[1] must be a string, not the number 7"),
        (text(ruleset=None), "ruleset must be a string, not null"),
        (
            text(colour="red"),
            "the game has unknown key 'colour'; allowed: first_storyteller, options, players, rounds, ruleset",
        ),
        (
            text(options={"target": "30"}),
            "option target must be whole numbers, not the string '30'",
        ),
        (text(options={"target": True}), "option target must be whole numbers, not true"),
        (text(options=[]), "options must be a JSON object, not a list"),
        (text(rounds={}), "rounds must be a JSON list, not an object"),
        (round_text(cards={"01": "blue"}), "round 1 cards: '01' is not a slot number (1, 2, ...)"),
        (
            round_text(cards={"one": "blue"}),
            "round 1 cards: 'one' is not a slot number (1, 2, ...)",
        ),
        (round_text(cards={"1": 3}), "round 1 cards['1'] must be a string, not the number 3"),
        (
            round_text(votes={"blue": 2}),
            "round 1 votes of 'blue' must be a JSON list, not the number 2",
        ),
        (
            round_text(votes={"blue": [2.0]}),
            "round 1 votes of 'blue' must be whole numbers, not the number 2.0",
        ),
        (round_text(trap="2"), "round 1 trap must be whole numbers, not the string '2'"),
        (round_text(note="x"), "round 1 has unknown key 'note'; allowed: cards, trap, votes"),
        (text(rounds=[{"cards": {}}]), "round 1 lacks 'votes'"),
        (
            '{"ruleset": "classic", "ruleset": "odyssey"}',
            "the key 'ruleset' appears twice in one object",
        ),
    ],
)
def test_malformed_files_are_refused_with_a_message_that_says_where(raw: str, message: str) -> None:
    with pytest.raises(GameFileError) as caught:
        parse_game(raw)
    assert str(caught.value) == message


def test_absurd_nesting_is_refused() -> None:
    with pytest.raises(GameFileError, match="nested far too deeply"):
        parse_game("[" * 100_000 + "]" * 100_000)


def test_missing_keys_are_named() -> None:
    with pytest.raises(GameFileError, match="the game lacks 'first_storyteller', 'rounds'"):
        parse_game('{"ruleset": "classic", "players": []}')


def test_rules_errors_come_through_unchanged() -> None:
    with pytest.raises(UnknownRulesetError):
        parse_game(text(ruleset="chess"))
    with pytest.raises(PlayerCountError):
        parse_game(text(players=["red", "blue"], first_storyteller="red"))
    with pytest.raises(InvalidOptionError, match="unknown option colour"):
        parse_game(text(options={"colour": 3}))
    with pytest.raises(
        TrapError, match="round 1: a trap lies on slot 2, but this ruleset has no trap"
    ):
        parse_game(round_text(trap=2)).play()


def test_null_options_switch_a_limit_off() -> None:
    record = parse_game(text(options={"bonus_cap": None}))
    assert record.start.ruleset.bonus_cap is None


def test_round_limit_is_an_option_of_the_file() -> None:
    record = parse_game(text(options={"target": None, "round_limit": 8}))
    assert record.start.ruleset.round_limit == 8
    assert game_document(record.start)["options"] == {"target": None, "round_limit": 8}


def test_a_round_limit_ends_the_game_the_file_describes() -> None:
    game = parse_game(text(options={"round_limit": 1})).play()
    assert game.outcome is not None
    assert game.outcome.termination is Termination.ROUND_LIMIT
    assert result_document(game)["ended_after_round"] == 1


def test_a_round_limit_below_one_is_refused() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        parse_game(text(options={"round_limit": 0}))
    assert str(caught.value) == "odyssey: round_limit must be at least 1, not 0"


def test_a_game_without_a_round_limit_writes_none() -> None:
    assert "round_limit" not in game_document(parse_game(text()).start)["options"]


def test_a_file_with_no_rounds_is_a_game_not_yet_started() -> None:
    game = parse_game(text(rounds=[])).play()
    assert dict(game.totals) == {"red": 0, "blue": 0, "green": 0}
    assert game.outcome is None


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_written_game_reads_back_the_same(data: st.DataObject) -> None:
    game = data.draw(games())
    for _ in range(data.draw(st.integers(0, 5))):
        if game.outcome is not None:
            break
        game = game.play(data.draw(legal_reveals(game)))
    again = parse_game(json.dumps(game_document(game))).play()
    assert again == game


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_any_json_value_is_a_game_or_a_clear_error(value: object) -> None:
    try:
        parse_game(json.dumps(value)).play()
    except CompanionError as err:
        assert str(err) and "\n" not in str(err)
