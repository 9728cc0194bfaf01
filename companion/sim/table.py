"""The table, board and cards of a simulated frame: everything that lies under the codes.

None of it has fine detail, so it is painted on a raster of a few pixels per
millimetre and brought into the frame through the lens (`View.board_map`), which is
far cheaper than drawing in frame pixels. The table and board are painted once per
camera pose (they do not move); the cards once per deal. Wood grain and card
pictures are random, to give a reader the clutter of a real table.
"""

import cv2
import numpy as np
import numpy.typing as npt

from companion.colours import RGB
from companion.kit.layouts import Layout
from companion.sim.camera import Matrix, View, project
from companion.sim.pixels import Image, Rect, overlap, scaled
from companion.sim.scene import CardPose, Scene

RASTER_PX_PER_MM = 3.0
"""Most pixels per millimetre of the painted table: cards and wood have no fine detail."""
RASTER_MAX_SIDE = 4096
"""Longest side of the painted table, in pixels, whatever the camera."""
TABLE_MARGIN_MM = 300.0
"""How far beyond the board the table is painted; further out its edge is repeated."""
BAND_ROWS = 256
"""Frame rows brought through the lens at a time: the maps of a band stay small."""
TEXTURE_SEED = 20_260_101
"""The seed of the table's wood grain and the board's texture: one table for every
frame, whatever generator draws the rest."""
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


def paint_board(layout: Layout, view: View) -> Image:
    """The table and the board (without cards or tags) as the camera sees them.

    They are painted on a raster covering what the frame shows of the table (within
    `TABLE_MARGIN_MM` of the board), then brought into the frame through the lens a
    band of rows at a time. Their grain is the same in every frame: it is the same
    table.
    """
    width, height = view.pose.frame_px
    board = np.array(layout.board_mm)
    edge = [
        (x, y)
        for x in (0, (width - 1) / 2, width - 1)
        for y in (0, (height - 1) / 2, height - 1)
        if (x, y) != ((width - 1) / 2, (height - 1) / 2)
    ]
    seen = view.board_points(edge)
    low = np.clip(seen.min(axis=0), -TABLE_MARGIN_MM, 0.0)
    high = np.clip(seen.max(axis=0), board, board + TABLE_MARGIN_MM)
    look = (board[0] / 2 + view.pose.offset_mm[0], board[1] / 2 + view.pose.offset_mm[1])
    density = min(
        RASTER_PX_PER_MM, view.px_per_mm(look), RASTER_MAX_SIDE / float((high - low).max())
    )
    grain = np.random.default_rng(TEXTURE_SEED)
    cols, rows = np.ceil((high - low) * density).astype(int)
    raster = _tinted(TABLE, _grain(int(rows), int(cols), grain), 0.1)
    to_raster = np.array(
        [[density, 0, -low[0] * density - 0.5], [0, density, -low[1] * density - 0.5], [0, 0, 1]]
    )
    _paint_board(raster, layout, to_raster, density, grain)
    frame = np.empty((height, width, 3), np.uint8)
    for top in range(0, height, BAND_ROWS):
        bottom = min(height, top + BAND_ROWS)
        map_x, map_y = view.board_map((0, top, width, bottom))
        frame[top:bottom] = cv2.remap(
            raster,
            map_x * np.float32(density) + np.float32(to_raster[0, 2]),
            map_y * np.float32(density) + np.float32(to_raster[1, 2]),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return frame


def card_boxes(scene: Scene, view: View) -> list[Rect]:
    """The frame rectangles the scene's cards lie in."""
    return [_card_box(pose, view) for pose in scene.card_poses().values()]


def _card_box(pose: CardPose, view: View) -> Rect:
    seen = view.project(pose.corners())
    left, top = np.floor(seen.min(axis=0)).astype(int) - 2
    right, bottom = np.ceil(seen.max(axis=0)).astype(int) + 3
    return (int(left), int(top), int(right), int(bottom))


def paint_cards(frame: Image, scene: Scene, view: View) -> None:
    """The scene's cards laid onto a frame of the board, each where its deal puts it,
    with the picture its deal gives it."""
    rows, cols = frame.shape[:2]
    for slot, pose in scene.card_poses().items():
        corners = pose.corners()
        box = overlap(_card_box(pose, view), (0, 0, cols, rows))
        if box is None:
            continue
        left, top, right, bottom = box
        width, height = pose.size_mm
        draw = np.random.default_rng([scene.deal, slot, 1])
        density = RASTER_PX_PER_MM
        picture = _picture(
            max(8, round(width * density)), max(8, round(height * density)), density, draw
        )
        map_x, map_y = view.board_map(box)
        along = (corners[1] - corners[0]) / width
        down = (corners[3] - corners[0]) / height
        dx, dy = map_x - np.float32(corners[0][0]), map_y - np.float32(corners[0][1])
        scale = np.float32(picture.shape[1] / width)
        u = (dx * np.float32(along[0]) + dy * np.float32(along[1])) * scale - np.float32(0.5)
        v = (dx * np.float32(down[0]) + dy * np.float32(down[1])) * scale - np.float32(0.5)
        laid = cv2.remap(picture, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        solid = np.full(picture.shape[:2], 255, np.uint8)
        cover = cv2.remap(solid, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        _blend(
            frame[top:bottom, left:right], np.asarray(laid, np.uint8), np.asarray(cover, np.uint8)
        )


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
    raster: Image, layout: Layout, to_raster: Matrix, density: float, rng: np.random.Generator
) -> None:
    """The board with its edge and the slot numbers beside the slot tags."""
    (x0, y0), (x1, y1) = project(to_raster, [(0, 0), layout.board_mm]).round().astype(int)
    raster[y0:y1, x0:x1] = _tinted(BOARD, _relief(y1 - y0, x1 - x0, (40.0, 40.0), rng), 0.08)
    cv2.rectangle(raster, (x0, y0), (x1 - 1, y1 - 1), BOARD_EDGE, max(1, round(6 * density)))
    scale = 10 * density / 22  # Hershey glyphs are about 22 px tall at scale 1: 10 mm digits
    for spec in layout.slots:
        beside = (spec.tag_center_mm[0] + spec.tag_size_mm / 2 + 3, spec.tag_center_mm[1] + 5)
        x, y = project(to_raster, [beside])[0].round().astype(int)
        thick = max(1, round(scale * 2))
        cv2.putText(raster, str(spec.slot), (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, NUMBERS, thick)


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


def _blend(under: Image, over: Image, cover: npt.NDArray[np.uint8]) -> None:
    """Mix `over` onto `under` in place, `cover` (0 to 255) saying how much."""
    under[:] = cv2.add(scaled(under, cv2.bitwise_not(cover)), scaled(over, cover))
