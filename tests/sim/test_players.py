"""The demo's simulated players: how they take their seats at the setup screen."""

import itertools

import numpy as np

from companion.kit.layouts import load_layout
from companion.kit.tags import Role
from companion.rules import Game, find_ruleset
from companion.sim import Lay, Scene
from companion.sim.players import DemoPlayers, Moment

KIT = "DEMO1"
BOARD = "classic-8"
SEATS = {"Ann": "red", "Ben": "blue", "Cleo": "green", "Dan": "yellow"}
FRAMES = 60
"""Frames watched: long enough for every seat to be taken."""


def seating(frames: int = FRAMES) -> list[Lay]:
    """What the players lay, frame after frame, while the seats step is on the screen."""
    laid: list[Lay] = []
    players = DemoPlayers(
        laid.append, load_layout(BOARD), KIT, SEATS, np.random.default_rng(3), mistakes=0.0
    )
    game = Game.start(find_ruleset("odyssey"), tuple(SEATS), "Ann")
    for _ in range(frames):
        players.act(Moment.SEATING, game, None)
    return laid


def owners(scene: Scene) -> list[tuple[str | None, int | None]]:
    """Each owner token's colour and the slot whose card it lies on, in laying order."""
    return [
        (p.tag.colour, scene.layout.slot_at(p.center_mm))
        for p in scene.tokens
        if p.tag.role is Role.OWNER
    ]


def test_the_table_is_left_empty_before_anybody_takes_a_seat() -> None:
    first = seating()[0]
    assert first.scene.tokens == ()
    assert not any(first.scene.cards.values())


def test_each_player_lays_an_owner_token_alone_on_a_card_slot_1_first_in_seat_order() -> None:
    last = seating()[-1].scene
    assert owners(last) == [("red", 1), ("blue", 2), ("green", 3), ("yellow", 4)]
    assert {slot for slot, card in last.cards.items() if card} == {1, 2, 3, 4}
    assert all(p.tag.role is Role.OWNER for p in last.tokens)


def test_the_seats_fill_one_token_at_a_time_and_then_hold_still() -> None:
    laid = seating()
    counts = [len(lay.scene.tokens) for lay in laid]
    grown = [b - a for a, b in itertools.pairwise(counts)]
    assert set(grown) <= {0, 1}
    assert counts[-1] == len(SEATS)
    settled = laid[counts.index(len(SEATS)) + 1 :]
    assert settled and all(lay == laid[-1] and lay.hands == 0 for lay in settled)
    assert any(lay.hands for lay in laid), "a hand passes over the board as tokens go down"
