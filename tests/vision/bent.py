"""Boards seen through real lenses, for the lens tests.

The frames' geometry comes from OpenCV's own camera model (`cv2.projectPoints`: a
pinhole and the forward Brown distortion x (1 + k1 r² + k2 r⁴), its principal point a
little off the frame's centre), not from the model the companion fits, so that a test
passes only if the fit describes a real lens, not merely itself.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.kit.layouts import Layout
from companion.kit.tags import MODULES, MODULES_ACROSS, KitTag, Role
from companion.vision.decode import Gray
from companion.vision.records import Detection, Point

Pixels = npt.NDArray[np.float64]
Projection = Callable[[Sequence[Point]], Pixels]
"""Board millimetres to frame pixels."""


@dataclass(frozen=True)
class Camera:
    """A camera hung as low as it can over the board's centre, the board and 5 % of
    its size on each side in view, leaning back a little."""

    frame_px: tuple[int, int]
    hfov_deg: float
    k1: float
    k2: float
    centre_offset_px: tuple[float, float] = (23.0, -15.0)
    tilt_deg: float = 6.0

    def over(self, layout: Layout) -> Projection:
        """The projection of the board from the lowest height that shows it."""
        width, height = layout.board_mm
        margin = [
            (-0.05 * width, -0.05 * height),
            (1.05 * width, -0.05 * height),
            (1.05 * width, 1.05 * height),
            (-0.05 * width, 1.05 * height),
        ]
        for hung in range(200, 3000, 5):
            project = self.at(layout, float(hung))
            corners = project(margin)
            if (
                (corners >= 0).all()
                and (corners < self.frame_px).all()
                and self._unfolded(layout, float(hung), margin)
            ):
                return project
        raise AssertionError("no height shows the board")

    def _unfolded(self, layout: Layout, height_mm: float, points: Sequence[Point]) -> bool:
        """Whether the points lie where the Brown model still grows outwards: beyond,
        it folds the scene back into the frame (as no lens does)."""
        turn, eye = self._pose(layout, height_mm)
        seen = (np.column_stack([np.array(points), np.zeros(len(points))]) - eye) @ turn.T
        r2 = (seen[:, 0] ** 2 + seen[:, 1] ** 2) / seen[:, 2] ** 2
        return bool((1 + 3 * self.k1 * r2 + 5 * self.k2 * r2**2 > 0).all())

    def _pose(self, layout: Layout, height_mm: float) -> tuple[Pixels, Pixels]:
        """The camera's rotation and where it hangs, in board millimetres."""
        tilt = math.radians(self.tilt_deg)
        turn = np.array(
            [[1, 0, 0], [0, math.cos(tilt), math.sin(tilt)], [0, -math.sin(tilt), math.cos(tilt)]]
        )
        board_w, board_h = layout.board_mm
        eye = np.array([board_w / 2, board_h / 2 + height_mm * math.tan(tilt), -height_mm])
        return turn, eye

    def at(self, layout: Layout, height_mm: float) -> Projection:
        """The projection of the board from `height_mm` above it."""
        frame_w, frame_h = self.frame_px
        half = math.tan(math.radians(self.hfov_deg / 2))
        focal = (frame_w / 2) / (half * (1 + self.k1 * half**2 + self.k2 * half**4))
        dx, dy = self.centre_offset_px
        matrix = np.array(
            [[focal, 0, (frame_w - 1) / 2 + dx], [0, focal, (frame_h - 1) / 2 + dy], [0, 0, 1]]
        )
        turn, eye = self._pose(layout, height_mm)
        rvec, _ = cv2.Rodrigues(turn)
        tvec = -turn @ eye
        distortion = np.array([self.k1, self.k2, 0.0, 0.0])

        def project(points: Sequence[Point]) -> Pixels:
            flat = np.column_stack([np.array(points, np.float64), np.zeros(len(points))])
            pixels, _ = cv2.projectPoints(flat, rvec, tvec, matrix, distortion)
            return np.asarray(pixels.reshape(-1, 2), np.float64)

        return project


MILD = Camera((4608, 2592), 66.0, -0.03, 0.0)
"""About the Camera Module 3: nearly a pinhole."""
WEBCAM = Camera((3840, 2160), 80.0, -0.15, 0.02)
"""A 4K webcam with the strong barrel of a cheap wide lens."""
WIDE = Camera((4608, 2592), 102.0, 0.0101, -0.0281)
"""About the Camera Module 3 Wide."""
PINHOLE = Camera((4608, 2592), 66.0, 0.0, 0.0, (0.0, 0.0))
"""A lens that bends nothing."""


def board_tags(layout: Layout, kit: str) -> list[tuple[KitTag, Point, float]]:
    """The layout's corner and slot tags: each tag, its centre and its printed size."""
    tags = [
        (KitTag(kit, Role.CORNER, corner=c.corner), c.center_mm, c.size_mm) for c in layout.corners
    ]
    tags += [
        (KitTag(kit, Role.SLOT, slot=s.slot), s.tag_center_mm, s.tag_size_mm) for s in layout.slots
    ]
    return tags


def seen_tags(
    layout: Layout,
    kit: str,
    project: Projection,
    rng: np.random.Generator,
    *,
    noise_px: float = 0.3,
    turns_deg: Sequence[float] = (),
    moved_mm: dict[str, Point] | None = None,
) -> list[Detection]:
    """The corner and slot tags as a decoder reports them: the corners of each code in
    its own order, `noise_px` off at random; tag i turned by `turns_deg[i]` (clockwise,
    as seen from above) and tags named in `moved_mm` stuck that far off their place."""
    found = []
    for i, (tag, (x, y), size) in enumerate(board_tags(layout, kit)):
        dx, dy = (moved_mm or {}).get(tag.text, (0.0, 0.0))
        turn = math.radians(turns_deg[i]) if i < len(turns_deg) else 0.0
        half = size * MODULES / MODULES_ACROSS / 2
        cos, sin = math.cos(turn), math.sin(turn)
        square = [
            (x + dx + cos * u - sin * v, y + dy + sin * u + cos * v)
            for u, v in ((-half, -half), (half, -half), (half, half), (-half, half))
        ]
        pixels = project(square) + rng.normal(0.0, noise_px, (4, 2))
        a, b, c, d = ((float(px), float(py)) for px, py in pixels)
        found.append(Detection(tag.text, (a, b, c, d)))
    return found


def board_points(layout: Layout, step_mm: float = 10.0) -> list[Point]:
    """Points all over the part of the board the tags span, between the corner tags'
    centres: where tokens lie."""
    xs = [c.center_mm[0] for c in layout.corners]
    ys = [c.center_mm[1] for c in layout.corners]
    return [
        (float(x), float(y))
        for x in np.arange(min(xs), max(xs) + step_mm / 2, step_mm)
        for y in np.arange(min(ys), max(ys) + step_mm / 2, step_mm)
    ]


class BentDecoder:
    """A decoder that reports a board's corner and slot tags, whatever the frame, as
    `camera` hung over the board shows them (a fifth of a pixel off at random)."""

    name = "bent"

    def __init__(self, layout: Layout, kit: str, camera: Camera) -> None:
        self.layout, self.kit = layout, kit
        self.project = camera.over(layout)

    def decode(self, gray: Gray) -> list[Detection]:
        rng = np.random.default_rng(0)
        return seen_tags(self.layout, self.kit, self.project, rng, noise_px=0.2)
