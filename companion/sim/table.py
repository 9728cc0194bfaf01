"""The table, board and cards of a simulated frame: everything that lies under the codes.

None of it has fine detail, so it is painted once on a raster of a few pixels per
millimetre and warped into the frame through the camera's homography in one go,
which is far cheaper than drawing in frame pixels. Wood grain and card pictures are
random, to give a reader the clutter of a real table.
"""

import math

import cv2
import numpy as np
import numpy.typing as npt

from companion.colours import RGB
from companion.kit.layouts import Rect
from companion.sim.camera import CameraPose, Matrix, project, px_per_mm
from companion.sim.pixels import Image, scaled
from companion.sim.scene import Scene

RASTER_PX_PER_MM = 3.0
"""Most pixels per millimetre of the painted table: cards and wood have no fine detail."""
RASTER_MAX_SIDE = 4096
"""Longest side of the painted table, in pixels, whatever the camera."""
TABLE_MARGIN_MM = 300.0
"""How far beyond the board the table is painted; further out its edge is repeated."""
CARD_MM = (80.0, 120.0)
"""A Dixit card, width and height."""
CARD_BORDER_MM = 3.5
"""The card's light frame around its illustration."""
BOARD = (112, 80, 50)
"""BGR of the board: a dark blue, so that the board's edge stands out from the wood."""
BOARD_EDGE = (72, 50, 30)
"""BGR of the darker band round the board."""
TABLE = (60, 100, 150)
"""BGR of the wooden table."""
CARD_FRAME = (222, 232, 238)
"""BGR of a card's light frame."""
NUMBERS = (205, 210, 215)
"""BGR of the slot numbers printed beside the slot tags."""


def paint_table(
    scene: Scene, pose: CameraPose, board_to_px: Matrix, rng: np.random.Generator
) -> Image:
    """The table, board and cards as the camera sees them, before any code is drawn.

    They are painted on a raster covering what the frame shows of the table (within
    `TABLE_MARGIN_MM` of the board), then warped into the frame in one go.
    """
    width, height = pose.frame_px
    board = np.array(scene.layout.board_mm)
    frame_corners = [(0, 0), (width - 1, 0), (width - 1, height - 1), (0, height - 1)]
    seen = project(np.asarray(np.linalg.inv(board_to_px), np.float64), frame_corners)
    low = np.clip(seen.min(axis=0), -TABLE_MARGIN_MM, 0.0)
    high = np.clip(seen.max(axis=0), board, board + TABLE_MARGIN_MM)
    look = (board[0] / 2 + pose.offset_mm[0], board[1] / 2 + pose.offset_mm[1])
    density = min(
        RASTER_PX_PER_MM,
        px_per_mm(board_to_px, look),
        RASTER_MAX_SIDE / float((high - low).max()),
    )
    to_raster = np.array(
        [[density, 0, -low[0] * density - 0.5], [0, density, -low[1] * density - 0.5], [0, 0, 1]]
    )
    cols, rows = np.ceil((high - low) * density).astype(int)
    raster = _tinted(TABLE, _grain(int(rows), int(cols), rng), 0.1)
    _paint_board(raster, scene, to_raster, density, rng)
    warped = cv2.warpPerspective(
        raster,
        board_to_px @ np.linalg.inv(to_raster),
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(warped, dtype=np.uint8)


def _relief(
    rows: int, cols: int, cell: tuple[float, float], rng: np.random.Generator
) -> npt.NDArray[np.float32]:
    """Smooth random relief, mostly within -1..1, with features about `cell` (rows,
    columns) pixels large."""
    grid = (max(2, round(rows / cell[0])), max(2, round(cols / cell[1])))
    small = rng.standard_normal(grid, dtype=np.float32)
    return np.asarray(cv2.resize(small, (cols, rows), interpolation=cv2.INTER_CUBIC), np.float32)


def _grain(rows: int, cols: int, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """Wood: long streaks across the table and a few broad patches."""
    streaks = _relief(rows, cols, (5.0, 200.0), rng)
    patches = _relief(rows, cols, (80.0, 80.0), rng)
    return np.asarray(cv2.addWeighted(streaks, 1.0, patches, 0.5, 0.0), np.float32)


def _tinted(colour: RGB, relief: npt.NDArray[np.float32], depth: float) -> Image:
    """A colour shaded by a relief map: each pixel is the colour times 1 + depth * relief."""
    channels = [cv2.convertScaleAbs(relief, alpha=depth * c, beta=float(c)) for c in colour]
    return np.asarray(cv2.merge(channels), dtype=np.uint8)


def _paint_board(
    raster: Image, scene: Scene, to_raster: Matrix, density: float, rng: np.random.Generator
) -> None:
    """The board with its edge, the slot numbers beside the slot tags, and the cards."""
    layout = scene.layout
    (x0, y0), (x1, y1) = project(to_raster, [(0, 0), layout.board_mm]).round().astype(int)
    raster[y0:y1, x0:x1] = _tinted(BOARD, _relief(y1 - y0, x1 - x0, (40.0, 40.0), rng), 0.08)
    cv2.rectangle(raster, (x0, y0), (x1 - 1, y1 - 1), BOARD_EDGE, max(1, round(6 * density)))
    scale = 10 * density / 22  # Hershey glyphs are about 22 px tall at scale 1: 10 mm digits
    for spec in layout.slots:
        beside = (spec.tag_center_mm[0] + spec.tag_size_mm / 2 + 3, spec.tag_center_mm[1] + 5)
        x, y = project(to_raster, [beside])[0].round().astype(int)
        thick = max(1, round(scale * 2))
        cv2.putText(raster, str(spec.slot), (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, NUMBERS, thick)
    for spec in layout.slots:
        if scene.cards.get(spec.slot, False):
            _paint_card(raster, spec.card_mm, to_raster, density, rng)


def _paint_card(
    raster: Image,
    area: Rect,
    to_raster: Matrix,
    density: float,
    rng: np.random.Generator,
) -> None:
    """A card laid a little askew in its area, with a made-up picture."""
    x0, y0, x1, y1 = area
    fit = min(1.0, (x1 - x0 - 8) / CARD_MM[0], (y1 - y0 - 8) / CARD_MM[1])
    card_w, card_h = CARD_MM[0] * fit, CARD_MM[1] * fit
    slack_x, slack_y = max(0.0, x1 - x0 - card_w - 8) / 2, max(0.0, y1 - y0 - card_h - 8) / 2
    centre = (
        (x0 + x1) / 2 + float(rng.uniform(-slack_x, slack_x)),
        (y0 + y1) / 2 + float(rng.uniform(-slack_y, slack_y)),
    )
    turn = math.radians(float(rng.uniform(-4.0, 4.0)))
    along, down = (
        np.array([math.cos(turn), math.sin(turn)]),
        np.array([-math.sin(turn), math.cos(turn)]),
    )
    top_left = np.array(centre) - along * card_w / 2 - down * card_h / 2
    corners = project(to_raster, [top_left, top_left + along * card_w, top_left + down * card_h])
    picture = _picture(
        max(8, round(card_w * density)), max(8, round(card_h * density)), density, rng
    )
    rows, cols = picture.shape[:2]
    src = np.array([(-0.5, -0.5), (cols - 0.5, -0.5), (-0.5, rows - 0.5)], dtype=np.float32)
    affine = cv2.getAffineTransform(src, corners.astype(np.float32))
    _paste(raster, picture, np.asarray(affine, np.float64))


def _picture(cols: int, rows: int, density: float, rng: np.random.Generator) -> Image:
    """A card: a light frame round a dreamlike picture of sky and blobs of colour."""
    card = np.empty((rows, cols, 3), dtype=np.uint8)
    card[:] = CARD_FRAME
    border = min(round(CARD_BORDER_MM * density), cols // 4, rows // 4)
    inner_rows, inner_cols = rows - 2 * border, cols - 2 * border
    sky, ground = rng.integers(20, 236, size=(2, 3)).astype(np.float32)
    fall = np.linspace(0.0, 1.0, inner_rows, dtype=np.float32)[:, None, None]
    art = np.ascontiguousarray(
        np.broadcast_to(sky * (1 - fall) + ground * fall, (inner_rows, inner_cols, 3)),
        dtype=np.uint8,
    )
    for _ in range(int(rng.integers(5, 12))):
        colour = tuple(int(c) for c in rng.integers(0, 256, size=3))
        middle = (int(rng.integers(inner_cols)), int(rng.integers(inner_rows)))
        axes = (
            int(rng.integers(2, inner_cols // 3 + 3)),
            int(rng.integers(2, inner_rows // 3 + 3)),
        )
        angle = float(rng.uniform(0, 180))
        cv2.ellipse(art, middle, axes, angle, 0, 360, colour, -1, cv2.LINE_AA)
    card[border : rows - border, border : cols - border] = cv2.GaussianBlur(art, (0, 0), density)
    return card


def _paste(canvas: Image, picture: Image, affine: npt.NDArray[np.float64]) -> None:
    """Lay `picture` onto `canvas` through an affine map, with anti-aliased edges."""
    rows, cols = picture.shape[:2]
    ends = np.array(
        [(-0.5, -0.5, 1), (cols - 0.5, -0.5, 1), (cols - 0.5, rows - 0.5, 1), (-0.5, rows - 0.5, 1)]
    )
    corners = ends @ affine.T
    left, top = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    right, bottom = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, canvas.shape[1::-1])
    if right <= left or bottom <= top:
        return
    shifted = affine - np.array([[0, 0, left], [0, 0, top]])
    size = (int(right - left), int(bottom - top))
    laid = cv2.warpAffine(picture, shifted, size, flags=cv2.INTER_LINEAR)
    cover = cv2.warpAffine(
        np.full((rows, cols), 255, np.uint8), shifted, size, flags=cv2.INTER_LINEAR
    )
    _blend(canvas[top:bottom, left:right], np.asarray(laid, np.uint8), np.asarray(cover, np.uint8))


def _blend(under: Image, over: Image, cover: npt.NDArray[np.uint8]) -> None:
    """Mix `over` onto `under` in place, `cover` (0 to 255) saying how much."""
    under[:] = cv2.add(scaled(under, cv2.bitwise_not(cover)), scaled(over, cover))
