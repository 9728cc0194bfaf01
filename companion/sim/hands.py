"""Hands and arms reaching over a simulated board, with their soft shadows.

Players reach over the board at reveal, so a reader must cope with tags partly under
a hand and must not take a hand for anything. A hand is a few convex pieces (forearm,
palm, fingers, thumb) sized from the board's scale where it points, a little larger
since it hovers nearer the camera. A hand is moving, so it smears along its arm for
as far as it travels while the shutter is open (`Conditions.smear_mm`): a slow shutter
in a dim room leaves a ghost of it. Hands have no fine detail, so each is drawn at a
quarter of the frame's resolution and laid over it; the truth is told from its sharp
outline.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.sim.camera import View
from companion.sim.pixels import Canvas, Image, Rect, scaled, stretched
from companion.sim.scene import Scene

HAND_LIFT = 1.25
"""Hands hover nearer the camera than the board and look this much larger."""
SKIN = ((150, 180, 228), (128, 158, 210), (104, 134, 186), (78, 104, 150), (56, 76, 112))
"""BGR skin tones, light to dark."""
SHRINK = 4
"""Hands are drawn at this fraction of the frame's resolution."""
SHADOW_DEPTH = 0.35
"""How much light a hand's shadow takes away."""

Polygon = npt.NDArray[np.int32]


@dataclass(frozen=True, eq=False)
class Hand:
    """One hand and arm over the board, in frame pixels."""

    shapes: tuple[Polygon, ...]
    """Its convex pieces: forearm, palm, fingers, thumb."""
    tone: tuple[float, float, float]
    """Its skin's BGR."""
    mm: float
    """Frame pixels per millimetre where it hovers."""
    smear: tuple[float, float]
    """How far it moves while the shutter is open, in frame pixels."""

    @property
    def _drop(self) -> npt.NDArray[np.int64]:
        """How far its shadow falls from it, in pixels."""
        return np.array([1, 1]) * round(18 * self.mm)

    @property
    def bounds(self) -> Rect:
        """The frame rectangle the hand, its smear and its shadow reach."""
        points = np.vstack(list(self.shapes) + [s + self._drop for s in self.shapes])
        reach = int(3 * 10 * self.mm + abs(self.smear[0]) + abs(self.smear[1])) + SHRINK
        low, high = points.min(axis=0) - reach, points.max(axis=0) + reach + 1
        return (int(low[0]), int(low[1]), int(high[0]), int(high[1]))

    def covers(self, rect: Rect) -> npt.NDArray[np.bool_]:
        """Which pixels of a frame rectangle the hand covers at some moment while the
        shutter is open: each piece swept along its smear."""
        x0, y0, x1, y1 = rect
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        half = np.array(self.smear) / 2
        for shape in self.shapes:
            swept = np.vstack([shape - half, shape + half]) - np.array([x0, y0])
            hull = cv2.convexHull(np.rint(swept).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 1)
        return mask.astype(bool)

    def draw(self, canvas: Canvas) -> None:
        """The hand's shadow, then the hand, smeared as it moves."""
        box = canvas.clip(self.bounds)
        if box is None:
            return
        x0, y0, x1, y1 = box
        small = ((y1 - y0) // SHRINK + 1, (x1 - x0) // SHRINK + 1)
        origin = np.array([x0, y0])

        def layer(shapes: Sequence[Polygon], blur_mm: float) -> npt.NDArray[np.float32]:
            plane = np.zeros(small, np.uint8)
            for piece in shapes:  # small pixel i stands for pixels SHRINK*i .. SHRINK*i + 3
                scaled = (piece - origin) * (16 // SHRINK) - 8 + 16 // SHRINK // 2
                cv2.fillConvexPoly(plane, scaled.astype(np.int32), 255, cv2.LINE_AA, 4)
            soft = np.asarray(plane, np.float32) / np.float32(255)
            if blur_mm > 0:
                sigma = max(blur_mm * self.mm / SHRINK, 0.5)
                soft = np.asarray(cv2.GaussianBlur(soft, (0, 0), sigma), np.float32)
            return _smeared(soft, self.smear)

        shadow = layer([s + self._drop for s in self.shapes], 10.0)
        cover = layer(self.shapes, 0.0)
        relief = layer(self.shapes, 8.0)

        def grown(plane: Image) -> Image:
            return stretched(plane, SHRINK, (x1 - x0, y1 - y0))

        shade = 0.7 + 0.3 * np.minimum(relief, 1.0)
        skin = np.clip(shade[..., None] * np.array(self.tone, np.float32), 0, 255).astype(np.uint8)
        alpha = np.rint(np.clip(cover, 0.0, 1.0) * 255).astype(np.uint8)
        dark = np.rint((1.0 - SHADOW_DEPTH * np.clip(shadow, 0.0, 1.0)) * 255).astype(np.uint8)
        region = canvas.part(box)
        lit = scaled(region, cv2.multiply(grown(dark), 255 - grown(alpha), scale=1 / 255))
        region[:] = cv2.add(lit, scaled(grown(skin), grown(alpha)))


def _smeared(plane: npt.NDArray[np.float32], smear: tuple[float, float]) -> npt.NDArray[np.float32]:
    """A layer smeared along a motion (in frame pixels) as a moving shutter sees it."""
    dx, dy = smear[0] / SHRINK, smear[1] / SHRINK
    length = math.hypot(dx, dy)
    if length < 1.0:
        return plane
    size = math.ceil(length) * 2 + 1
    kernel = np.zeros((size, size), np.float32)
    middle = size // 2
    cv2.line(
        kernel,
        (round(middle - dx / 2), round(middle - dy / 2)),
        (round(middle + dx / 2), round(middle + dy / 2)),
        1.0,
        1,
        cv2.LINE_AA,
    )
    kernel /= kernel.sum()
    return np.asarray(cv2.filter2D(plane, -1, kernel, borderType=cv2.BORDER_CONSTANT), np.float32)


def hands(
    count: int, smear_mm: float, scene: Scene, view: View, rng: np.random.Generator
) -> list[Hand]:
    """Hands reaching in from the frame's edges to random points over the board,
    moving along their arms."""
    cols, rows = view.pose.frame_px
    board_w, board_h = scene.layout.board_mm
    made = []
    for _ in range(count):
        target = (board_w * float(rng.uniform(0.1, 0.9)), board_h * float(rng.uniform(0.1, 0.9)))
        tip = view.project([target])[0]
        along = float(rng.uniform(0.15, 0.85))
        entry = np.array(
            [
                (along * cols, -0.2 * rows),
                (1.2 * cols, along * rows),
                (along * cols, 1.2 * rows),
                (-0.2 * cols, along * rows),
            ][int(rng.integers(4))]
        )
        mm = view.px_per_mm(target) * HAND_LIFT
        shapes = _hand(entry, tip, mm, bool(rng.integers(2)), rng)
        tone = np.array(SKIN[int(rng.integers(len(SKIN)))]) * float(rng.uniform(0.9, 1.05))
        ahead = (tip - entry) / max(float(np.linalg.norm(tip - entry)), 1.0)
        smear = ahead * smear_mm * mm * (1 if rng.integers(2) else -1)
        colour = tuple(float(c) for c in np.clip(tone, 0, 255))
        made.append(
            Hand(
                tuple(shapes),
                (colour[0], colour[1], colour[2]),
                mm,
                (float(smear[0]), float(smear[1])),
            )
        )
    return made


def _hand(
    entry: npt.NDArray[np.float64],
    tip: npt.NDArray[np.float64],
    mm: float,
    left: bool,
    rng: np.random.Generator,
) -> list[Polygon]:
    """The convex pieces of an arm and hand reaching from `entry` to fingertips at
    `tip`, in pixels, `mm` pixels to a millimetre: forearm, palm, four fingers, thumb."""
    ahead = (tip - entry) / max(float(np.linalg.norm(tip - entry)), 1.0)
    side = np.array([-ahead[1], ahead[0]])
    palm = tip - ahead * 85 * mm
    wrist = palm - ahead * 55 * mm
    arm = np.array(
        [
            entry + side * 48 * mm,
            wrist + side * 32 * mm,
            wrist - side * 32 * mm,
            entry - side * 48 * mm,
        ]
    )
    shapes = [arm.round().astype(np.int32), _ellipse(palm, ahead, 55 * mm, 45 * mm)]
    for across, length in ((-27, 62), (-9, 75), (9, 72), (27, 58)):
        reach = length * mm * float(rng.uniform(0.6, 1.0))
        base = palm + ahead * 38 * mm + side * across * mm
        shapes.append(_ellipse(base + ahead * reach / 2, ahead, reach / 2, 9 * mm))
    hand_side = 1.0 if left else -1.0
    turn = math.radians(55) * hand_side
    thumb = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]]) @ ahead
    base = palm + side * hand_side * 38 * mm - ahead * 5 * mm
    shapes.append(_ellipse(base + thumb * 28 * mm, thumb, 30 * mm, 11 * mm))
    return shapes


def _ellipse(
    centre: npt.NDArray[np.float64], ahead: npt.NDArray[np.float64], long: float, short: float
) -> Polygon:
    """An ellipse as a polygon, its long axis along `ahead`."""
    angle = round(math.degrees(math.atan2(ahead[1], ahead[0])))
    middle = (round(float(centre[0])), round(float(centre[1])))
    axes = (max(1, round(long)), max(1, round(short)))
    return np.asarray(cv2.ellipse2Poly(middle, axes, angle, 0, 360, 10), dtype=np.int32)
