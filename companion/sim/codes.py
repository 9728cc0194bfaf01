"""The QR codes on a simulated table, and how each is drawn into the frame.

Every code (the board's tags, other people's codes, the tokens) is warped on its own
from its module matrix at several times the frame's resolution and averaged down, so
its edges are as crisp as a lens allows and fall where the geometry puts them: a
reader's corners can then be held to the truth's within a fraction of a pixel. A
code lies on the board, or on the face of a token, raised and perhaps leaning; its
printed square is kept in space (board millimetres and the height above the board).
"""

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
import segno

from companion.errors import ForeignTagError
from companion.kit.qr import tag_modules
from companion.kit.tags import QUIET_ZONE_MODULES, KitTag, parse_tag
from companion.sim.camera import View, project, square_mm
from companion.sim.pixels import Canvas
from companion.sim.scene import ForeignCode, Placement, Scene
from companion.sim.tokens import PAPER, Points3, Solid, printed_square, solid
from companion.vision.records import Point

Modules = npt.NDArray[np.bool_]
"""A module matrix with its quiet zone, True where dark."""

FOREIGN_QUIET_ZONE = 4
"""Quiet zone of codes printed by others: the four modules the QR standard asks for."""
FINE_PX_PER_MODULE = 12
"""Codes are drawn at a whole multiple of the frame's resolution that gives at least
this many pixels per module (up to `MAX_SUPERSAMPLE`), then averaged down: edges
then fall within a twelfth of a module of where the geometry puts them."""
MAX_SUPERSAMPLE = 8
"""The most a code's resolution is multiplied by, for codes a few pixels across."""
INK = (34, 32, 30)
"""BGR of printed modules: toner is never quite black."""


@dataclass(frozen=True, eq=False)
class PrintedCode:
    """A code to draw: its matrix, where it lies, and the disc under it if any."""

    text: str
    """What it says."""
    tag: KitTag | None
    """The kit tag, or None for a foreign code."""
    center_mm: Point
    """Its centre on the board, as laid (the point that decides its slot)."""
    square: Points3
    """Its printed square (quiet zone included) in space: corners (4, 3) in its own
    order, board millimetres and the height above the board."""
    modules: Modules
    """Its matrix, quiet zone included."""
    quiet: int
    """Modules of quiet zone on each side of the matrix."""
    body: Solid | None = None
    """The disc it is glued on, for a token with one."""


def _foreign_modules(text: str) -> tuple[Modules, int]:
    """A foreign code's matrix and quiet zone: a tag of another kit is printed like
    ours; anything else as a QR code of whatever version its text needs."""
    try:
        tag = parse_tag(text)
    except ForeignTagError:
        matrix = np.array(segno.make_qr(text, error="m").matrix, dtype=np.bool_)
        return np.pad(matrix, FOREIGN_QUIET_ZONE), FOREIGN_QUIET_ZONE
    return tag_modules(tag), QUIET_ZONE_MODULES


def flat(corners: npt.NDArray[np.float64]) -> Points3:
    """Board corners (4, 2) as points in space lying on the board."""
    return np.column_stack([corners, np.zeros(len(corners))])


def anchor_codes(scene: Scene) -> list[PrintedCode]:
    """The board's corner and slot tags that lie where the layout puts them."""
    return [_flat_tag(scene, placement) for placement in scene.anchors]


def moving_codes(scene: Scene) -> list[PrintedCode]:
    """Everything else, bottom first: foreign codes, then tokens, those lying on
    others last (a corner or slot tag among the tokens is a spare lying flat where it
    was put)."""

    def foreign(code: ForeignCode) -> PrintedCode:
        modules, quiet = _foreign_modules(code.text)
        square = flat(square_mm(code.center_mm, code.size_mm, code.angle_deg))
        return PrintedCode(code.text, None, code.center_mm, square, modules, quiet)

    def token(placement: Placement) -> PrintedCode:
        if not placement.tag.is_token:
            return _flat_tag(scene, placement)
        size = scene.size_mm(placement.tag)
        square = printed_square(placement, size, scene.disc)
        body = solid(placement, size, scene.disc) if scene.disc is not None else None
        modules = tag_modules(placement.tag)
        return PrintedCode(
            placement.tag.text,
            placement.tag,
            placement.center_mm,
            square,
            modules,
            QUIET_ZONE_MODULES,
            body,
        )

    resting = sorted(scene.tokens, key=lambda placement: placement.resting_on is not None)
    return [*map(foreign, scene.foreign), *map(token, resting)]


def _flat_tag(scene: Scene, placement: Placement) -> PrintedCode:
    size = scene.size_mm(placement.tag)
    square = flat(square_mm(placement.center_mm, size, placement.angle_deg))
    return PrintedCode(
        placement.tag.text,
        placement.tag,
        placement.center_mm,
        square,
        tag_modules(placement.tag),
        QUIET_ZONE_MODULES,
    )


def draw_code(canvas: Canvas, code: PrintedCode, view: View) -> None:
    """Warp a code's modules onto the canvas at a multiple of its resolution and
    average them down, so each edge falls where the geometry puts it."""
    span = code.modules.shape[0]
    to_px = view.patch_map(code.square, span)
    corners = project(to_px, [(0, 0), (span, 0), (span, span), (0, span)])
    left, top = np.floor(corners.min(axis=0)).astype(int)
    right, bottom = np.ceil(corners.max(axis=0)).astype(int) + 1
    box = canvas.clip((int(left), int(top), int(right), int(bottom)))
    if box is None:
        return
    left, top, right, bottom = box
    module_px = float(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).min()) / span
    s = int(np.clip(math.ceil(FINE_PX_PER_MODULE / max(module_px, 1e-6)), 1, MAX_SUPERSAMPLE))
    to_fine = np.array([[s, 0, s * (0.5 - left) - 0.5], [0, s, s * (0.5 - top) - 0.5], [0, 0, 1]])
    from_index = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    light = np.where(code.modules, 0, 255).astype(np.uint8)
    source = cv2.merge([light, np.full_like(light, 255)])
    cols, rows = right - left, bottom - top
    fine = cv2.warpPerspective(
        source, to_fine @ to_px @ from_index, (cols * s, rows * s), flags=cv2.INTER_NEAREST
    )
    coarse = np.asarray(cv2.resize(fine, (cols, rows), interpolation=cv2.INTER_AREA), np.float32)
    cover, lit = coarse[..., 1:2] / 255, coarse[..., 0:1] / 255
    ink, paper = np.array(INK, np.float32), np.array(PAPER, np.float32)
    roi = canvas.part(box)
    roi[:] = np.rint(roi * (1 - cover) + ink * cover + (paper - ink) * lit).astype(np.uint8)
