"""Correcting a past round: the game rescored from there, or a rules error naming why not."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import CorrectionError, OwnCardVoteError
from companion.rules import Game, Reveal
from tests.rules.helpers import game, numbered, reveal
from tests.rules.strategies import games, legal_reveals

FOUR = ["red", "blue", "green", "pink"]


def everyone_finds(g: Game) -> Reveal:
    """Every voter on the storyteller's card: 0 for the storyteller, 2 for each voter."""
    players = g.seating.players
    slot = players.index(g.storyteller) + 1
    return reveal(numbered(players), {p: [slot] for p in players if p != g.storyteller})


def test_a_corrected_round_rescores_it_and_every_later_round() -> None:
    g = game("classic", FOUR)
    for _ in range(3):
        g = g.play(everyone_finds(g))
    assert dict(g.totals) == {"red": 4, "blue": 4, "green": 4, "pink": 6}
    first = g.played[0].score.round.reveal
    blue_misses = Reveal(first.cards, {**first.votes, "blue": (3,)})
    fixed = g.corrected(1, blue_misses)
    assert [p.score.round.reveal for p in fixed.played[1:]] == [
        p.score.round.reveal for p in g.played[1:]
    ]
    assert dict(fixed.played[0].score.deltas) == {"red": 3, "blue": 0, "green": 4, "pink": 3}
    assert dict(fixed.totals) == {"red": 7, "blue": 2, "green": 6, "pink": 7}


def test_an_illegal_correction_raises_the_rules_own_error() -> None:
    g = game("classic", FOUR)
    g = g.play(everyone_finds(g))
    first = g.played[0].score.round.reveal
    with pytest.raises(OwnCardVoteError):
        g.corrected(1, Reveal(first.cards, {**first.votes, "blue": (2,)}))


def test_a_correction_after_which_a_later_round_cannot_be_played_is_refused() -> None:
    g = game("classic", FOUR, target=4)
    g = g.play(everyone_finds(g))
    g = g.play(everyone_finds(g))
    assert g.outcome is not None
    first = g.played[0].score.round.reveal
    blue_reaches_five = Reveal(first.cards, {"blue": (1,), "green": (2,), "pink": (2,)})
    with pytest.raises(CorrectionError) as caught:
        g.corrected(1, blue_reaches_five)
    assert str(caught.value).startswith(
        "with round 1 corrected, round 2 could not have been played (round 2: the game ended "
        "after round 1"
    )


@pytest.mark.parametrize("number", [0, 2, -1])
def test_a_round_that_was_not_played_cannot_be_corrected(number: int) -> None:
    g = game("classic", FOUR)
    g = g.play(everyone_finds(g))
    with pytest.raises(CorrectionError, match=f"there is no round {number} to correct"):
        g.corrected(number, everyone_finds(g))


@given(st.data())
def test_correcting_a_round_to_itself_changes_nothing(data: st.DataObject) -> None:
    g = data.draw(games())
    for _ in range(data.draw(st.integers(1, 5), label="rounds")):
        if g.outcome is not None:
            break
        g = g.play(data.draw(legal_reveals(g)))
    number = data.draw(st.integers(1, len(g.played)), label="round")
    assert g.corrected(number, g.played[number - 1].score.round.reveal) == g
