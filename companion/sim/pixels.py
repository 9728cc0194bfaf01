"""BGR frames and the pixel arithmetic shared by painting the table and spoiling the frame.

Every step works on uint8 images with OpenCV's saturating operations: they are fast
on full frames and give the same bytes every time, which seeded frames rely on.
"""

from dataclasses import dataclass
from typing import Protocol, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
"""A BGR frame, or a single-channel mask, rows by columns."""


def scaled(image: cv2.typing.MatLike, gain: cv2.typing.MatLike) -> Image:
    """A BGR image scaled by a gain map, 255 leaving it unchanged."""
    return np.asarray(cv2.multiply(image, three_channels(gain), scale=1 / 255), np.uint8)


def three_channels(channel: cv2.typing.MatLike) -> Image:
    """One channel repeated as BGR."""
    return np.asarray(cv2.merge([channel, channel, channel]), np.uint8)


Rect = tuple[int, int, int, int]
"""Frame pixels x0, y0, x1, y1 (x1 and y1 excluded)."""


@dataclass(frozen=True, eq=False)
class Canvas:
    """Part of a frame to draw on: its pixels, and where they lie in the frame.

    The simulator paints a frame piece by piece (only where something moved), so
    everything is drawn in frame pixels onto whichever piece is at hand.
    """

    image: Image
    """The pixels, rows by columns."""
    origin: tuple[int, int]
    """The frame pixel of the image's top left corner."""

    @property
    def rect(self) -> Rect:
        """The frame rectangle the canvas covers."""
        x0, y0 = self.origin
        return (x0, y0, x0 + self.image.shape[1], y0 + self.image.shape[0])

    def clip(self, rect: Rect) -> Rect | None:
        """The part of a frame rectangle on the canvas, or None when none is."""
        return overlap(rect, self.rect)

    def part(self, rect: Rect) -> Image:
        """The canvas's pixels of a frame rectangle that lies on it."""
        x0, y0 = self.origin
        return self.image[rect[1] - y0 : rect[3] - y0, rect[0] - x0 : rect[2] - x0]


def overlap(a: Rect, b: Rect) -> Rect | None:
    """Where two rectangles overlap, or None."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def grown(rect: Rect, by: int) -> Rect:
    """A rectangle with `by` pixels more on every side."""
    return (rect[0] - by, rect[1] - by, rect[2] + by, rect[3] + by)


class Piece(Protocol):
    """Something drawn over the still table in one frame: a token, a hand, a glare."""

    @property
    def bounds(self) -> Rect:
        """The frame rectangle it changes (it may reach beyond the frame)."""
        ...

    def draw(self, canvas: Canvas) -> None:
        """Draw what of it lies on the canvas."""
        ...


Plane = TypeVar("Plane", npt.NDArray[np.float32], npt.NDArray[np.uint8])
"""A map worked out on a coarse grid: a gain, a wash, a mask, a layer of colour."""


def cell_centres(rect: Rect, step: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The frame pixels at the centres of `step`-wide cells covering a rectangle (one
    cell more each way than it needs), x and y as a grid: where to work out a smooth
    map that `stretched` then brings to every pixel."""
    x0, y0, x1, y1 = rect
    xs = x0 + np.arange((x1 - x0) // step + 2) * step + (step - 1) / 2
    ys = y0 + np.arange((y1 - y0) // step + 2) * step + (step - 1) / 2
    return np.meshgrid(xs, ys)


def stretched(coarse: Plane, step: int, size: tuple[int, int]) -> Plane:
    """A map worked out at the centres of `step`-wide cells (`cell_centres`) brought to
    every pixel of a rectangle `size` (width, height) by linear interpolation: smooth
    light, glare and shadows are worked out on a few pixels and stretched."""
    rows, cols = coarse.shape[:2]
    grown = cv2.resize(coarse, (cols * step, rows * step), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(grown[: size[1], : size[0]], dtype=coarse.dtype)
