"""Lens distortion: bending frame pixels straight, so that the board fits a homography.

A pinhole camera sees the flat board through one homography, but a real lens bends
it: a webcam's or the Camera Module 3 Wide's barrel draws the board's edges closer to
the middle than a homography puts them, by several millimetres at the corners. A
`Lens` undoes that with the usual radial model, written in the *undistortion*
direction so that reading a frame (the few dozen tag centres of every frame) is a
polynomial and needs no iteration: a frame pixel at distance r from the centre
(measured in `scale_px`) moves along its ray to distance f(r) = r (1 + k1 r² + k2 r⁴
+ k3 r⁶). Only drawing on the frame and looking for a tag where the board says it is
go the other way (`bend`), solving f for r.
"""

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.errors import CalibrationError
from companion.vision.records import Point

Points = npt.NDArray[np.float64]
"""Points as an (n, 2) array of x, y."""

MIN_STRETCH = 0.1
"""The least slope f may have over the frame: below it the correction squeezes the
frame's edge more than tenfold, which no lens does (a fit gone wrong), and where the
slope reaches 0 it folds the picture back on itself."""
MAX_STRETCH = 10.0
"""The greatest slope f may have over the frame: the Camera Module 3 Wide's barrel,
120 degrees corner to corner, asks for about 2; tenfold is a fisheye, which this
model does not describe, or a fit gone wrong."""
SCALE_REACH = (0.25, 4.0)
"""The least and most `scale_px` may be, in half-diagonals of the frame it is checked
over: calibration sets one half-diagonal (and a smaller frame's lens shrinks with its
frame), so anything far off is a damaged file, and would crush or lose the frame."""
CENTRE_REACH = 0.5
"""How far outside the frame the distortion's centre may lie, as a share of the
frame's width and height: a lens's centre is near the sensor's, so one further out
is a damaged file."""
FARTHEST = 1e6
"""Distance from the centre, in scale lengths, beyond which `bend` no longer looks
when f never stops growing: a million half-diagonals away, nothing a camera sees."""
FAR_PX = 1e100
"""Coordinates beyond this many scale lengths are bent as if they were there: such a
point comes only from a fit mapping a place far off the board, and must still give a
finite pixel."""
BEND_STEPS = 100
"""At most this many Newton or bisection steps find a radius: Newton needs about
five inside the frame, bisection fifty over the whole range."""
BEND_TOLERANCE = 1e-13
"""Radii (in scale lengths, about 2,600 px for a 12-megapixel frame) are found to
this, a small fraction of a micropixel."""


@dataclass(frozen=True)
class Lens:
    """A radial lens distortion, as the correction that straightens it.

    The default is the straight lens (all terms zero): no correction, as calibrations
    made before the lens was corrected had.
    """

    centre_px: tuple[float, float] = (0.0, 0.0)
    """The centre of the distortion (the principal point), in frame pixels."""
    scale_px: tuple[float, float] = (1.0, 1.0)
    """Distances from the centre are divided by this along each axis, so that the
    terms are alike for any frame size: a calibration uses half the frame's diagonal
    for both, and a frame of another size rescales them (`rescaled`)."""
    k: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """k1, k2, k3: the correction moves a point at distance r (in scale lengths) from
    the centre to r (1 + k1 r² + k2 r⁴ + k3 r⁶); positive terms undo a barrel."""

    @property
    def is_straight(self) -> bool:
        """Whether the lens corrects nothing (every frame pixel stays where it is)."""
        return not any(self.k)

    def straighten(self, points: Sequence[Point] | Points) -> Points:
        """Frame pixels to where a pinhole camera would have seen them, as (n, 2)."""
        array = _array(points)
        if self.is_straight:
            return array
        centre, scale = np.array(self.centre_px), np.array(self.scale_px)
        x = (array - centre) / scale
        r2 = np.sum(x * x, axis=1)
        return np.asarray(centre + scale * x * self._gain(r2)[:, None], np.float64)

    def bend(self, points: Sequence[Point] | Points) -> Points:
        """Straightened pixels back to frame pixels, as (n, 2): the inverse of
        `straighten`, to a micropixel inside the frame.

        Where the correction stops growing (a folding lens, far outside any frame it
        was checked over) nothing further out can be told apart, and every point beyond
        gets the radius of that fold, on its own ray; so does every point beyond
        `FARTHEST` scale lengths. The result is finite for any finite point.
        """
        array = _array(points)
        if self.is_straight:
            return array
        centre, scale = np.array(self.centre_px), np.array(self.scale_px)
        with np.errstate(over="ignore"):
            q = np.clip((array - centre) / scale, -FAR_PX, FAR_PX)
        rho = np.hypot(q[:, 0], q[:, 1])
        r = self._radius(rho)
        ratio = np.divide(r, rho, out=np.ones_like(rho), where=rho > 0)
        return np.asarray(centre + scale * q * ratio[:, None], np.float64)

    def rescaled(self, sx: float, sy: float) -> "Lens":
        """The same lens for a frame shrunk by `sx` and `sy` (a frame of 2304x1296 px
        read on a table calibrated at 4608x2592 px has sx = sy = 2), pixel centres at
        whole numbers in both: pixel p of the smaller frame is (p + 0.5) s - 0.5."""
        (cx, cy), (ux, uy) = self.centre_px, self.scale_px
        centre = ((cx + 0.5) / sx - 0.5, (cy + 0.5) / sy - 0.5)
        return Lens(centre, (ux / sx, uy / sy), self.k)

    def check(self, frame_size: tuple[int, int]) -> None:
        """Refuse (`CalibrationError`) a lens that cannot correct this frame: its centre
        far outside it, or a correction that does not keep growing, within
        `MIN_STRETCH` to `MAX_STRETCH`, from the centre to the frame's farthest corner
        (it would fold or crush the picture there, so that two places on the board
        could not be told apart)."""
        width, height = frame_size
        (cx, cy), (sx, sy) = self.centre_px, self.scale_px
        if not (sx > 0 and sy > 0):
            raise CalibrationError(f"the lens's scale must be above 0, not {sx:g}, {sy:g}")
        half = math.hypot(width, height) / 2
        reach = (SCALE_REACH[0] * half, SCALE_REACH[1] * half)
        if not self.is_straight and not all(reach[0] <= s <= reach[1] for s in (sx, sy)):
            raise CalibrationError(
                f"the lens's scale ({sx:g}, {sy:g} px) is not about half the "
                f"{width}x{height} frame's diagonal ({half:.0f} px), as a calibration's is"
            )
        if not (
            -CENTRE_REACH * width <= cx <= (1 + CENTRE_REACH) * width
            and -CENTRE_REACH * height <= cy <= (1 + CENTRE_REACH) * height
        ):
            raise CalibrationError(
                f"the lens's centre ({cx:.0f}, {cy:.0f}) lies far outside the "
                f"{width}x{height} frame"
            )
        if self.is_straight:
            return
        corners = np.array([(0, 0), (width, 0), (0, height), (width, height)], np.float64)
        with np.errstate(all="ignore"):
            reach = (corners - np.array(self.centre_px)) / np.array(self.scale_px)
            slopes = self._slopes(float(np.max(np.sum(reach * reach, axis=1))))
        if not np.all(np.isfinite(slopes)):
            raise CalibrationError(
                f"the lens correction is too large to compute over the {width}x{height} frame"
            )
        if slopes.min() < MIN_STRETCH:
            raise CalibrationError(
                f"the lens correction stops growing inside the {width}x{height} frame "
                f"(its slope falls to {slopes.min():.2f}, below {MIN_STRETCH:g}): it would "
                "fold the picture onto itself"
            )
        if slopes.max() > MAX_STRETCH:
            raise CalibrationError(
                f"the lens correction stretches the {width}x{height} frame's edge "
                f"{slopes.max():.0f}-fold (at most {MAX_STRETCH:.0f}): no such lens"
            )

    def _gain(self, r2: Points) -> Points:
        """1 + k1 r² + k2 r⁴ + k3 r⁶, from r²."""
        k1, k2, k3 = self.k
        return np.asarray(1.0 + r2 * (k1 + r2 * (k2 + r2 * k3)), np.float64)

    def _slope(self, r2: Points) -> Points:
        """f'(r) = 1 + 3 k1 r² + 5 k2 r⁴ + 7 k3 r⁶, from r²."""
        k1, k2, k3 = self.k
        return np.asarray(1.0 + r2 * (3 * k1 + r2 * (5 * k2 + r2 * 7 * k3)), np.float64)

    def _slopes(self, top: float) -> Points:
        """f' at radii from 0 to √`top` among which are its least and its greatest
        there: both ends, and wherever f' turns inside."""
        turns = [t for t in self._turns() if t < top]
        return self._slope(np.array([0.0, top, *turns]))

    def _turns(self) -> list[float]:
        """Where f' turns, as r² above 0: f' is a cubic in r², which turns where the
        quadratic 21 k3 t² + 10 k2 t + 3 k1 is 0."""
        k1, k2, k3 = self.k
        return [t for t in _quadratic_roots(21 * k3, 10 * k2, 3 * k1) if t > 0]

    @functools.cached_property
    def _fold(self) -> float:
        """The radius where f stops growing (the first r² where f' is 0: f' is
        monotonic between its turns, so a bisection finds it in the first stretch that
        ends below 0), or `FARTHEST` if f grows beyond."""
        ends = [*sorted(t for t in self._turns() if t < FARTHEST**2), FARTHEST**2]
        low = 0.0
        for high in ends:
            if self._slope(np.array([high]))[0] <= 0:
                for _ in range(BEND_STEPS):
                    middle = (low + high) / 2
                    if self._slope(np.array([middle]))[0] > 0:
                        low = middle
                    else:
                        high = middle
                return math.sqrt(low)
            low = high
        return FARTHEST

    def _radius(self, rho: Points) -> Points:
        """The radii that f takes to `rho`: Newton steps, kept inside a shrinking
        bracket by bisection where they would leave it (f is increasing up to the fold,
        so the bracket always holds the root)."""
        top = self._fold
        with np.errstate(over="ignore", invalid="ignore"):
            highest = float(top * self._gain(np.array([top * top]))[0])
        goal = np.minimum(rho, highest) if math.isfinite(highest) else rho
        low, high = np.zeros_like(goal), np.full_like(goal, top)
        r = np.minimum(goal, top)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            for _ in range(BEND_STEPS):
                r2 = r * r
                miss = r * self._gain(r2) - goal
                high = np.where(miss <= 0, high, r)  # a miss too large to compute is high
                low = np.where(miss <= 0, r, low)
                newton = r - miss / self._slope(r2)
                inside = np.isfinite(newton) & (newton >= low) & (newton <= high)
                step = np.where(inside, newton, (low + high) / 2)
                done = bool(np.all(np.abs(step - r) <= BEND_TOLERANCE * np.maximum(1.0, r)))
                r = step
                if done:
                    break
        return np.asarray(r, np.float64)


STRAIGHT = Lens()
"""The lens that corrects nothing: frames read as a pinhole camera's."""


def _quadratic_roots(a: float, b: float, c: float) -> list[float]:
    """The real roots of a t² + b t + c, each to full precision even when a is tiny
    (the textbook formula loses the small root then, and a companion matrix overflows);
    none when every coefficient is 0."""
    if a == 0:
        return [-c / b] if b != 0 else []
    disc = b * b - 4 * a * c
    if not disc >= 0:  # no real root, or one too large to compute
        return []
    q = -(b + math.copysign(math.sqrt(disc), b)) / 2
    roots = [q / a, c / q] if q != 0 else [0.0]
    return [r for r in roots if math.isfinite(r)]


def _array(points: Sequence[Point] | Points) -> Points:
    """Points as an (n, 2) float64 array, however they came."""
    return np.array(points, dtype=np.float64).reshape(-1, 2)
