"""The QR codes on a simulated table, and how each is drawn into the frame.

Every code (the board's tags, other people's codes, the tokens) is warped on its own
from its module matrix at several times the frame's resolution and averaged down, so
its edges are as crisp as a lens allows and fall where the geometry puts them: a
reader's corners can then be held to the truth's within a fraction of a pixel.
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
from companion.sim.camera import Corners, Matrix, module_map, project, square_mm
from companion.sim.pixels import Image
from companion.sim.scene import ForeignCode, Placement, Scene
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
PAPER = (236, 238, 238)
"""BGR of a tag's paper: a little below white, as a camera sees it."""
INK = (34, 32, 30)
"""BGR of printed modules: toner is never quite black."""


@dataclass(frozen=True)
class PrintedCode:
    """A code to draw: its matrix and where it lies."""

    text: str
    """What it says."""
    tag: KitTag | None
    """The kit tag, or None for a foreign code."""
    center_mm: Point
    """Its centre on the board."""
    square: Corners
    """Its printed square on the board, corners in its own order."""
    modules: Modules
    """Its matrix, quiet zone included."""
    quiet: int
    """Modules of quiet zone on each side of the matrix."""


def _foreign_modules(text: str) -> tuple[Modules, int]:
    """A foreign code's matrix and quiet zone: a tag of another kit is printed like
    ours; anything else as a QR code of whatever version its text needs."""
    try:
        tag = parse_tag(text)
    except ForeignTagError:
        matrix = np.array(segno.make_qr(text, error="m").matrix, dtype=np.bool_)
        return np.pad(matrix, FOREIGN_QUIET_ZONE), FOREIGN_QUIET_ZONE
    return tag_modules(tag), QUIET_ZONE_MODULES


def scene_codes(scene: Scene) -> list[PrintedCode]:
    """Every code to draw, bottom first: the board's tags, foreign codes, tokens."""

    def kit(placement: Placement) -> PrintedCode:
        size = scene.size_mm(placement.tag)
        square = square_mm(placement.center_mm, size, placement.angle_deg)
        modules = tag_modules(placement.tag)
        return PrintedCode(
            placement.tag.text,
            placement.tag,
            placement.center_mm,
            square,
            modules,
            QUIET_ZONE_MODULES,
        )

    def foreign(code: ForeignCode) -> PrintedCode:
        modules, quiet = _foreign_modules(code.text)
        square = square_mm(code.center_mm, code.size_mm, code.angle_deg)
        return PrintedCode(code.text, None, code.center_mm, square, modules, quiet)

    return [
        *map(kit, scene.anchors),
        *map(foreign, scene.foreign),
        *map(kit, scene.tokens),
    ]


def draw_code(frame: Image, code: PrintedCode, board_to_px: Matrix) -> None:
    """Warp a code's modules into the frame at a multiple of its resolution and
    average them down, so each edge falls where the geometry puts it."""
    span = code.modules.shape[0]
    to_px = board_to_px @ module_map(code.square, span)
    corners = project(to_px, [(0, 0), (span, 0), (span, span), (0, span)])
    left, top = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    right, bottom = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, frame.shape[1::-1])
    if right <= left or bottom <= top:
        return
    module_px = float(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).min()) / span
    s = int(np.clip(math.ceil(FINE_PX_PER_MODULE / max(module_px, 1e-6)), 1, MAX_SUPERSAMPLE))
    to_fine = np.array([[s, 0, s * (0.5 - left) - 0.5], [0, s, s * (0.5 - top) - 0.5], [0, 0, 1]])
    from_index = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    light = np.where(code.modules, 0, 255).astype(np.uint8)
    source = cv2.merge([light, np.full_like(light, 255)])
    cols, rows = int(right - left), int(bottom - top)
    fine = cv2.warpPerspective(
        source, to_fine @ to_px @ from_index, (cols * s, rows * s), flags=cv2.INTER_NEAREST
    )
    coarse = np.asarray(cv2.resize(fine, (cols, rows), interpolation=cv2.INTER_AREA), np.float32)
    cover, lit = coarse[..., 1:2] / 255, coarse[..., 0:1] / 255
    ink, paper = np.array(INK, np.float32), np.array(PAPER, np.float32)
    roi = frame[top:bottom, left:right]
    roi[:] = np.rint(roi * (1 - cover) + ink * cover + (paper - ink) * lit).astype(np.uint8)
