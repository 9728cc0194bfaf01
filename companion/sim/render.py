"""Drawing a simulated camera frame of a scene, with the ground truth of every code in it.

`render` only puts the pieces together: the table (`table`), the codes
(`codes`), hands (`hands`), glare and the camera's effects (`effects`),
and the truth (`truth`). Its order is fixed because every random draw comes from
one generator: the same seed must give the same frame, pixel for pixel.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.errors import SettingError
from companion.sim.camera import CameraPose, Matrix
from companion.sim.codes import PrintedCode, draw_code, scene_codes
from companion.sim.effects import Conditions, draw_glare, through_camera
from companion.sim.hands import draw_hands
from companion.sim.pixels import Image
from companion.sim.scene import Scene
from companion.sim.table import paint_table
from companion.sim.truth import SimTruth, tag_truths


@dataclass(frozen=True, eq=False)
class SimFrame:
    """A simulated camera frame and its truth."""

    image: Image
    """The frame: BGR, uint8, (height, width, 3)."""
    truth: SimTruth
    """What it shows."""


def render(
    scene: Scene, pose: CameraPose, conditions: Conditions, rng: np.random.Generator
) -> SimFrame:
    """The frame a camera at `pose` takes of `scene` in `conditions`, with its truth.

    Everything random (card pictures, hands, glare, noise) comes from `rng`, so a
    generator seeded alike gives the same frame, pixel for pixel.
    """
    board_to_px = pose.homography(scene.layout.board_mm)
    codes = scene_codes(scene)
    _check_in_front(board_to_px, scene, codes)
    frame = paint_table(scene, pose, board_to_px, rng)
    for code in codes:
        draw_code(frame, code, board_to_px)
    hands = draw_hands(frame, conditions.hands, scene, board_to_px, rng)
    spots = draw_glare(frame, conditions, scene, board_to_px, rng)
    truth = SimTruth(scene, pose, board_to_px, tag_truths(codes, board_to_px, frame, hands, spots))
    return SimFrame(through_camera(frame, conditions, rng), truth)


def _check_in_front(board_to_px: Matrix, scene: Scene, codes: Sequence[PrintedCode]) -> None:
    """Refuse a pose that puts part of the board or a code behind the camera, where
    the homography would fold it back into the frame."""
    width, height = scene.layout.board_mm
    points = [np.array([(0, 0), (width, 0), (width, height), (0, height)])]
    points += [code.square for code in codes]
    depths = np.column_stack([np.vstack(points), np.ones(sum(len(p) for p in points))])
    if (depths @ board_to_px[2] <= 0).any():
        raise SettingError("the camera must see the whole board and every code in front of it")
