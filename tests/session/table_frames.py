"""Camera frames of one simulated round at a 4-player table, for driving the loop.

The frames are drawn once per test session on the small 4-slot board and written
as JPEG files, so the loop reads them through the real folder replay source, as it
would read a recorded game.
"""

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.kit.tags import Role
from companion.rules import Game, Reveal, find_ruleset
from companion.session.lineup import Lineup
from companion.sim import Scene, render, round_scene
from tests.vision.scenes import KIT, MILD, POSE, layout

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
RULESET = find_ruleset("odyssey")


@dataclass(frozen=True)
class RoundFrames:
    """JPEG bytes of the table at each moment of round 1, and what was laid."""

    empty: bytes
    """The board with no card and no token."""
    owners: bytes
    """Cards with their owner tokens, no votes yet."""
    mistake: bytes
    """Every token, but one voter's dial on their own card."""
    full: bytes
    """The round as laid, legal."""
    reveal: Reveal
    """What the full table stands for."""
    wrong_voter: str
    """Who put their dial on their own card in `mistake`."""


@functools.cache
def round_one() -> RoundFrames:
    """Round 1 with Ann telling, drawn once."""
    board = layout()
    rng = np.random.default_rng(11)
    game = Game.start(RULESET, LINEUP.names, "Ann")
    colours = LINEUP.colour_by_player
    full = round_scene(board, KIT, game, rng, colours)
    assert full.reveal is not None
    owners = tuple(p for p in full.tokens if p.tag.role is Role.OWNER)
    wrong, voter = _own_card_vote(full)

    def jpeg(scene: Scene) -> bytes:
        image = render(scene, POSE, MILD, np.random.default_rng(5)).image
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        assert ok
        return bytes(data.tobytes())

    return RoundFrames(
        empty=jpeg(Scene(board, KIT)),
        owners=jpeg(dataclasses.replace(full, tokens=owners)),
        mistake=jpeg(wrong),
        full=jpeg(full),
        reveal=full.reveal,
        wrong_voter=voter,
    )


def _own_card_vote(full: Scene) -> tuple[Scene, str]:
    """The table with the first voter who has a card voting on it instead."""
    assert full.reveal is not None
    for i, placement in enumerate(full.tokens):
        tag = placement.tag
        player = LINEUP.player_of(tag.colour or "")
        if tag.role is not Role.VOTE or player is None or not full.reveal.slots_of(player):
            continue
        spec = next(s for s in layout().slots if s.slot == full.reveal.slots_of(player)[0])
        x0, y0, x1, y1 = spec.card_mm
        tokens = list(full.tokens)
        tokens[i] = dataclasses.replace(placement, center_mm=((x0 + x1) / 2, (y0 + y1) / 2))
        others = [
            p for j, p in enumerate(tokens) if j != i and _near(p.center_mm, tokens[i].center_mm)
        ]
        if others:
            continue
        return dataclasses.replace(full, tokens=tuple(tokens)), player
    raise AssertionError("no voter with a card of their own to misplace a dial on")


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 40 and abs(a[1] - b[1]) < 40


def write_frames(folder: Path, sequence: list[bytes]) -> None:
    """One file per frame, named in replay order."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, data in enumerate(sequence):
        (folder / f"frame-{i:04d}.jpg").write_bytes(data)
