"""Scoring of Dixit in teams (`teams-1e`, `teams`)."""

import pytest

from tests.rules.helpers import deltas, game, reveal

# Ten players, five teams of partners sitting opposite each other (seats i and i + 5).
TEN = ["bea", "val", "gus", "ola", "pam", "bob", "vic", "gil", "oz", "pia"]
BLUE, VIOLET, GREEN, ORANGE, PINK = "bea+bob", "val+vic", "gus+gil", "ola+oz", "pam+pia"


def test_team_names_join_partners_lower_seat_first() -> None:
    assert game("teams", TEN).scorers == (BLUE, VIOLET, GREEN, ORANGE, PINK)


@pytest.mark.parametrize("ruleset", ["teams", "teams-1e"])
def test_rulebook_004_ten_player_example(ruleset: str) -> None:
    # Blue tells (bea), partner bob lays a decoy. Violet and Green find it (+3 each),
    # Orange votes Green's card (Green +1), Pink votes the card of Blue's partner
    # (Blue +1): Blue 4, Green 4, Violet 3, Orange 0, Pink 0.
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    votes = {"vic": [2], "gil": [2], "oz": [1], "pia": [4]}
    score = game(ruleset, TEN).score(reveal(cards, votes))
    assert deltas(score) == {BLUE: 4, VIOLET: 3, GREEN: 4, ORANGE: 0, PINK: 0}
    assert score.reasons[BLUE] == (
        "+3 some teams, not all, found bea's card",
        "+1 one vote on bob's card",
    )
    assert score.reasons[GREEN] == (
        "+3 gil found the storyteller's card",
        "+1 one vote on gus's card",
    )
    assert score.reasons[ORANGE] == ("0 oz did not find the storyteller's card",)


def test_everybody_or_nobody_finding_gives_two_to_every_other_team() -> None:
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    everybody = game("teams", TEN).score(
        reveal(cards, {"vic": [2], "gil": [2], "oz": [2], "pia": [2]})
    )
    assert deltas(everybody) == {BLUE: 0, VIOLET: 2, GREEN: 2, ORANGE: 2, PINK: 2}
    nobody = game("teams", TEN).score(
        reveal(cards, {"vic": [4], "gil": [4], "oz": [4], "pia": [4]})
    )
    assert deltas(nobody) == {BLUE: 4, VIOLET: 2, GREEN: 2, ORANGE: 2, PINK: 2}


def test_teams_1e_caps_votes_per_card_at_three_and_teams_does_not() -> None:
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    votes = {"vic": [4], "gil": [4], "oz": [4], "pia": [4]}
    assert game("teams-1e", TEN).score(reveal(cards, votes)).deltas[BLUE] == 3
    assert game("teams", TEN).score(reveal(cards, votes)).deltas[BLUE] == 4


def test_six_players_in_teams_1e() -> None:
    six = ["ann", "bo", "cy", "al", "bea", "cid"]  # teams ann+al, bo+bea, cy+cid
    cards = {1: "ann", 2: "al", 3: "bo", 4: "cid"}
    score = game("teams-1e", six).score(reveal(cards, {"bea": [1], "cy": [2]}))
    assert deltas(score) == {"ann+al": 3 + 1, "bo+bea": 3, "cy+cid": 0}
