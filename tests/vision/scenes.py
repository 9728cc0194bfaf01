"""Simulated tables for the reader's tests: a small board that renders quickly."""

import dataclasses
import functools
from pathlib import Path

import numpy as np

from companion.colours import COLOURS
from companion.kit.layouts import Layout, load_layout
from companion.rules import Game, find_ruleset
from companion.sim import CameraPose, Conditions, Scene, SimFrame, render, round_scene
from companion.vision.calibration import Calibration, calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import to_gray

KIT = "CAFE1"
LAYOUT_NAME = str(Path(__file__).with_name("small-4.json"))
"""A compact 4-slot board of a café's own, so that frames render quickly."""
POSE = CameraPose(height_mm=440.0, tilt_deg=5.0, frame_px=(2304, 1296))
"""The whole board in a 2304x1296 frame, tags at about 4 px per module."""
MILD = Conditions(jpeg_quality=None)


def layout() -> Layout:
    return load_layout(LAYOUT_NAME)


def game(players: int = 4, ruleset: str = "classic") -> Game:
    names = [c.name for c in COLOURS[:players]]
    return Game.start(find_ruleset(ruleset), names, names[0])


def round_frame(seed: int, conditions: Conditions = MILD, pose: CameraPose = POSE) -> SimFrame:
    rng = np.random.default_rng(seed)
    return render(round_scene(layout(), KIT, game(), rng), pose, conditions, rng)


def empty_frame(seed: int = 0, **changes: object) -> SimFrame:
    scene = dataclasses.replace(Scene(layout(), KIT), **changes)
    return render(scene, POSE, MILD, np.random.default_rng(seed))


@functools.cache
def calibration() -> Calibration:
    return calibrate(to_gray(empty_frame().image), layout(), make_decoder(), LAYOUT_NAME)


def true_slots(frame: SimFrame) -> dict[str, int | None]:
    """Token text to the slot whose card area holds it, from the simulation."""
    return {p.tag.text: layout().slot_at(p.center_mm) for p in frame.truth.scene.tokens}
