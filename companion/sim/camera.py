"""The simulated camera: where it hangs, its lens, and how the table becomes frame pixels.

A `CameraPose` is a camera above the board: a pinhole with the radial distortion of
a real lens (OpenCV's Brown model, x_d = x (1 + k1 r² + k2 r⁴) in coordinates
normalised by the focal length, around a principal point a little off the frame's
centre). A `View` is one pose over one board: it maps points of the table (on the
board, or raised above it, as the top of a token is) to frame pixels and frame pixels
back to the board, exactly, and gives the local maps that drawing needs. The helpers
here follow a printed square through that map, its corners and its size in pixels
measured the way a decoder measures it, so that the truth and the reader agree on
what "4 px per module" means.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import SettingError
from companion.kit.layouts import Point
from companion.kit.tags import MODULES, MODULES_ACROSS, QUIET_ZONE_MODULES
from companion.sim.pixels import Rect

MAX_RAY_DEG = 85.0
"""The steepest ray from the vertical a frame may hold: the table must fill the frame."""
GRID_STEP = 8
"""Frame pixels between the points at which `View` works out board positions exactly;
in between they are interpolated (a lens bends far too gently to tell the difference)."""
PATCH_SAMPLES = 5
"""Points a side sampled to fit the local map of a small flat patch (a code)."""
BEYOND_FOLD = 0.05
"""How far out a ray beyond the lens's fold is put, per unit of its pinhole radius:
no such ray reaches the frame (a pose checks that the fold lies beyond the frame's
corners), but it must still land outside the frame rather than fold back into it."""
NEWTON_STEPS = 12
"""Newton steps that take a distorted radius back to the pinhole's: the lens terms are
small, and a dozen steps reach the last bit of a double."""

Array = npt.NDArray[np.float64]
Corners = npt.NDArray[np.float64]
"""Four corners of a square as a (4, 2) array (or (4, 3) raised above the board): top
left, top right, bottom right, bottom left in the square's own orientation."""
Matrix = npt.NDArray[np.float64]
"""A 3x3 homography or affine map."""


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is, how it looks at the board, and its lens.

    The camera hangs `height_mm` above the table and looks at a point on the board,
    leaning back by `tilt_deg` from straight down, towards the board's bottom edge
    before `yaw_deg` turns it. A board bumped under a fixed camera is the same camera
    looking at another point of it (`offset_mm`), turned (`yaw_deg`).
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
    """Horizontal field of view, distortion included: the angle between the rays that
    reach the frame's left and right edges. 66 degrees is the Camera Module 3."""
    frame_px: tuple[int, int] = (2304, 1296)
    """Frame width and height in pixels."""
    k1: float = 0.0
    """First radial distortion term (negative: barrel, the edges pulled in)."""
    k2: float = 0.0
    """Second radial distortion term."""
    centre_offset_px: tuple[float, float] = (0.0, 0.0)
    """How far the lens's axis (the principal point) is from the frame's centre: a
    sensor is never glued exactly under its lens."""

    def __post_init__(self) -> None:
        width, height = self.frame_px
        if width < 16 or height < 16:
            raise SettingError(f"a frame of {width}x{height} px is too small to simulate")
        if not 1.0 <= self.hfov_deg <= 150.0:
            raise SettingError(f"a field of view of {self.hfov_deg} degrees is not a lens")
        if not self.height_mm > 0:
            raise SettingError(f"the camera must hang above the board, not at {self.height_mm} mm")
        if not all(math.isfinite(v) for v in (self.k1, self.k2, *self.centre_offset_px)):
            raise SettingError("the lens's distortion terms must be numbers")
        if not 1.0 + self.k1 * self._edge**2 + self.k2 * self._edge**4 > 0:
            raise SettingError(f"distortion terms {self.k1}, {self.k2} turn the frame inside out")
        if self._corner_radius >= self._fold_radius(distorted=True):
            raise SettingError(
                f"distortion terms {self.k1}, {self.k2} fold the frame's corners back on it"
            )
        widest = math.degrees(math.atan(self._undistort_radii(np.array([self._corner_radius]))[0]))
        if not 0.0 <= self.tilt_deg < MAX_RAY_DEG - widest:
            raise SettingError(
                f"a tilt of {self.tilt_deg} degrees shows the horizon; "
                f"this lens allows 0 to {max(0.0, MAX_RAY_DEG - widest):.0f}"
            )

    @property
    def _edge(self) -> float:
        """The pinhole tangent of the ray to the frame's side edge."""
        return math.tan(math.radians(self.hfov_deg) / 2)

    @property
    def focal_px(self) -> float:
        """The focal length in pixels: the one that, through the distortion, puts the
        rays at half the field of view on the frame's side edges."""
        t = self._edge
        return self.frame_px[0] / 2 / (t * (1.0 + self.k1 * t**2 + self.k2 * t**4))

    @property
    def principal_px(self) -> tuple[float, float]:
        """Where the lens's axis meets the frame (pixel centres at whole numbers)."""
        width, height = self.frame_px
        return (
            (width - 1) / 2 + self.centre_offset_px[0],
            (height - 1) / 2 + self.centre_offset_px[1],
        )

    @property
    def _corner_radius(self) -> float:
        """The farthest frame corner from the principal point, in focal lengths."""
        width, height = self.frame_px
        cx, cy = self.principal_px
        return math.hypot(max(cx + 0.5, width - 0.5 - cx), max(cy + 0.5, height - 0.5 - cy)) / (
            self.focal_px
        )

    def _fold_radius(self, *, distorted: bool) -> float:
        """The pinhole radius (or its distorted image) at which the distortion stops
        growing outwards; infinite when it never does."""
        fold = self._fold
        if distorted and math.isfinite(fold):
            return fold * (1.0 + self.k1 * fold**2 + self.k2 * fold**4)
        return fold

    @cached_property
    def _fold(self) -> float:
        radii = np.linspace(0.0, 12.0, 4801)
        slope = 1.0 + 3 * self.k1 * radii**2 + 5 * self.k2 * radii**4
        folds = np.flatnonzero(slope <= 0)
        return float(radii[folds[0]]) if len(folds) else math.inf

    def _undistort_radii(self, distorted: Array) -> Array:
        """Pinhole radii whose distorted images are `distorted` (in focal lengths), by
        Newton's method from the distorted radius, kept below the fold."""
        ceiling = min(self._fold_radius(distorted=False), 1e6)
        radii = distorted.copy()
        for _ in range(NEWTON_STEPS):
            squared = radii * radii
            value = radii * (1.0 + self.k1 * squared + self.k2 * squared * squared) - distorted
            slope = 1.0 + 3 * self.k1 * squared + 5 * self.k2 * squared * squared
            radii = np.clip(radii - value / np.maximum(slope, 1e-9), 0.0, ceiling)
        return radii

    def lens_matrix(self) -> Matrix:
        """The pinhole's 3x3 camera matrix: focal length and principal point."""
        focal, (cx, cy) = self.focal_px, self.principal_px
        return np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]], dtype=np.float64)

    def placement(self, board_mm: tuple[float, float]) -> tuple[Matrix, Array]:
        """The camera's rotation (board axes to camera axes) and its centre, in board
        millimetres with z pointing down into the table (the camera is at negative z)."""
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
        return rotation, centre

    def homography(self, board_mm: tuple[float, float]) -> Matrix:
        """The 3x3 map from board millimetres to the pinhole's pixels, before the lens
        bends them (pixel centres at whole numbers), unscaled so that its third row gives
        each point's depth. Without distortion these are the frame's pixels."""
        rotation, centre = self.placement(board_mm)
        shift = -rotation @ centre
        return np.asarray(
            self.lens_matrix() @ np.column_stack([rotation[:, 0], rotation[:, 1], shift])
        )

    def distort(self, pinhole_px: npt.ArrayLike) -> Array:
        """Pinhole pixels (n, 2) to frame pixels: where the lens puts them."""
        return self._radially(pinhole_px, self._distort_radii)

    def undistort(self, frame_px: npt.ArrayLike) -> Array:
        """Frame pixels (n, 2) to the pinhole's pixels: the lens's bend taken out."""
        return self._radially(frame_px, self._undistort_radii)

    def _radially(self, px: npt.ArrayLike, radii: Callable[[Array], Array]) -> Array:
        """Pixels (n, 2) moved along their rays from the principal point, each ray's
        normalised length mapped by `radii`."""
        points = np.asarray(px, dtype=np.float64).reshape(-1, 2)
        if self.k1 == 0 and self.k2 == 0:
            return points.copy()
        centre = np.array(self.principal_px)
        normal = (points - centre) / self.focal_px
        before = np.hypot(normal[:, 0], normal[:, 1])
        after = radii(before)
        ratio = np.divide(after, before, out=np.ones_like(before), where=before > 0)
        return np.asarray(centre + normal * ratio[:, None] * self.focal_px)

    def _distort_radii(self, radii: Array) -> Array:
        """Normalised pinhole radii to the lens's, held monotonic past the fold."""
        fold = self._fold
        inside = np.minimum(radii, fold)
        squared = inside * inside
        bent = inside * (1.0 + self.k1 * squared + self.k2 * squared * squared)
        return np.asarray(bent + np.maximum(radii - fold, 0.0) * BEYOND_FOLD)

    def px_per_module(
        self, board_mm: tuple[float, float], center_mm: Point, size_mm: float
    ) -> float:
        """Pixels per module of an upright kit tag printed `size_mm` across at a board
        point, measured as a decoder does: the code's mean side over its 21 modules."""
        square = square_mm(center_mm, size_mm, 0.0)
        return code_side(View(self, board_mm), square, MODULES_ACROSS, QUIET_ZONE_MODULES) / MODULES

    def with_px_per_module(
        self, board_mm: tuple[float, float], px_per_module: float, size_mm: float
    ) -> "CameraPose":
        """The same pose raised or lowered so that a tag of `size_mm` at the look-at
        point spans `px_per_module`; the whole view scales with the height."""
        look = (board_mm[0] / 2 + self.offset_mm[0], board_mm[1] / 2 + self.offset_mm[1])
        now = self.px_per_module(board_mm, look, size_mm)
        return replace(self, height_mm=self.height_mm * now / px_per_module)


class View:
    """One camera pose over one board: table points to frame pixels, and back.

    Points of the table are board millimetres, with a height above the board where
    they are raised (the top of a token). Projection is exact; the frame's board
    positions are worked out exactly on a grid every `GRID_STEP` pixels and
    interpolated in between, which is how the table is painted without warping every
    pixel through the lens.
    """

    def __init__(self, pose: CameraPose, board_mm: tuple[float, float]) -> None:
        self.pose = pose
        self.board_mm = board_mm
        self.rotation, self.centre = pose.placement(board_mm)
        self.lens = pose.lens_matrix()
        self.board_to_pinhole = pose.homography(board_mm)
        """The map from the board to the pinhole's pixels (see `CameraPose.homography`)."""
        self.straight = pose.k1 == 0 and pose.k2 == 0
        """Whether the lens bends nothing: then `board_to_pinhole` is the whole map."""

    def project(self, points: npt.ArrayLike) -> Array:
        """Table points (n, 2) on the board, or (n, 3) with their height above it in
        the third column, to frame pixels (n, 2)."""
        table = np.asarray(points, dtype=np.float64)
        table = table.reshape(-1, table.shape[-1] if table.ndim > 1 else 2)
        world = np.zeros((len(table), 3))
        world[:, :2] = table[:, :2]
        if table.shape[1] == 3:
            world[:, 2] = -table[:, 2]
        seen = (world - self.centre) @ self.rotation.T @ self.lens.T
        return self.pose.distort(seen[:, :2] / seen[:, 2:])

    def depths(self, points: npt.ArrayLike) -> Array:
        """How far in front of the camera each table point (n, 2) or (n, 3) lies, along
        its axis: not positive for a point behind it."""
        table = np.asarray(points, dtype=np.float64)
        table = table.reshape(-1, table.shape[-1] if table.ndim > 1 else 2)
        world = np.zeros((len(table), 3))
        world[:, :2] = table[:, :2]
        if table.shape[1] == 3:
            world[:, 2] = -table[:, 2]
        return np.asarray(((world - self.centre) @ self.rotation.T)[:, 2])

    def board_points(self, frame_px: npt.ArrayLike) -> Array:
        """Frame pixels (n, 2) to the board points (n, 2) they show."""
        pinhole = self.pose.undistort(frame_px)
        return project(np.asarray(np.linalg.inv(self.board_to_pinhole), np.float64), pinhole)

    def px_per_mm(self, point: Point) -> float:
        """Local scale of the view at a board point: the root of its Jacobian's
        determinant, worked out over a tenth of a millimetre."""
        x, y = point
        step = 0.1
        here, across, down = self.project([(x, y), (x + step, y), (x, y + step)])
        (ax, ay), (bx, by) = across - here, down - here
        return math.sqrt(abs(float(ax * by - ay * bx))) / step

    def patch_map(self, corners: Corners, span: int) -> Matrix:
        """The 3x3 map from a flat patch's own coordinates (0 to `span` across, from its
        top left corner) to frame pixels. The patch is a square given by its corners
        (4, 2) or (4, 3) as a `Corners` array; through a bending lens the map is the
        homography that best fits the exact projection over the patch, which a patch a
        few centimetres across follows to a small fraction of a pixel."""
        top_left, top_right, _, bottom_left = np.asarray(corners, dtype=np.float64)
        across, down = (top_right - top_left) / span, (bottom_left - top_left) / span
        steps = np.linspace(0.0, span, PATCH_SAMPLES)
        local = np.array([(a, b) for b in steps for a in steps])
        table = top_left + local[:, :1] * across + local[:, 1:] * down
        pixels = self.project(table)
        if self.straight:
            matrix, _ = cv2.findHomography(local[[0, 4, 24, 20]], pixels[[0, 4, 24, 20]], 0)
        else:
            matrix, _ = cv2.findHomography(local, pixels, 0)
        return np.asarray(matrix, dtype=np.float64)

    @cached_property
    def _grid(self) -> tuple[Array, Array]:
        """The board point of every `GRID_STEP`-th frame pixel (at 8j - 4.5, j from 0),
        x and y as two arrays of rows by columns, one point beyond the frame each side."""
        width, height = self.pose.frame_px
        xs = np.arange(width // GRID_STEP + 3) * GRID_STEP - GRID_STEP + (GRID_STEP - 1) / 2
        ys = np.arange(height // GRID_STEP + 3) * GRID_STEP - GRID_STEP + (GRID_STEP - 1) / 2
        pixels = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        board = self.board_points(pixels).reshape(len(ys), len(xs), 2)
        return board[..., 0].copy(), board[..., 1].copy()

    def board_map(self, rect: Rect) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The board point each pixel of a frame rectangle shows, as x and y arrays of
        its rows by columns (float32, as `cv2.remap` takes them)."""
        x0, y0, x1, y1 = rect
        first = (max(0, x0 // GRID_STEP), max(0, y0 // GRID_STEP))
        last = ((x1 - 1) // GRID_STEP + 2, (y1 - 1) // GRID_STEP + 2)
        maps = []
        for grid in self._grid:
            part = grid[first[1] : last[1] + 1, first[0] : last[0] + 1].astype(np.float32)
            size = (part.shape[1] * GRID_STEP, part.shape[0] * GRID_STEP)
            fine = cv2.resize(part, size, interpolation=cv2.INTER_LINEAR)
            # fine pixel i stands for frame pixel GRID_STEP * (first - 1) + i
            left, top = x0 - GRID_STEP * (first[0] - 1), y0 - GRID_STEP * (first[1] - 1)
            window = fine[top : top + y1 - y0, left : left + x1 - x0]
            maps.append(np.ascontiguousarray(window, dtype=np.float32))
        return maps[0], maps[1]


def square_mm(center: Point, size: float, angle_deg: float) -> Corners:
    """The corners of a square lying on the board: top left, top right, bottom right,
    bottom left in the square's own orientation, so a turned tag keeps its order."""
    half = size / 2
    turn = math.radians(angle_deg)
    cos, sin = math.cos(turn), math.sin(turn)
    local = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    rotation = np.array([(cos, -sin), (sin, cos)])
    return np.asarray(local @ rotation.T + np.array(center), dtype=np.float64)


def project(matrix: Matrix, points: npt.ArrayLike) -> Array:
    """Points (n, 2) through a homography to (n, 2)."""
    flat = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = np.column_stack([flat, np.ones(len(flat))]) @ matrix.T
    return np.asarray(mapped[:, :2] / mapped[:, 2:])


def inner_corners(square: Corners, span: int, quiet: int) -> Corners:
    """A printed square's corners with its quiet zone left out: the code's own."""
    square = np.asarray(square, dtype=np.float64)
    top_left, top_right, _, bottom_left = square
    across, down = (top_right - top_left) / span, (bottom_left - top_left) / span
    inner = [
        (quiet, quiet),
        (span - quiet, quiet),
        (span - quiet, span - quiet),
        (quiet, span - quiet),
    ]
    return np.array([top_left + a * across + b * down for a, b in inner])


def code_corners(view: View, square: Corners, span: int, quiet: int) -> Array:
    """The code's corners in frame pixels, quiet zone left out, in the code's own order."""
    return view.project(inner_corners(square, span, quiet))


def code_side(view: View, square: Corners, span: int, quiet: int) -> float:
    """The mean side of the code in pixels, quiet zone left out, as a decoder measures it."""
    quad = code_corners(view, square, span, quiet)
    return float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).mean())
