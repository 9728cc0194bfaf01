"""The game state machine: rotation, hands, piles, end of game, winners, undo."""

import pytest

from companion.errors import GameOverError, NothingToUndoError
from companion.rules import Game, Piles, Reveal, Termination
from tests.rules.helpers import game, numbered, reveal

FOUR = ["red", "blue", "green", "pink"]


def nobody_finds(g: Game) -> Reveal:
    """A legal classic round in which every voter votes the next seat's card, nobody
    finding the storyteller's: 0 for the storyteller, 2 + 1 for every voter."""
    players = g.seating.players
    votes = {}
    for seat, player in enumerate(players):
        if player != g.storyteller:
            target = players[(seat + 1) % len(players)]
            if target == g.storyteller:
                target = players[(seat + 2) % len(players)]
            votes[player] = [players.index(target) + 1]
    return reveal(numbered(players), votes)


def test_storyteller_rotates_clockwise_from_the_first() -> None:
    g = game("classic", FOUR, first="green")
    tellers = []
    for _ in range(5):
        tellers.append(g.storyteller)
        g = g.play(nobody_finds(g))
    assert tellers == ["green", "pink", "red", "blue", "green"]
    assert [p.score.round.storyteller for p in g.played] == tellers


@pytest.mark.parametrize(
    ("ruleset", "players", "hand", "laid"),
    [
        ("classic", 3, 7, 5),
        ("classic", 6, 6, 6),
        ("classic-1e", 3, 7, 5),
        ("odyssey", 3, 7, 5),
        ("odyssey", 12, 6, 12),
        ("party-1e", 8, 5, 8),
        ("party", 8, 4, 8),
        ("teams-1e", 6, 4, 4),
        ("teams", 8, 4, 5),
        ("teams", 12, 4, 7),
    ],
)
def test_hand_sizes_and_cards_laid_per_round(
    ruleset: str, players: int, hand: int, laid: int
) -> None:
    g = game(ruleset, [f"p{i}" for i in range(players)])
    assert (g.hand_size, g.cards_per_round) == (hand, laid)


def test_draw_pile_after_dealing_and_each_round() -> None:
    g = game("classic", FOUR)
    assert g.piles == Piles(draw=84 - 24, discard=0)
    g = g.play(nobody_finds(g))
    assert g.piles == Piles(draw=56, discard=4)


def test_discard_is_reshuffled_when_the_draw_pile_runs_short() -> None:
    g = game("classic", FOUR, deck=30)  # 24 dealt, 6 in the draw pile
    g = g.play(nobody_finds(g))
    assert g.piles == Piles(draw=2, discard=4)
    g = g.play(nobody_finds(g))  # 2 left, 4 needed: 2 + 8 discarded reshuffled, 4 drawn
    assert g.piles == Piles(draw=6, discard=0)
    assert g.outcome is None


@pytest.mark.parametrize(("players", "rounds"), [(3, 13), (4, 15), (5, 11), (6, 8)])
def test_classic_1e_ends_in_the_round_the_draw_pile_runs_out(players: int, rounds: int) -> None:
    # 84 cards; 3 players hold 7 and lay 5 a round (63 left: 13 rounds), 4 players
    # 60 left at 4 a round (15), 5 players 54 at 5 (11, the last one short), 6: 48 at 6 (8).
    g = game("classic-1e", [f"p{i}" for i in range(players)])
    while g.outcome is None:
        g = g.play(_legal_classic(g))
    assert g.outcome.after_round == rounds
    assert g.outcome.termination is Termination.DRAW_PILE
    assert g.piles.draw == 0


def test_classic_1e_deck_is_an_option() -> None:
    g = game("classic-1e", FOUR, deck=168)  # base box and one expansion: 144 left, 36 rounds
    while g.outcome is None:
        g = g.play(nobody_finds(g))
    assert g.outcome.after_round == 36


def _legal_classic(g: Game) -> Reveal:
    """Any legal round of a storyteller ruleset: each voter votes the storyteller's card
    if they can, so rounds score 0/2 (everybody found) and the game runs on the deck."""
    n = len(g.seating)
    cards: dict[int, str] = {1: g.storyteller}
    for player in g.seating.players:
        if player != g.storyteller:
            for _ in range(2 if n == 3 else 1):
                cards[len(cards) + 1] = player
    return reveal(cards, {p: [1] for p in g.seating.players if p != g.storyteller})


def test_target_ends_the_game_at_the_end_of_the_round() -> None:
    g = game("classic", FOUR, target=6)
    rounds = 0
    while g.outcome is None:
        g = g.play(nobody_finds(g))
        rounds += 1
    # Each round every voter scores 3 (2 + a vote); the storyteller 0.
    assert rounds == 2
    assert g.outcome.termination is Termination.TARGET
    assert dict(g.totals) == {"red": 3, "blue": 3, "green": 6, "pink": 6}
    assert g.outcome.winners == ("green", "pink")


def test_ties_share_the_win() -> None:
    g = game("party-1e", ["ana", "ben", "cam", "dan", "eve", "fay"])
    votes = {"ana": [1], "ben": [1], "cam": [1], "dan": [2], "eve": [2], "fay": [2]}
    for _ in range(6):
        g = g.play(reveal(numbered(g.seating.players), votes, trap=3))
    assert g.outcome is not None
    assert g.outcome.winners == ("ana", "ben", "cam", "dan", "eve", "fay")
    assert g.outcome.termination is Termination.STORYTELLER_TURNS


def test_storyteller_turns_is_an_option() -> None:
    six = ["ana", "ben", "cam", "dan", "eve", "fay"]
    votes = {"ana": [1], "ben": [1], "cam": [2], "dan": [2], "eve": [2], "fay": [2]}
    g = game("party-1e", six, storyteller_turns=2)
    while g.outcome is None:
        g = g.play(reveal(numbered(six), votes, trap=3))
    assert g.outcome.after_round == 12
    assert g.outcome.winners == ("cam", "dan", "eve", "fay")


def test_round_limit_ends_the_game_after_that_many_rounds() -> None:
    g = game("classic", FOUR, target=None, round_limit=3)
    while g.outcome is None:
        g = g.play(nobody_finds(g))
    assert g.outcome.after_round == 3
    assert g.outcome.termination is Termination.ROUND_LIMIT
    with pytest.raises(GameOverError) as caught:
        g.play(nobody_finds(g))
    assert str(caught.value) == (
        "round 4: the game ended after round 3 (the round limit was reached)"
    )


def test_target_reached_in_the_last_allowed_round_ends_by_the_target() -> None:
    g = game("classic", FOUR, target=6, round_limit=2)
    while g.outcome is None:
        g = g.play(nobody_finds(g))
    assert g.outcome.after_round == 2
    assert g.outcome.termination is Termination.TARGET


def test_storyteller_turns_ending_in_the_last_allowed_round_come_first() -> None:
    six = ["ana", "ben", "cam", "dan", "eve", "fay"]
    votes = {"ana": [1], "ben": [1], "cam": [2], "dan": [2], "eve": [2], "fay": [2]}
    g = game("party-1e", six, round_limit=6)
    while g.outcome is None:
        g = g.play(reveal(numbered(six), votes, trap=3))
    assert g.outcome.after_round == 6
    assert g.outcome.termination is Termination.STORYTELLER_TURNS


def test_round_limit_shorter_than_the_rotation_ends_the_game_first() -> None:
    six = ["ana", "ben", "cam", "dan", "eve", "fay"]
    votes = {"ana": [1], "ben": [1], "cam": [2], "dan": [2], "eve": [2], "fay": [2]}
    g = game("party-1e", six, round_limit=4)
    while g.outcome is None:
        g = g.play(reveal(numbered(six), votes, trap=3))
    assert g.outcome.after_round == 4
    assert g.outcome.termination is Termination.ROUND_LIMIT


def test_first_edition_draw_pile_still_ends_a_game_with_a_longer_round_limit() -> None:
    g = game("classic-1e", FOUR, round_limit=50)
    while g.outcome is None:
        g = g.play(nobody_finds(g))
    assert g.outcome.termination is Termination.DRAW_PILE


def test_no_round_limit_by_default() -> None:
    assert all(game(name, FOUR).ruleset.round_limit is None for name in ("classic", "odyssey"))


def test_every_termination_has_words_that_read_as_its_value() -> None:
    for termination in Termination:
        assert str(termination.words) == termination.value


def test_undo_restores_the_game_before_the_last_round() -> None:
    start = game("classic", FOUR)
    once = start.play(nobody_finds(start))
    twice = once.play(nobody_finds(once))
    assert twice.undo() == once
    assert twice.undo().undo() == start
    assert once.undo().storyteller == "red"


def test_undo_reopens_a_finished_game() -> None:
    g = game("classic", FOUR, target=3)
    g = g.play(nobody_finds(g))
    assert g.outcome is not None
    assert g.undo().outcome is None


def test_undo_with_nothing_played() -> None:
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        game("classic", FOUR).undo()


def test_totals_start_at_zero_for_every_scorer() -> None:
    assert dict(game("teams", [f"p{i}" for i in range(8)]).totals) == {
        "p0+p4": 0,
        "p1+p5": 0,
        "p2+p6": 0,
        "p3+p7": 0,
    }
