"""Glare: light reflected straight into the lens, washing part of the frame towards white.

Two kinds: round spots where a lamp's reflection falls on the table, and the long
streak a glossy card throws when the light skims it, lying across whatever token sits
on that card. Each knows how much it washes any code, so the truth can tell a code
burnt out (no reader could read it) from one merely paled.
"""

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.sim.camera import View
from companion.sim.pixels import Canvas, Rect, cell_centres, scaled, stretched
from companion.sim.scene import Scene
from companion.vision.records import Point

STREAK_LENGTH_MM = 160.0
"""How long a card's glare streak is (the standard deviation along it, times two)."""
STREAK_WIDTH_MM = 7.0
"""How wide it is (its standard deviation across)."""
STREAK_STRENGTH = (0.45, 0.65)
"""How far towards white a streak washes at its brightest: a glossy card and a matte
token under a lamp pale a code without burning it out."""
REACH = 3.0
"""Standard deviations beyond which a glare is taken to have faded."""
COARSE = 4
"""A glare is worked out every this many pixels and stretched: it has no edges."""


@dataclass(frozen=True)
class Glare:
    """A reflection: an elliptical Gaussian wash in frame pixels."""

    center: Point
    """Its brightest point, in frame pixels."""
    sigma_along: float
    """Its spread along its length, in pixels."""
    sigma_across: float
    """Its spread across, in pixels (equal to `sigma_along` for a round spot)."""
    angle_deg: float
    """The direction of its length in the frame, clockwise from the x axis."""
    strength: float
    """Share of the way to white at its brightest."""

    @property
    def bounds(self) -> Rect:
        """The frame rectangle it washes, to where it has faded."""
        x, y = self.center
        reach = REACH * max(self.sigma_along, self.sigma_across)
        return (
            math.floor(x - reach),
            math.floor(y - reach),
            math.ceil(x + reach) + 1,
            math.ceil(y + reach) + 1,
        )

    def wash(self, xs: npt.ArrayLike, ys: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The share of the way to white at frame points."""
        turn = math.radians(self.angle_deg)
        dx = np.asarray(xs, np.float64) - self.center[0]
        dy = np.asarray(ys, np.float64) - self.center[1]
        along = dx * math.cos(turn) + dy * math.sin(turn)
        across = -dx * math.sin(turn) + dy * math.cos(turn)
        fall = (along / self.sigma_along) ** 2 + (across / self.sigma_across) ** 2
        return np.asarray(self.strength * np.exp(-fall / 2))

    def wash_on(self, quad: npt.NDArray[np.float64]) -> float:
        """The strongest wash anywhere on a quadrilateral (a code), in frame pixels."""
        corners = np.asarray(quad, np.float64)
        if cv2.pointPolygonTest(corners.astype(np.float32), self.center, False) >= 0:
            return self.strength
        steps = np.linspace(0.0, 1.0, 9)
        inside = [
            corners[0] + (corners[1] - corners[0]) * a + (corners[3] - corners[0]) * b
            for a in steps
            for b in steps
        ]
        points = np.array(inside)
        return float(self.wash(points[:, 0], points[:, 1]).max())

    def draw(self, canvas: Canvas) -> None:
        """Wash the canvas towards white."""
        box = canvas.clip(self.bounds)
        if box is None:
            return
        x0, y0, x1, y1 = box
        xs, ys = cell_centres(box, COARSE)
        coarse = np.asarray(self.wash(xs, ys) * 255, np.float32)
        wash = np.rint(stretched(coarse, COARSE, (x1 - x0, y1 - y0))).astype(np.uint8)
        region = canvas.part(box)
        whiter = scaled(cv2.bitwise_not(region), wash)
        region[:] = cv2.add(region, whiter)


def glare_spots(
    count: int, strength: float, radius: float, scene: Scene, view: View, rng: np.random.Generator
) -> list[Glare]:
    """Reflections over random points of the board, `radius` a share of the frame's
    width."""
    board_w, board_h = scene.layout.board_mm
    cols = view.pose.frame_px[0]
    spots = []
    for _ in range(count):
        where = (board_w * float(rng.uniform(0.1, 0.9)), board_h * float(rng.uniform(0.1, 0.9)))
        x, y = view.project([where])[0]
        sigma = radius * cols * float(rng.uniform(0.7, 1.3))
        spots.append(Glare((float(x), float(y)), sigma, sigma, 0.0, strength))
    return spots


def card_streaks(count: int, scene: Scene, view: View, rng: np.random.Generator) -> list[Glare]:
    """Streaks of light off glossy cards, each across a token lying on a card (on a
    random card when no token does)."""
    on_cards = [p.center_mm for p in scene.tokens if scene.layout.slot_at(p.center_mm)]
    cards = [pose.centre_mm for pose in scene.card_poses().values()]
    places = on_cards or cards
    streaks = []
    for _ in range(count if places else 0):
        where = places[int(rng.integers(len(places)))]
        scale = view.px_per_mm(where)
        (x, y), ahead = view.project([where, (where[0] + 10.0, where[1] + 3.0)])
        angle = math.degrees(math.atan2(ahead[1] - y, ahead[0] - x)) + float(rng.uniform(-30, 30))
        streaks.append(
            Glare(
                (float(x), float(y)),
                STREAK_LENGTH_MM / 2 * scale,
                STREAK_WIDTH_MM * scale,
                angle,
                float(rng.uniform(*STREAK_STRENGTH)),
            )
        )
    return streaks
