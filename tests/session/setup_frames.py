"""Camera frames of a table being set up, and of the rounds of a short game, for
driving the loop through the setup steps.

Players take their seats by laying an owner token on a card of the small 4-slot
board; a short game is laid out round after round as its players would. The frames
are drawn once per test session with the simulator and replayed from JPEG files, so
the loop reads them as it would read a recorded game.
"""

import functools

import cv2
import numpy as np

from companion.kit.layouts import Point
from companion.kit.tags import KitTag, Role
from companion.rules import Game, Reveal, Ruleset
from companion.session.lineup import Lineup
from companion.sim import Placement, Scene, render, round_scene
from tests.vision.scenes import KIT, MILD, POSE, layout

APART_MM = (28.0, 35.0)
"""How far from the card's middle each of two tokens on one card lies: far enough
apart that they never touch."""


def jpeg(scene: Scene) -> bytes:
    """The scene as the camera would see it, as a JPEG file's bytes."""
    image = render(scene, POSE, MILD, np.random.default_rng(5)).image
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return bytes(data.tobytes())


@functools.cache
def empty() -> bytes:
    """The board with no card and no token."""
    return jpeg(Scene(layout(), KIT))


@functools.cache
def owners(*seats: tuple[int, str]) -> bytes:
    """A card on each slot named, with the owner tokens of `seats`, (slot, colour)
    pairs; the first token on a card lies above its middle, a second one below."""
    board = layout()
    placements: list[Placement] = []
    laid: dict[int, int] = {}
    for slot, colour in seats:
        spec = next(s for s in board.slots if s.slot == slot)
        x0, y0, x1, y1 = spec.card_mm
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        side = -1 if laid.get(slot, 0) == 0 else 1
        laid[slot] = laid.get(slot, 0) + 1
        where: Point = (middle[0] + side * APART_MM[0], middle[1] + side * APART_MM[1])
        tag = KitTag(KIT, Role.OWNER, colour=colour, index=1)
        placements.append(Placement(tag, where, 10.0))
    cards = dict.fromkeys(laid, True)
    return jpeg(Scene(board, KIT, cards, tuple(placements)))


@functools.cache
def game_rounds(rules: Ruleset, lineup: Lineup, first: str, count: int) -> tuple[bytes, ...]:
    """The table laid out for each of the first `count` rounds of a game, no two rounds
    alike (a table read as the last round kept is never proposed, even in the next game
    of the same players)."""
    board = layout()
    rng = np.random.default_rng(23)
    game = Game.start(rules, lineup.names, first)
    frames: list[bytes] = []
    laid: list[Reveal] = []
    for _ in range(count):
        scene = round_scene(board, KIT, game, rng, lineup.colour_by_player)
        while scene.reveal in laid:
            scene = round_scene(board, KIT, game, rng, lineup.colour_by_player)
        assert scene.reveal is not None
        frames.append(jpeg(scene))
        game = game.play(scene.reveal)
        laid.append(scene.reveal)
    return tuple(frames)
