"""Mistakes at a real table, through the whole reader: rendered frames of the small
board, read by `TableReader`, turned into a round by `read_table`.

tests/session/test_table.py checks `read_table` on observations written by hand, and the
loop test follows one dial laid on its owner's card; here the codes really lie on the
simulated table and are decoded: other QR codes (a menu, a product, a tag-like text
with a wrong check character), a neighbouring table's dial, owner tokens on the wrong
card, a dial on its voter's own card. Each is ignored or named by player and slot, the
round is not ready while it is wrong, and the table put right scores as laid.
"""

import dataclasses
import functools
import math

import numpy as np
import pytest

from companion.kit.layouts import Point
from companion.kit.tags import CHECK_ALPHABET, KitTag, Role
from companion.phrases import Phrase
from companion.rules import Game
from companion.session.table import TableReport, read_table
from companion.sim import ForeignCode, Placement, Scene, render, round_scene
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader
from tests.rules.reference import reference_deltas
from tests.session.table_frames import LINEUP, RULESET
from tests.vision.scenes import KIT, MILD, POSE, calibration, layout

GAME = Game.start(RULESET, LINEUP.names, "Ann")
NEIGHBOUR = "NEXT2"
"""The kit id of the next table's box."""


@functools.cache
def laid() -> Scene:
    """Round 1 laid out legally: Ann tells, Ben, Cleo and Dan vote."""
    colours = LINEUP.colour_by_player
    return round_scene(layout(), KIT, GAME, np.random.default_rng(11), colours)


def report(scene: Scene) -> TableReport:
    """The scene rendered, read as one camera frame, and judged as round 1."""
    frame = render(scene, POSE, MILD, np.random.default_rng(5))
    reader = TableReader(calibration(), layout(), make_decoder())
    return read_table(reader.read(frame.image).observation, GAME, LINEUP)


def english(phrases: tuple[Phrase, ...]) -> tuple[str, ...]:
    """The phrases as an English-speaking table shows them."""
    return tuple(str(p) for p in phrases)


def token(scene: Scene, role: Role, player: str) -> int:
    """The index in the scene of the player's first token of a role."""
    colour = LINEUP.colour_of(player)
    return next(
        i for i, p in enumerate(scene.tokens) if (p.tag.role, p.tag.colour) == (role, colour)
    )


def free_spot(scene: Scene, slot: int) -> Point:
    """A point on the slot's card well clear of every token and the card's edges."""
    x0, y0, x1, y1 = next(s.card_mm for s in layout().slots if s.slot == slot)
    spots = [
        (x, y) for x in np.linspace(x0 + 20, x1 - 20, 8) for y in np.linspace(y0 + 20, y1 - 20, 12)
    ]
    return max(spots, key=lambda s: min(math.dist(s, p.center_mm) for p in scene.tokens))


def moved(scene: Scene, index: int, slot: int) -> Scene:
    tokens = list(scene.tokens)
    tokens[index] = dataclasses.replace(tokens[index], center_mm=free_spot(scene, slot))
    return dataclasses.replace(scene, tokens=tuple(tokens))


def slot_of(player: str) -> int:
    reveal = laid().reveal
    assert reveal is not None
    return reveal.slots_of(player)[0]


def test_the_table_as_laid_is_ready_and_scores_as_the_reference() -> None:
    read = report(laid())
    assert read.ready and read.problems == read.alerts == read.notes == ()
    assert read.reveal == laid().reveal
    assert dict(GAME.score(read.reveal).deltas) == reference_deltas(GAME, read.reveal)


def test_foreign_qr_codes_are_noted_and_never_counted() -> None:
    dial = KitTag(KIT, Role.VOTE, colour="blue", index=1).text
    wrong_check = dial[:-1] + next(c for c in CHECK_ALPHABET if c != dial[-1])
    codes = (
        ForeignCode("https://cafe.example/menu", (70.0, 225.0), 30.0),
        ForeignCode("4006381333931", (280.0, 225.0), 30.0, 20.0),
        ForeignCode(wrong_check, free_spot(laid(), slot_of("Dan")), 24.0, 35.0),
    )
    read = report(dataclasses.replace(laid(), foreign=codes))
    assert english(read.notes) == ("3 QR codes in view that the companion ignores",)
    assert read.alerts == read.problems == ()
    assert read.ready
    assert read.reveal == laid().reveal


def test_a_neighbours_dial_on_our_card_is_named_and_not_counted() -> None:
    stray = KitTag(NEIGHBOUR, Role.VOTE, colour="blue", index=1)
    lying = Placement(stray, free_spot(laid(), slot_of("Dan")), 15.0)
    read = report(dataclasses.replace(laid(), tokens=(*laid().tokens, lying)))
    assert english(read.alerts) == (f"a tag of another kit ({NEIGHBOUR}) is on the table",)
    assert read.reveal == laid().reveal
    assert read.ready


def test_a_neighbours_dial_in_place_of_ours_leaves_our_vote_missing_until_swapped() -> None:
    ours = token(laid(), Role.VOTE, "Ben")
    tokens = list(laid().tokens)
    theirs = KitTag(NEIGHBOUR, Role.VOTE, colour=LINEUP.colour_of("Ben"), index=1)
    tokens[ours] = dataclasses.replace(tokens[ours], tag=theirs)
    read = report(dataclasses.replace(laid(), tokens=tuple(tokens)))
    assert english(read.alerts) == (f"a tag of another kit ({NEIGHBOUR}) is on the table",)
    assert english(read.waiting) == ("waiting for votes from Ben",)
    assert not read.ready
    assert "Ben" not in read.reveal.votes


@pytest.mark.parametrize(
    ("mistake", "player", "onto"),
    [("owner token", "Dan", "Cleo"), ("own card", "Cleo", "Cleo")],
    ids=["two owner tokens on one card", "a dial on its voter's own card"],
)
def test_a_token_on_the_wrong_card_is_named_then_put_right_scores_as_laid(
    mistake: str, player: str, onto: str
) -> None:
    role = Role.OWNER if mistake == "owner token" else Role.VOTE
    slot = slot_of(onto)
    read = report(moved(laid(), token(laid(), role, player), slot))
    assert not read.ready
    if role is Role.OWNER:
        pair = sorted([player, onto], key=LINEUP.names.index)
        assert (
            f"2 owner tokens on slot {slot} ({pair[0]} and {pair[1]}): one card has one owner"
            in english(read.problems)
        )
        (owners,) = [line for line in english(read.waiting) if "owner" in line]
        assert owners.startswith("owner token") and player in owners
    else:
        assert english(read.problems) == (f"{player} voted for slot {slot}, their own card",)

    fixed = report(laid())
    assert fixed.ready
    assert fixed.reveal == laid().reveal
    assert dict(GAME.score(fixed.reveal).deltas) == reference_deltas(GAME, fixed.reveal)
