"""Counts in the rules engine's messages agree in number: "1 card", "2 cards"."""

import pytest

from companion.errors import InvalidOptionError
from companion.rules import Game, find_ruleset


def test_a_deck_of_one_card_is_worded_in_the_singular() -> None:
    rules = find_ruleset("classic").with_options({"deck": 1})
    with pytest.raises(
        InvalidOptionError, match=r"^classic: a deck of 1 card cannot deal 7 cards to each of 3"
    ):
        Game.start(rules, ["a", "b", "c"], "a")
