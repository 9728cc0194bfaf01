"""Shadows of players' arms thrown across the board by the café's lamps.

An arm held over the table (reaching for a card, pointing at one) takes a broad band
of light off the board: a soft-edged stripe from one side of the frame, darker in
its middle. The board's tags and the tokens under it are still there, only dimmer.
"""

import math
from dataclasses import dataclass

import numpy as np

from companion.sim.camera import View
from companion.sim.pixels import Canvas, Rect, cell_centres, scaled, stretched
from companion.sim.scene import Scene

ARM_WIDTH_MM = 90.0
"""How wide an arm's shadow is on the board."""
SOFTNESS_MM = 25.0
"""How soft its edges are (the lamps are large and far)."""
DEPTH = (0.35, 0.55)
"""How much light it takes away in its middle."""
COARSE = 8
"""A shadow is worked out every this many pixels and stretched: it has no sharp edge."""


@dataclass(frozen=True)
class ArmShadow:
    """A soft stripe of shadow from the frame's edge to a point over the board."""

    start: tuple[float, float]
    """Where it enters, in frame pixels (beyond the frame's edge)."""
    end: tuple[float, float]
    """Where the shadow of the hand ends, in frame pixels."""
    half_width: float
    """Half its width, in pixels."""
    softness: float
    """How soft its edges are, in pixels."""
    depth: float
    """Share of the light it takes away in its middle."""

    @property
    def bounds(self) -> Rect:
        """The frame rectangle it darkens, its soft edges included."""
        reach = self.half_width + 3 * self.softness
        xs, ys = (self.start[0], self.end[0]), (self.start[1], self.end[1])
        return (
            math.floor(min(xs) - reach),
            math.floor(min(ys) - reach),
            math.ceil(max(xs) + reach) + 1,
            math.ceil(max(ys) + reach) + 1,
        )

    def draw(self, canvas: Canvas) -> None:
        """Darken what lies under the stripe."""
        box = canvas.clip(self.bounds)
        if box is None:
            return
        x0, y0, x1, y1 = box
        xs, ys = cell_centres(box, COARSE)
        apart = _distance_to_segment(xs, ys, self.start, self.end)
        dark = self.depth * _soft_step((self.half_width - apart) / self.softness)
        light = np.asarray((1.0 - dark) * 255, np.float32)
        gain = np.rint(stretched(light, COARSE, (x1 - x0, y1 - y0))).astype(np.uint8)
        region = canvas.part(box)
        region[:] = scaled(region, gain)


def _distance_to_segment(
    xs: np.ndarray, ys: np.ndarray, start: tuple[float, float], end: tuple[float, float]
) -> np.ndarray:
    (ax, ay), (bx, by) = start, end
    length = max((bx - ax) ** 2 + (by - ay) ** 2, 1e-9)
    t = np.clip(((xs - ax) * (bx - ax) + (ys - ay) * (by - ay)) / length, 0.0, 1.0)
    return np.asarray(np.hypot(xs - (ax + t * (bx - ax)), ys - (ay + t * (by - ay))))


def _soft_step(x: np.ndarray) -> np.ndarray:
    """0 well outside an edge, 1 well inside, a smooth ramp across it."""
    return np.asarray(0.5 * (1.0 + np.tanh(x)))


def arm_shadows(count: int, scene: Scene, view: View, rng: np.random.Generator) -> list[ArmShadow]:
    """Shadows of arms reaching from the frame's edges to random points of the board."""
    cols, rows = view.pose.frame_px
    board_w, board_h = scene.layout.board_mm
    shadows = []
    for _ in range(count):
        target = (board_w * float(rng.uniform(0.2, 0.8)), board_h * float(rng.uniform(0.2, 0.8)))
        end = view.project([target])[0]
        along = float(rng.uniform(0.2, 0.8))
        entry = [
            (along * cols, -0.3 * rows),
            (1.3 * cols, along * rows),
            (along * cols, 1.3 * rows),
            (-0.3 * cols, along * rows),
        ][int(rng.integers(4))]
        scale = view.px_per_mm(target)
        shadows.append(
            ArmShadow(
                (float(entry[0]), float(entry[1])),
                (float(end[0]), float(end[1])),
                ARM_WIDTH_MM / 2 * scale,
                SOFTNESS_MM * scale,
                float(rng.uniform(*DEPTH)),
            )
        )
    return shadows
