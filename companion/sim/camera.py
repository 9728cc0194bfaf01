"""The simulated camera: where it hangs, and how board millimetres become frame pixels.

A `CameraPose` is a pinhole camera above the board, so board millimetres map to
frame pixels by one homography. The helpers here follow a printed square through
that map: its corners, its module grid, and its size in pixels measured the way a
decoder measures it, so that the truth and the reader agree on what "4 px per
module" means.
"""

import math
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from companion.errors import SettingError
from companion.kit.layouts import Point
from companion.kit.tags import MODULES, MODULES_ACROSS, QUIET_ZONE_MODULES

MAX_RAY_DEG = 85.0
"""The steepest ray from the vertical a frame may hold: the table must fill the frame."""

Corners = npt.NDArray[np.float64]
"""Four corners of a square as a (4, 2) array: top left, top right, bottom right,
bottom left in the square's own orientation."""
Matrix = npt.NDArray[np.float64]
"""A 3x3 homography or affine map."""


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is and how it looks at the board: a pinhole model.

    The camera hangs `height_mm` above the table and looks at a point on the board,
    leaning back by `tilt_deg` from straight down, towards the board's bottom edge
    before `yaw_deg` turns it.
    """

    height_mm: float = 780.0
    """Height of the lens above the board."""
    tilt_deg: float = 8.0
    """Angle between the view axis and straight down; mounts are rarely quite level."""
    yaw_deg: float = 0.0
    """Turn of the camera about the vertical through the look-at point, clockwise seen
    from above; the board looks turned the other way in the frame."""
    offset_mm: Point = (0.0, 0.0)
    """Where the camera looks, relative to the board's centre."""
    hfov_deg: float = 66.0
    """Horizontal field of view; 66 degrees is the Raspberry Pi Camera Module 3."""
    frame_px: tuple[int, int] = (2304, 1296)
    """Frame width and height in pixels."""

    def __post_init__(self) -> None:
        width, height = self.frame_px
        if width < 16 or height < 16:
            raise SettingError(f"a frame of {width}x{height} px is too small to simulate")
        if not 1.0 <= self.hfov_deg <= 150.0:
            raise SettingError(f"a field of view of {self.hfov_deg} degrees is not a lens")
        if not self.height_mm > 0:
            raise SettingError(f"the camera must hang above the board, not at {self.height_mm} mm")
        half = math.tan(math.radians(self.hfov_deg) / 2)
        widest = math.degrees(math.atan(half * math.hypot(1.0, height / width)))
        if not 0.0 <= self.tilt_deg < MAX_RAY_DEG - widest:
            raise SettingError(
                f"a tilt of {self.tilt_deg} degrees shows the horizon; "
                f"this lens allows 0 to {MAX_RAY_DEG - widest:.0f}"
            )

    def homography(self, board_mm: tuple[float, float]) -> Matrix:
        """The 3x3 map from board millimetres to frame pixels (pixel centres at whole
        numbers), unscaled so that its third row gives each point's depth."""
        width, height = self.frame_px
        focal = (width / 2) / math.tan(math.radians(self.hfov_deg) / 2)
        lens = np.array([[focal, 0, (width - 1) / 2], [0, focal, (height - 1) / 2], [0, 0, 1]])
        tilt, yaw = math.radians(self.tilt_deg), math.radians(self.yaw_deg)
        turn = np.array(
            [[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]]
        )
        upright = np.array(
            [[1, 0, 0], [0, math.cos(tilt), math.sin(tilt)], [0, -math.sin(tilt), math.cos(tilt)]]
        )
        rotation = upright @ turn.T
        look = np.array(
            [board_mm[0] / 2 + self.offset_mm[0], board_mm[1] / 2 + self.offset_mm[1], 0]
        )
        centre = look + turn @ np.array([0, self.height_mm * math.tan(tilt), -self.height_mm])
        shift = -rotation @ centre
        return np.asarray(lens @ np.column_stack([rotation[:, 0], rotation[:, 1], shift]))

    def px_per_module(
        self, board_mm: tuple[float, float], center_mm: Point, size_mm: float
    ) -> float:
        """Pixels per module of an upright kit tag printed `size_mm` across at a board
        point, measured as a decoder does: the code's mean side over its 21 modules."""
        square = square_mm(center_mm, size_mm, 0.0)
        side = code_side(self.homography(board_mm), square, MODULES_ACROSS, QUIET_ZONE_MODULES)
        return side / MODULES

    def with_px_per_module(
        self, board_mm: tuple[float, float], px_per_module: float, size_mm: float
    ) -> "CameraPose":
        """The same pose raised or lowered so that a tag of `size_mm` at the look-at
        point spans `px_per_module`; the whole view scales with the height."""
        look = (board_mm[0] / 2 + self.offset_mm[0], board_mm[1] / 2 + self.offset_mm[1])
        now = self.px_per_module(board_mm, look, size_mm)
        return replace(self, height_mm=self.height_mm * now / px_per_module)


def square_mm(center: Point, size: float, angle_deg: float) -> Corners:
    """The corners of a square lying on the board: top left, top right, bottom right,
    bottom left in the square's own orientation, so a turned tag keeps its order."""
    half = size / 2
    turn = math.radians(angle_deg)
    cos, sin = math.cos(turn), math.sin(turn)
    local = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    rotation = np.array([(cos, -sin), (sin, cos)])
    return np.asarray(local @ rotation.T + np.array(center), dtype=np.float64)


def project(board_to_px: Matrix, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Board points (n, 2) to frame pixels (n, 2)."""
    flat = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = np.column_stack([flat, np.ones(len(flat))]) @ board_to_px.T
    return np.asarray(mapped[:, :2] / mapped[:, 2:])


def px_per_mm(board_to_px: Matrix, point: Point) -> float:
    """Local scale of the map at a board point: the root of its Jacobian's determinant."""
    x, y, w = board_to_px @ np.array([point[0], point[1], 1.0])
    jacobian = (board_to_px[:2, :2] - np.outer([x / w, y / w], board_to_px[2, :2])) / w
    return math.sqrt(abs(float(np.linalg.det(jacobian))))


def module_map(square: Corners, span: int) -> Matrix:
    """The affine map from module coordinates (0 to `span` across) to board mm."""
    top_left, top_right, _, bottom_left = square
    across, down = (top_right - top_left) / span, (bottom_left - top_left) / span
    return np.array(
        [[across[0], down[0], top_left[0]], [across[1], down[1], top_left[1]], [0, 0, 1]]
    )


def code_corners(
    board_to_px: Matrix, square: Corners, span: int, quiet: int
) -> npt.NDArray[np.float64]:
    """The code's corners in pixels, quiet zone left out, in the code's own order."""
    inner = [
        (quiet, quiet),
        (span - quiet, quiet),
        (span - quiet, span - quiet),
        (quiet, span - quiet),
    ]
    return project(board_to_px @ module_map(square, span), inner)


def code_side(board_to_px: Matrix, square: Corners, span: int, quiet: int) -> float:
    """The mean side of the code in pixels, quiet zone left out, as a decoder measures it."""
    quad = code_corners(board_to_px, square, span, quiet)
    return float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).mean())
