"""Counts in the rules engine's messages agree in number: "1 card", "2 cards"."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import wording
from companion.errors import InvalidOptionError
from companion.rules import Game, find_ruleset


def test_a_deck_of_one_card_is_worded_in_the_singular() -> None:
    rules = find_ruleset("classic").with_options({"deck": 1})
    with pytest.raises(
        InvalidOptionError, match=r"^classic: a deck of 1 card cannot deal 7 cards to each of 3"
    ):
        Game.start(rules, ["a", "b", "c"], "a")


@given(st.integers(0, 40))
def test_counted_phrases_read_in_english_as_the_str_helpers(n: int) -> None:
    assert str(wording.votes(n)) == wording.count(n, "vote")
    assert str(wording.cards(n)) == wording.count(n, "card")
    assert str(wording.rounds_played_phrase(n)) == wording.rounds_played(n)


@pytest.mark.parametrize(
    ("numbers", "words"),
    [([3], "slot 3"), ([2, 5], "slots 2 and 5"), ([1, 4, 9], "slots 1, 4 and 9")],
)
def test_slots_are_listed_as_a_player_says_them(numbers: list[int], words: str) -> None:
    assert str(wording.slots_phrase(numbers)) == words


@given(st.integers(1, 9), st.integers(0, 5))
def test_a_span_of_rounds_reads_as_the_str_helper(first: int, more: int) -> None:
    assert str(wording.round_span_phrase(first, first + more)) == wording.round_span(
        first, first + more
    )
