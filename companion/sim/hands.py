"""Hands and arms reaching over a simulated board, with their soft shadows.

Players reach over the board at reveal, so a reader must cope with tags partly under
a hand and must not take a hand for anything. A hand is a few convex pieces (forearm,
palm, fingers, thumb) sized from the board's scale where it points, a little larger
since it hovers nearer the camera; the mask of what hands cover goes to the truth.
"""

import math

import cv2
import numpy as np
import numpy.typing as npt

from companion.sim.camera import Matrix, project, px_per_mm
from companion.sim.pixels import Image, scaled
from companion.sim.scene import Scene

HAND_LIFT = 1.25
"""Hands hover nearer the camera than the board and look this much larger."""
SKIN = ((150, 180, 228), (128, 158, 210), (104, 134, 186), (78, 104, 150), (56, 76, 112))
"""BGR skin tones, light to dark."""


def draw_hands(
    frame: Image, count: int, scene: Scene, board_to_px: Matrix, rng: np.random.Generator
) -> Image | None:
    """Hands reaching in from the frame's edges to random points over the board, with
    soft shadows; the mask of what they cover, or None without hands."""
    if count == 0:
        return None
    rows, cols = frame.shape[:2]
    mask = np.zeros((rows, cols), dtype=np.uint8)
    board_w, board_h = scene.layout.board_mm
    for _ in range(count):
        target = (board_w * float(rng.uniform(0.1, 0.9)), board_h * float(rng.uniform(0.1, 0.9)))
        tip = project(board_to_px, [target])[0]
        along = float(rng.uniform(0.15, 0.85))
        entry = np.array(
            [
                (along * cols, -0.2 * rows),
                (1.2 * cols, along * rows),
                (along * cols, 1.2 * rows),
                (-0.2 * cols, along * rows),
            ][int(rng.integers(4))]
        )
        mm = px_per_mm(board_to_px, target) * HAND_LIFT
        shapes = _hand(entry, tip, mm, bool(rng.integers(2)), rng)
        tone = np.array(SKIN[int(rng.integers(len(SKIN)))]) * float(rng.uniform(0.9, 1.05))
        _draw_hand(frame, mask, shapes, tuple(float(c) for c in np.clip(tone, 0, 255)), mm)
    return mask


def _hand(
    entry: npt.NDArray[np.float64],
    tip: npt.NDArray[np.float64],
    mm: float,
    left: bool,
    rng: np.random.Generator,
) -> list[npt.NDArray[np.int32]]:
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
) -> npt.NDArray[np.int32]:
    """An ellipse as a polygon, its long axis along `ahead`."""
    angle = round(math.degrees(math.atan2(ahead[1], ahead[0])))
    middle = (round(float(centre[0])), round(float(centre[1])))
    axes = (max(1, round(long)), max(1, round(short)))
    return np.asarray(cv2.ellipse2Poly(middle, axes, angle, 0, 360, 10), dtype=np.int32)


def _draw_hand(
    frame: Image,
    mask: Image,
    shapes: list[npt.NDArray[np.int32]],
    tone: tuple[float, ...],
    mm: float,
) -> None:
    """One hand with its soft shadow, a little darker towards its edges so it looks
    round; what it covers is added to `mask`."""
    rows, cols = frame.shape[:2]
    blur = 10 * mm
    drop = np.array([1, 1]) * round(18 * mm)
    points = np.vstack(shapes + [s + drop for s in shapes])
    left, top = np.maximum(points.min(axis=0) - int(3 * blur), 0)
    right, bottom = np.minimum(points.max(axis=0) + int(3 * blur) + 1, (cols, rows))
    if right <= left or bottom <= top:
        return
    origin = np.array([left, top])
    roi = frame[top:bottom, left:right]
    local = [shape - origin for shape in shapes]
    shadow = _soft([s + drop for s in local], roi.shape[:2], blur)
    roi[:] = scaled(roi, cv2.convertScaleAbs(shadow, alpha=-0.35, beta=255))
    hand = np.zeros(roi.shape[:2], dtype=np.uint8)
    for shape in local:
        cv2.fillConvexPoly(roi, shape, tone, cv2.LINE_AA)
        cv2.fillConvexPoly(hand, shape, 255)
    relief = cv2.convertScaleAbs(_soft(local, roi.shape[:2], 8 * mm), alpha=0.3, beta=0.7 * 255)
    roi[:] = scaled(roi, cv2.max(relief, 255 - hand))
    covered = mask[top:bottom, left:right]
    covered |= hand


def _soft(
    shapes: list[npt.NDArray[np.int32]], shape: tuple[int, ...], sigma: float
) -> npt.NDArray[np.uint8]:
    """Convex shapes filled and blurred by `sigma` pixels, 0 to 255: drawn at an
    eighth of the resolution, since a wide blur keeps no detail."""
    rows, cols = shape[0], shape[1]
    small = np.zeros((rows // 8 + 1, cols // 8 + 1), dtype=np.uint8)
    for piece in shapes:  # small pixel i stands for full pixels 8i..8i+7, centred on 8i + 3.5
        cv2.fillConvexPoly(small, piece * 2 - 7, 255, cv2.LINE_8, 4)
    blurred = cv2.GaussianBlur(small, (0, 0), max(sigma / 8, 0.5))
    size = (small.shape[1] * 8, small.shape[0] * 8)
    grown = cv2.resize(blurred, size, interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(grown[:rows, :cols], dtype=np.uint8)
