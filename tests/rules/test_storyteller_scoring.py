"""Scoring of `classic`, `classic-1e` and `odyssey` rounds."""

import pytest

from companion.rules import AwardKind
from tests.rules.helpers import deltas, game, numbered, reveal

SIX = ["pink", "blue", "green", "violet", "yellow", "red"]


def test_rulebook_001_six_player_example() -> None:
    # Pink tells. Blue and Green find Pink's card; Red votes Violet's card; Violet and
    # Yellow vote Blue's card. The rulebook: Pink 3, Blue 5, Green 3, Violet 1, Yellow 0, Red 0.
    table = reveal(
        numbered(SIX),
        {"blue": [1], "green": [1], "red": [4], "violet": [2], "yellow": [2]},
    )
    for ruleset in ("classic", "classic-1e", "odyssey"):
        score = game(ruleset, SIX).score(table)
        assert deltas(score) == {
            "pink": 3,
            "blue": 5,
            "green": 3,
            "violet": 1,
            "yellow": 0,
            "red": 0,
        }
        assert score.reasons["blue"] == (
            "+3 found the storyteller's card",
            "+2 two votes on your card",
        )
        assert score.reasons["pink"] == ("+3 some players, not all, found your card",)
        assert score.reasons["red"] == ("0 did not find the storyteller's card",)


def test_everybody_finding_the_card_gives_storyteller_nothing_and_voters_two() -> None:
    table = reveal(numbered(SIX), {p: [1] for p in SIX[1:]})
    score = game("classic", SIX).score(table)
    assert deltas(score) == {"pink": 0, **dict.fromkeys(SIX[1:], 2)}
    assert score.reasons["pink"] == ("0 everybody found your card",)


def test_nobody_finding_the_card_gives_storyteller_nothing_and_voters_two_plus_bonus() -> None:
    table = reveal(
        numbered(SIX),
        {"blue": [3], "green": [2], "violet": [2], "yellow": [2], "red": [2]},
    )
    score = game("classic", SIX).score(table)
    assert deltas(score) == {"pink": 0, "blue": 6, "green": 3, "violet": 2, "yellow": 2, "red": 2}
    assert score.reasons["blue"] == (
        "+2 nobody found the storyteller's card",
        "+4 four votes on your card",
    )


def test_classic_has_no_bonus_cap_and_odyssey_caps_it_at_three() -> None:
    table = reveal(
        numbered(SIX),
        {"blue": [1], "green": [2], "violet": [2], "yellow": [2], "red": [2]},
    )
    assert game("classic", SIX).score(table).deltas["blue"] == 3 + 4
    odyssey = game("odyssey", SIX).score(table)
    assert odyssey.deltas["blue"] == 3 + 3
    assert odyssey.reasons["blue"][-1] == "+3 four votes on your card, capped at 3"


def test_bonus_cap_is_an_option() -> None:
    table = reveal(
        numbered(SIX),
        {"blue": [1], "green": [2], "violet": [2], "yellow": [2], "red": [2]},
    )
    assert game("classic", SIX, bonus_cap=2).score(table).deltas["blue"] == 3 + 2
    assert game("odyssey", SIX, bonus_cap=None).score(table).deltas["blue"] == 3 + 4


THREE = ["red", "blue", "green"]


@pytest.mark.parametrize("ruleset", ["classic", "odyssey"])
def test_three_players_lay_two_cards_and_score_bonus_on_either(ruleset: str) -> None:
    cards = {1: "red", 2: "blue", 3: "green", 4: "blue", 5: "green"}
    score = game(ruleset, THREE).score(reveal(cards, {"blue": [1], "green": [4]}))
    assert deltas(score) == {"red": 3, "blue": 3 + 1, "green": 0}
    assert score.reasons["blue"][-1] == "+1 one vote on your cards"


def test_classic_1e_three_players_lone_finder_and_storyteller_score_four() -> None:
    cards = {1: "red", 2: "blue", 3: "green", 4: "blue", 5: "green"}
    score = game("classic-1e", THREE).score(reveal(cards, {"blue": [1], "green": [4]}))
    assert deltas(score) == {"red": 4, "blue": 4 + 1, "green": 0}
    assert score.reasons["red"] == ("+4 only one player found your card (3-player rule)",)
    assert score.reasons["blue"][0] == "+4 found the storyteller's card (3-player rule)"


def test_classic_1e_three_players_both_finding_is_still_zero_and_two() -> None:
    cards = {1: "red", 2: "blue", 3: "green", 4: "blue", 5: "green"}
    score = game("classic-1e", THREE).score(reveal(cards, {"blue": [1], "green": [1]}))
    assert deltas(score) == {"red": 0, "blue": 2, "green": 2}


def test_classic_1e_lone_finder_with_four_players_scores_three() -> None:
    four = ["red", "blue", "green", "pink"]
    score = game("classic-1e", four).score(
        reveal(numbered(four), {"blue": [1], "green": [2], "pink": [2]})
    )
    assert deltas(score) == {"red": 3, "blue": 3 + 2, "green": 0, "pink": 0}


EIGHT = ["red", "blue", "green", "pink", "white", "black", "orange", "violet"]


def test_odyssey_seven_plus_a_second_vote_and_a_single_vote_bonus() -> None:
    table = reveal(
        numbered(EIGHT),
        {
            "blue": [1],  # found with one vote: 3 + 1
            "green": [1, 2],  # found with two votes: 3
            "pink": [2, 3],  # missed: 0
            "white": [2],
            "black": [3, 4],
            "orange": [2, 5],
            "violet": [8 - 1, 2],
        },
    )
    score = game("odyssey", EIGHT).score(table)
    assert score.deltas["red"] == 3
    assert score.deltas["blue"] == 3 + 1 + 3  # five votes on slot 2, capped at 3
    assert score.reasons["blue"] == (
        "+3 found the storyteller's card",
        "+1 found it with a single vote",
        "+3 five votes on your card, capped at 3",
    )
    assert score.deltas["green"] == 3 + 2  # found with two votes; slot 3 has two votes
    assert score.deltas["pink"] == 0 + 1  # slot 4 has black's vote
    assert score.deltas["white"] == 0 + 1  # slot 5 has orange's vote
    assert score.deltas["orange"] == 0 + 1  # slot 7 has violet's vote


def test_odyssey_single_vote_bonus_applies_when_everybody_found_it() -> None:
    # Decision in the rules doc: the +1 is its own rule, so it applies in all cases.
    votes = {p: [1] for p in EIGHT[1:]}
    votes["blue"] = [1, 3]
    score = game("odyssey", EIGHT).score(reveal(numbered(EIGHT), votes))
    assert score.deltas["red"] == 0
    assert score.deltas["white"] == 2 + 1
    assert score.deltas["blue"] == 2  # two votes: no single-vote point
    assert score.deltas["green"] == 2 + 1 + 1  # blue's second vote is on green's card
    assert [a.kind for a in score.awards["white"]] == [AwardKind.GUESS, AwardKind.SINGLE_VOTE]


def test_storyteller_never_gets_a_vote_bonus() -> None:
    table = reveal(
        numbered(SIX), {"blue": [1], "green": [1], "red": [1], "violet": [1], "yellow": [2]}
    )
    score = game("classic", SIX).score(table)
    assert score.deltas["pink"] == 3
    assert [a.kind for a in score.awards["pink"]] == [AwardKind.STORYTELLER]
