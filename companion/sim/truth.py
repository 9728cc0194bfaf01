"""What a simulated frame shows: every code, where it is, and what keeps it from view.

`SimTruth` is what a perfect reader would report of a frame, so tests can hold the
reader to it: every code, its corners and size measured as a decoder measures them
(quiet zone left out, mean side over the modules), and whether the frame's edge, a
hand, another code or glare hides part of it, in which case no reader can be blamed.
"""

import enum
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.kit.tags import KitTag
from companion.rules import Reveal
from companion.sim.camera import CameraPose, Matrix, View, code_corners, code_side
from companion.sim.codes import PrintedCode
from companion.sim.glare import Glare
from companion.sim.hands import Hand
from companion.sim.scene import Scene
from companion.sim.tokens import silhouette
from companion.vision.records import Point, Quad

GLARE_BURNT = 0.5
"""Glare this strong (share of the way to white) anywhere on a code counts as burnt out."""


class Obstruction(enum.Enum):
    """Why a reader cannot be expected to see all of a code."""

    FRAME = "partly or wholly outside the frame"
    HAND = "partly under a hand"
    CODE = "partly under another code"
    GLARE = "washed out by glare"


@dataclass(frozen=True)
class TagTruth:
    """One QR code drawn in a simulated frame, as a perfect reader would report it."""

    text: str
    """What the code says."""
    tag: KitTag | None
    """The tag as laid (a `Placement` or the layout's), or None for a `ForeignCode`."""
    center_mm: Point
    """Centre on the board."""
    center_px: Point
    """Centre in the frame, pixel centres at whole numbers as in OpenCV (zxing-cpp
    reports positions half a pixel further right and down)."""
    corners_px: Quad
    """Corners of the code without its quiet zone, in the code's own order (top left,
    top right, bottom right, bottom left), as `Detection.corners_px` gives them."""
    px_per_module: float
    """Mean side of the code in pixels over its modules, as `Detection` measures it."""
    covered: float
    """Share of the printed square (quiet zone included) out of frame or under a hand
    or another code: 0 when all of it is in view."""
    obstructions: frozenset[Obstruction]
    """Everything that keeps part of it from view; empty when fully visible."""

    @property
    def visible(self) -> bool:
        """Whether all of the printed square is in the frame, uncovered and not burnt out."""
        return not self.obstructions


@dataclass(frozen=True, eq=False)
class SimTruth:
    """What a simulated frame shows, for checking a reader against."""

    scene: Scene
    """What lay on the table."""
    pose: CameraPose
    """The camera it was seen from."""
    board_to_pinhole: Matrix
    """The homography from board millimetres to the pinhole's pixels: the frame's
    pixels where the lens bends nothing (`view` maps through the lens)."""
    view: View
    """How the camera sees the board: table points to frame pixels through the lens."""
    tags: tuple[TagTruth, ...]
    """Every code on the table in drawing order: the board's tags, foreign codes, tokens."""

    @property
    def visible_tags(self) -> tuple[TagTruth, ...]:
        """The codes, kit and foreign, that are fully visible."""
        return tuple(t for t in self.tags if t.visible)

    @property
    def reveal(self) -> Reveal | None:
        """The round the tokens stand for, when the scene was laid out from one."""
        return self.scene.reveal


def tag_truths(
    codes: Sequence[PrintedCode],
    view: View,
    hands: Sequence[Hand],
    glare: Sequence[Glare],
) -> tuple[TagTruth, ...]:
    """What a perfect reader would report of each code, given what lies on top."""
    cols, rows = view.pose.frame_px
    frame = np.array(
        [(-0.5, -0.5), (cols - 0.5, -0.5), (cols - 0.5, rows - 0.5), (-0.5, rows - 0.5)], np.float32
    )
    printed = [view.project(code.square) for code in codes]
    footprints = [
        silhouette(code.body, view) if code.body is not None else quad
        for code, quad in zip(codes, printed, strict=True)
    ]
    truths = []
    for i, code in enumerate(codes):
        quad = printed[i]
        blocked: set[Obstruction] = set()
        total = float(cv2.contourArea(quad.astype(np.float32)))
        inside, _ = cv2.intersectConvexConvex(quad.astype(np.float32), frame)
        in_frame = min(1.0, inside / total) if total > 0 else 0.0
        if in_frame < 1.0 - 1e-6:
            blocked.add(Obstruction.FRAME)
        else:
            in_frame = 1.0
        hidden, by_hand, by_code = _hidden(quad, footprints[i + 1 :], hands, (rows, cols))
        if by_hand:
            blocked.add(Obstruction.HAND)
        if by_code:
            blocked.add(Obstruction.CODE)
        if any(g.wash_on(quad) > GLARE_BURNT for g in glare):
            blocked.add(Obstruction.GLARE)
        span = code.modules.shape[0]
        inner = code_corners(view, code.square, span, code.quiet)
        centre = view.project(code.square.mean(axis=0, keepdims=True))[0]
        truths.append(
            TagTruth(
                text=code.text,
                tag=code.tag,
                center_mm=code.center_mm,
                center_px=(float(centre[0]), float(centre[1])),
                corners_px=_quad(inner),
                px_per_module=code_side(view, code.square, span, code.quiet)
                / (span - 2 * code.quiet),
                covered=1.0 - in_frame * (1.0 - hidden),
                obstructions=frozenset(blocked),
            )
        )
    return tuple(truths)


def _hidden(
    quad: npt.NDArray[np.float64],
    above: Sequence[npt.NDArray[np.float64]],
    hands: Sequence[Hand],
    shape: tuple[int, int],
) -> tuple[float, bool, bool]:
    """Share of a code's in-frame pixels under hands or things drawn above it, and
    whether any hand, any code covers some of it."""
    rows, cols = shape
    left, top = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    right, bottom = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, (cols, rows))
    if right <= left or bottom <= top:
        return 0.0, False, False
    origin = np.array([left, top])
    own = _fill(quad - origin, (bottom - top, right - left))
    if not own.any():
        return 0.0, False, False
    coded = np.zeros_like(own)
    for other in above:
        if (other.max(axis=0) >= origin).all() and (other.min(axis=0) < (right, bottom)).all():
            coded |= _fill(other - origin, own.shape)
    handed = np.zeros_like(own)
    for hand in hands:
        handed |= hand.covers((int(left), int(top), int(right), int(bottom)))
    by_hand, by_code = bool((own & handed).any()), bool((own & coded).any())
    return float((own & (handed | coded)).sum() / own.sum()), by_hand, by_code


def _quad(points: npt.NDArray[np.float64]) -> Quad:
    """Four corners as the records keep them: a tuple of float pairs."""
    (a, b), (c, d), (e, f), (g, h) = points.tolist()
    return ((a, b), (c, d), (e, f), (g, h))


def _fill(polygon: npt.NDArray[np.float64], shape: tuple[int, int]) -> npt.NDArray[np.bool_]:
    """The pixels of a convex polygon, placed to a sixteenth of a pixel."""
    canvas = np.zeros(shape, dtype=np.uint8)
    cv2.fillConvexPoly(canvas, np.rint(polygon * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return canvas.astype(bool)
