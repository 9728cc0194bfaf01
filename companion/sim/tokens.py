"""Tokens as they lie on a real table: where a printed square is in space, and the disc under it.

A flat printed tag lies on the board (or on a card, a fraction of a millimetre up).
A token a café makes is the tag glued on a disc a few millimetres thick: its face
stands above the board, so the camera sees it a little larger and a little off its
place towards the frame's edge; its side shows as a darker crescent, it casts a
soft shadow, and its rim carries the player's colour. Lying across a card's edge or
partly on another token it leans a few degrees. This module places a token's printed
square and its disc in three dimensions (board millimetres, and the height above the
board) and draws the disc; `codes` draws the code on it.
"""

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.colours import BY_NAME
from companion.kit.tags import KitTag
from companion.sim.camera import View, square_mm
from companion.sim.pixels import Canvas, scaled, stretched
from companion.sim.scene import Disc, Placement

Points3 = npt.NDArray[np.float64]
"""Table points as an (n, 3) array: board millimetres and the height above the board."""

OUTLINE_POINTS = 48
"""Points on a disc's edge when it is drawn as a polygon."""
LIGHT_FROM_DEG = 225.0
"""Where the café's lamps shine from, clockwise from the board's x axis as seen from
above (the top left): shadows fall the other way."""
LIGHT_ELEVATION_DEG = 55.0
"""How high above the horizon the light comes from."""
SHADOW_DEPTH = 0.45
"""How much light a token's shadow takes away at its darkest."""
SHADOW_SOFTNESS_MM = 1.5
"""How soft a token's shadow is (the lamps are not points)."""
SIDE_SHADE = 0.55
"""How dark a disc's side is against its rim: it faces away from the light."""
TRAP_RIM = (70, 70, 70)
"""BGR of the trap dial's rim: it has no player colour."""
PAPER = (236, 238, 238)
"""BGR of a printed tag's paper (and a disc's face): a little below white, as a camera
sees it."""
SHRINK = 4
"""A shadow is worked out at this fraction of the frame's resolution."""


@dataclass(frozen=True, eq=False)
class Solid:
    """A disc under a printed tag, in three dimensions."""

    top: Points3
    """The edge of its top face."""
    face: Points3
    """The edge of the white face inside the coloured rim."""
    bottom: Points3
    """The edge of its underside."""
    rim: tuple[int, int, int]
    """BGR of the rim."""


def face_axes(placement: Placement) -> tuple[Points3, Points3, Points3]:
    """Where a flat offset (dx, dy) from the token's centre lies in space, as the
    images of the board's x and y axes on its face and the face's upward normal."""
    tilt, towards = math.radians(placement.tilt_deg), math.radians(placement.tilt_towards_deg)
    down = np.array([math.cos(towards), math.sin(towards), 0.0])
    side = np.array([-math.sin(towards), math.cos(towards), 0.0])
    slope = np.array(
        [math.cos(tilt) * down[0], math.cos(tilt) * down[1], -math.sin(tilt)]
    )  # the face's axis along which it leans down
    x_axis = down[0] * slope + side[0] * side
    y_axis = down[1] * slope + side[1] * side
    normal = np.cross(slope, side)
    return x_axis, y_axis, normal if normal[2] > 0 else -normal


def face_points(placement: Placement, offsets: npt.ArrayLike, height_mm: float) -> Points3:
    """Points of a token's face, given as flat offsets (n, 2) from its centre, in
    space: the face's centre stands `height_mm` above the board."""
    flat = np.asarray(offsets, dtype=np.float64).reshape(-1, 2)
    x_axis, y_axis, _ = face_axes(placement)
    centre = np.array([*placement.center_mm, height_mm])
    return np.asarray(centre + flat[:, :1] * x_axis + flat[:, 1:] * y_axis)


def face_height(placement: Placement, disc: Disc | None, radius_mm: float) -> float:
    """How high the middle of a token's face stands: on what it lies, its thickness,
    and the rise of a lean (it rests on its low edge)."""
    thickness = disc.thickness_mm if disc is not None else 0.0
    rise = radius_mm * math.sin(math.radians(placement.tilt_deg))
    return thickness + rise


def printed_square(placement: Placement, size_mm: float, disc: Disc | None) -> Points3:
    """The corners of a token's printed square (quiet zone included) in space, in the
    square's own order."""
    radius = size_mm * (disc.across if disc is not None else 1.0) / 2
    offsets = square_mm((0.0, 0.0), size_mm, placement.angle_deg)
    return face_points(placement, offsets, face_height(placement, disc, radius))


def solid(placement: Placement, size_mm: float, disc: Disc) -> Solid:
    """The disc under a token's tag, in space, with its rim's colour."""
    radius = size_mm * disc.across / 2
    height = face_height(placement, disc, radius)
    turns = np.linspace(0.0, 2 * math.pi, OUTLINE_POINTS, endpoint=False)
    circle = np.column_stack([np.cos(turns), np.sin(turns)])
    top = face_points(placement, circle * radius, height)
    face = face_points(placement, circle * (radius - disc.rim_mm), height)
    _, _, normal = face_axes(placement)
    return Solid(top, face, top - normal * disc.thickness_mm, _rim(placement.tag))


def _rim(tag: KitTag) -> tuple[int, int, int]:
    if tag.colour is None:
        return TRAP_RIM
    red, green, blue = BY_NAME[tag.colour].rgb
    return (blue, green, red)


def silhouette(body: Solid, view: View) -> npt.NDArray[np.float64]:
    """The outline of all the camera sees of a disc (top and side), in frame pixels."""
    points = view.project(np.vstack([body.top, body.bottom])).astype(np.float32)
    return np.asarray(cv2.convexHull(points).reshape(-1, 2), np.float64)


def shadow_outline(body: Solid, view: View) -> npt.NDArray[np.float64]:
    """The outline of a disc's shadow on the board, in frame pixels: its top and its
    underside cast along the light onto the board."""
    away = math.radians(LIGHT_FROM_DEG + 180.0)
    reach = 1.0 / math.tan(math.radians(LIGHT_ELEVATION_DEG))
    cast = []
    for edge in (body.top, body.bottom):
        heights = edge[:, 2:]
        cast.append(edge[:, :2] + heights * reach * np.array([math.cos(away), math.sin(away)]))
    points = view.project(np.vstack(cast)).astype(np.float32)
    return np.asarray(cv2.convexHull(points).reshape(-1, 2), np.float64)


def bounds_of(outlines: list[npt.NDArray[np.float64]], margin: float) -> tuple[int, int, int, int]:
    """The frame rectangle holding the outlines, `margin` pixels round them."""
    points = np.vstack(outlines)
    low = np.floor(points.min(axis=0) - margin).astype(int)
    high = np.ceil(points.max(axis=0) + margin).astype(int) + 1
    return (int(low[0]), int(low[1]), int(high[0]), int(high[1]))


def draw_shadow(canvas: Canvas, body: Solid, view: View) -> None:
    """A disc's soft shadow on what lies under it, worked out at a quarter of the
    frame's resolution (a soft shadow has no detail) and stretched."""
    outline = shadow_outline(body, view)
    softness = SHADOW_SOFTNESS_MM * view.px_per_mm(tuple(body.bottom[:, :2].mean(axis=0)))
    box = canvas.clip(bounds_of([outline], 3 * softness + 2 * SHRINK))
    if box is None:
        return
    x0, y0, x1, y1 = box
    small = np.zeros(((y1 - y0) // SHRINK + 2, (x1 - x0) // SHRINK + 2), np.uint8)
    # small pixel i stands for pixels SHRINK*i .. SHRINK*i + SHRINK - 1, in 16ths
    corner = np.array([x0 + (SHRINK - 1) / 2, y0 + (SHRINK - 1) / 2])
    cv2.fillPoly(small, [_fixed((outline - corner) / SHRINK)], 255, cv2.LINE_AA, 4)
    soft = np.asarray(cv2.GaussianBlur(small, (0, 0), max(softness / SHRINK, 0.5)), np.uint8)
    grown = stretched(soft, SHRINK, (x1 - x0, y1 - y0))
    region = canvas.part(box)
    region[:] = scaled(region, cv2.convertScaleAbs(grown, alpha=-SHADOW_DEPTH, beta=255))


def draw_body(canvas: Canvas, body: Solid, view: View) -> None:
    """A disc's side and face, before its code is drawn on it."""
    blue, green, red = (round(c * SIDE_SHADE) for c in body.rim)
    side = (blue, green, red)
    _fill(canvas, silhouette(body, view), side)
    _fill(canvas, view.project(body.face), PAPER)


def draw_rim(canvas: Canvas, body: Solid, view: View) -> None:
    """A disc's coloured rim, drawn over the corners of its printed square."""
    outer, inner = view.project(body.top), view.project(body.face)
    origin = np.array(canvas.origin)
    contours = [_fixed(outer - origin), _fixed(inner[::-1] - origin)]
    cv2.fillPoly(canvas.image, contours, body.rim, cv2.LINE_AA, 4)


def _fill(canvas: Canvas, outline: npt.NDArray[np.float64], colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(canvas.image, [_fixed(outline - np.array(canvas.origin))], colour, cv2.LINE_AA, 4)


def _fixed(points: npt.NDArray[np.float64]) -> npt.NDArray[np.int32]:
    """Polygon points in OpenCV's fixed point with 4 fractional bits (`shift=4`)."""
    return np.rint(points * 16).astype(np.int32)
