"""Mapping frame pixels to board millimetres: a homography fitted to the fixed tags.

Corner and slot tags lie at known board positions (the layout), so every one seen in
a frame is a point pair. With four or more, a homography maps the board plane; with
more, RANSAC sets aside a tag that was moved or misread. The fit's reprojection
error, in millimetres, says how far to trust it.

A real lens bends the board, which then fits no homography; the calibration measures
the lens (`lens_fit`), and every fit goes through it: pixels are straightened first,
and the homography maps straightened pixels to millimetres.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.vision.lens import STRAIGHT, Lens, Points
from companion.vision.records import Point

MIN_ANCHORS = 4
"""Point pairs a homography needs."""
RANSAC_THRESHOLD_MM = 6.0
"""A tag further than this from where the fit puts it is an outlier."""
MIN_AGREEING = 0.6
"""Share of the tags seen that must agree with a fit: any four points fit some plane,
so a fit that most tags disagree with is the wrong board or layout."""

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class BoardFit:
    """A homography from (straightened) frame pixels to board millimetres, and how good
    it is."""

    px_to_mm: tuple[tuple[float, ...], ...]
    """The 3x3 homography from pixels straightened by `lens`, row by row (plain floats,
    so it can be saved as JSON)."""
    rms_error_mm: float
    """Root mean square distance between fitted and layout positions of the inliers."""
    anchors_used: int
    """How many fixed tags the fit rests on (inliers)."""
    anchors_seen: int
    """How many fixed tags were offered to it."""
    lens: Lens = STRAIGHT
    """The lens the frame's pixels are straightened by before the homography."""

    @property
    def agreeing(self) -> float:
        """Share of the tags offered that the fit rests on."""
        return self.anchors_used / self.anchors_seen if self.anchors_seen else 0.0

    @property
    def matrix(self) -> Matrix:
        """The homography as a 3x3 array."""
        return np.array(self.px_to_mm, dtype=np.float64)

    def to_mm(self, points: Sequence[Point]) -> list[Point]:
        """Map frame pixels to board millimetres (straightening them first)."""
        if not points:
            return []
        return _listed(_apply(self.matrix, self.lens.straighten(points)))

    def to_px(self, points: Sequence[Point]) -> list[Point]:
        """Map board millimetres to frame pixels (bending them through the lens last)."""
        if not points:
            return []
        inverse = np.linalg.inv(self.matrix).astype(np.float64)
        return _listed(self.lens.bend(_apply(inverse, np.array(points, np.float64))))


def fit_board(
    pixels: Sequence[Point], board_mm: Sequence[Point], lens: Lens = STRAIGHT
) -> BoardFit | None:
    """Fit the board to point pairs through `lens`, or None when they cannot fix a
    plane.

    None means fewer than four pairs, or pairs that lie (nearly) on a line.
    """
    if len(pixels) < MIN_ANCHORS:
        return None
    src = lens.straighten(pixels).reshape(-1, 1, 2)
    dst = np.array(board_mm, dtype=np.float64).reshape(-1, 1, 2)
    method = cv2.RANSAC if len(pixels) > MIN_ANCHORS else 0
    matrix, mask = cv2.findHomography(src, dst, method, RANSAC_THRESHOLD_MM)
    if matrix is None or not np.all(np.isfinite(matrix)) or abs(np.linalg.det(matrix)) < 1e-12:
        return None
    inliers = mask.ravel().astype(bool) if mask is not None else np.ones(len(pixels), bool)
    if inliers.sum() < MIN_ANCHORS:
        return None
    fitted = cv2.perspectiveTransform(src[inliers], matrix)
    rms = float(np.sqrt(np.mean(np.sum((fitted - dst[inliers]) ** 2, axis=2))))
    rows = tuple(tuple(float(v) for v in row) for row in matrix)
    return BoardFit(rows, rms, int(inliers.sum()), len(pixels), lens)


def _apply(matrix: Matrix, points: Points) -> Points:
    mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2), matrix)
    return np.asarray(mapped.reshape(-1, 2), np.float64)


def _listed(points: Points) -> list[Point]:
    return [(float(x), float(y)) for x, y in points]
