"""Playing many rounds at once: the same game as playing them one by one, built in time
linear in the rounds (a game file or an import of thousands of rounds)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalRoundError
from companion.rules import Game, Reveal
from tests.rules.helpers import game, reveal
from tests.rules.strategies import games, legal_reveals

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


@st.composite
def games_with_reveals(draw: st.DrawFn) -> tuple[Game, list[Reveal]]:
    start = draw(games())
    reveals: list[Reveal] = []
    played = start
    for _ in range(draw(st.integers(0, 8))):
        if played.outcome is not None:
            break
        step = draw(legal_reveals(played))
        reveals.append(step)
        played = played.play(step)
    return start, reveals


def long_game(start: Game, rounds: int) -> list[Reveal]:
    """Rounds in which one player finds the storyteller's card and the others vote for
    that player's card."""
    reveals = []
    played = start
    for _ in range(rounds):
        slots = {player: slot for slot, player in enumerate(PLAYERS, start=1)}
        finder, *others = [p for p in PLAYERS if p != played.storyteller]
        votes = {finder: [slots[played.storyteller]], **{p: [slots[finder]] for p in others}}
        step = reveal({slot: player for player, slot in slots.items()}, votes)
        reveals.append(step)
        played = played.play(step)
    return reveals


@settings(max_examples=60, deadline=None)
@given(games_with_reveals())
def test_playing_all_at_once_is_playing_one_by_one(case: tuple[Game, list[Reveal]]) -> None:
    start, reveals = case
    one_by_one = start
    for step in reveals:
        one_by_one = one_by_one.play(step)
    assert start.play_all(reveals) == one_by_one


def test_playing_all_makes_one_game_whatever_the_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each `play` makes a new game holding a copy of the rounds before it; `play_all`
    makes one, so what it costs is the rounds' scoring alone."""
    start = game("classic", PLAYERS, target=1_000_000)
    reveals = long_game(start, 40)
    made: list[Game] = []
    checked = Game.__post_init__

    def counted(self: Game) -> None:
        made.append(self)
        checked(self)

    monkeypatch.setattr(Game, "__post_init__", counted)
    played = start.play_all(reveals)
    assert len(played.played) == 40
    assert made == [played]


def test_an_illegal_round_among_many_raises_its_own_error() -> None:
    start = game("classic", PLAYERS, target=1_000_000)
    reveals = long_game(start, 5)
    own_card = reveal(
        {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan"}, {"Bob": [2], "Cat": [1], "Dan": [1]}
    )
    with pytest.raises(IllegalRoundError):
        start.play_all([*reveals[:3], own_card, *reveals[3:]])
