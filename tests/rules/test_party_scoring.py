"""Scoring of Dixit Party rounds (`party-1e`, `party`)."""

from companion.rules import AwardKind
from tests.rules.helpers import deltas, game, numbered, reveal

NINE = ["tom", "anna", "bruno", "chloe", "david", "emma", "dimitri", "mathilde", "lea"]


def test_rulebook_000_party_example() -> None:
    # Tom and five others on slot 3: six votes, capped at 5. Dimitri and Mathilde on
    # slot 2, which the storyteller trapped: 0. Lea alone on her slot: 0.
    votes = {p: [3] for p in NINE[:6]} | {"dimitri": [2], "mathilde": [2], "lea": [9]}
    score = game("party-1e", NINE).score(reveal(numbered(NINE), votes, trap=2))
    assert deltas(score) == dict.fromkeys(NINE[:6], 5) | {"dimitri": 0, "mathilde": 0, "lea": 0}
    assert score.reasons["tom"] == ("+5 six votes on slot 3, yours included, capped at 5",)
    assert score.reasons["dimitri"] == ("0 voted for slot 2, the trapped card",)
    assert score.reasons["lea"] == ("0 alone on slot 9",)


def test_rulebook_004_party_example_six_players() -> None:
    # Three on card 2 score 3 each; one alone on card 3 scores 0; two on the trapped
    # card 6 score 0.
    six = ["ana", "ben", "cam", "dan", "eve", "fay"]
    votes = {"ana": [2], "ben": [2], "cam": [2], "dan": [3], "eve": [6], "fay": [6]}
    score = game("party", six).score(reveal(numbered(six), votes, trap=6))
    assert deltas(score) == {"ana": 3, "ben": 3, "cam": 3, "dan": 0, "eve": 0, "fay": 0}


def test_party_is_uncapped() -> None:
    votes = {p: [3] for p in NINE[:6]} | {"dimitri": [2], "mathilde": [2], "lea": [9]}
    score = game("party", NINE).score(reveal(numbered(NINE), votes, trap=2))
    assert score.deltas["tom"] == 6


def test_players_may_vote_for_their_own_card() -> None:
    six = ["ana", "ben", "cam", "dan", "eve", "fay"]
    votes = {"ana": [1], "ben": [1], "cam": [1], "dan": [1], "eve": [1], "fay": [1]}
    score = game("party", six).score(reveal(numbered(six), votes, trap=2))
    assert set(score.deltas.values()) == {6}


def test_storyteller_may_trap_the_slot_they_voted_for() -> None:
    six = ["ana", "ben", "cam", "dan", "eve", "fay"]
    votes = {"ana": [4], "ben": [4], "cam": [4], "dan": [2], "eve": [2], "fay": [2]}
    score = game("party", six).score(reveal(numbered(six), votes, trap=4))
    assert deltas(score) == {"ana": 0, "ben": 0, "cam": 0, "dan": 3, "eve": 3, "fay": 3}
    assert all(a.kind is AwardKind.POPULARITY for awards in score.awards.values() for a in awards)


def test_the_cap_is_the_bonus_cap_option() -> None:
    votes = {p: [3] for p in NINE[:6]} | {"dimitri": [2], "mathilde": [2], "lea": [9]}
    score = game("party", NINE, bonus_cap=4).score(reveal(numbered(NINE), votes, trap=2))
    assert score.deltas["tom"] == 4
