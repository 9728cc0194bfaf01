"""Drawing a simulated camera frame of a scene, with the ground truth of every code in it.

The board, the table and the cards are painted once at a few pixels per millimetre
and warped into the frame through the camera's homography; every QR code is warped
on its own from its module matrix at several times the frame's resolution and
averaged down, so its edges are as crisp as a lens allows. Hands, glare, an uneven
light, blur, sensor noise and JPEG compression follow, each as mild or as harsh as
the `Conditions` say.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import cv2
import numpy as np
import numpy.typing as npt
import segno

from companion.errors import ForeignTagError, SettingError
from companion.kit.layouts import Rect
from companion.kit.qr import tag_modules
from companion.kit.tags import QUIET_ZONE_MODULES, KitTag, parse_tag
from companion.vision.records import Point, Quad
from companion.vision.sim_scene import (
    CameraPose,
    Corners,
    ForeignCode,
    Matrix,
    Obstruction,
    Placement,
    Scene,
    SimTruth,
    TagTruth,
    code_corners,
    code_side,
    module_map,
    project,
    square_mm,
)

Image = npt.NDArray[np.uint8]
"""A BGR frame, or a single-channel mask, rows by columns."""
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
HAND_LIFT = 1.25
"""Hands hover nearer the camera than the board and look this much larger."""
GLARE_BURNT = 0.5
"""Glare this strong (share of the way to white) anywhere on a code counts as burnt out."""
PAPER = (236, 238, 238)
"""BGR of a tag's paper: a little below white, as a camera sees it."""
INK = (34, 32, 30)
"""BGR of printed modules: toner is never quite black."""
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
SKIN = ((150, 180, 228), (128, 158, 210), (104, 134, 186), (78, 104, 150), (56, 76, 112))
"""BGR skin tones, light to dark."""


@dataclass(frozen=True)
class Conditions:
    """What makes a frame harder to read than a scan: optics, sensor, light and hands.

    The defaults are a good café: a little blur and noise, a gentle light gradient,
    no glare, no hands, the camera's usual JPEG compression.
    """

    blur_sigma_px: float = 0.7
    """Gaussian blur of lens and focus, in pixels."""
    noise_sigma: float = 2.5
    """Sensor noise, in grey levels: its standard deviation in the grey frame."""
    gradient: float = 0.2
    """How much darker the dim side of the frame is than the bright side (0 to <1)."""
    gradient_deg: float = 30.0
    """Direction the light falls off towards, clockwise from the frame's right."""
    glare_spots: int = 0
    """Bright reflections that wash out part of the frame."""
    glare_strength: float = 0.9
    """Share of the way to white at a reflection's centre (0 to 1)."""
    glare_radius: float = 0.05
    """Size (standard deviation) of a reflection, as a share of the frame's width."""
    hands: int = 0
    """Hands and arms reaching over the board from the frame's edges."""
    jpeg_quality: int | None = 90
    """JPEG quality the frame is compressed at; None leaves it uncompressed."""

    def __post_init__(self) -> None:
        checks = (
            (self.blur_sigma_px >= 0, "blur_sigma_px must be 0 or more"),
            (self.noise_sigma >= 0, "noise_sigma must be 0 or more"),
            (0 <= self.gradient < 1, "gradient must be from 0 up to (not including) 1"),
            (self.glare_spots >= 0, "glare_spots must be 0 or more"),
            (0 <= self.glare_strength <= 1, "glare_strength must be from 0 to 1"),
            (self.glare_radius > 0, "glare_radius must be more than 0"),
            (self.hands >= 0, "hands must be 0 or more"),
            (self.jpeg_quality is None or 1 <= self.jpeg_quality <= 100, "jpeg_quality: 1-100"),
        )
        for ok, message in checks:
            if not ok:
                raise SettingError(f"conditions: {message}")


@dataclass(frozen=True, eq=False)
class SimFrame:
    """A simulated camera frame and its truth."""

    image: Image
    """The frame: BGR, uint8, (height, width, 3)."""
    truth: SimTruth
    """What it shows."""


@dataclass(frozen=True)
class _Code:
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


@dataclass(frozen=True)
class _Glare:
    """A reflection: centre and size in pixels, strength at the centre."""

    center: Point
    """Centre in frame pixels."""
    sigma: float
    """Standard deviation of its brightness, in pixels."""
    strength: float
    """Share of the way to white at the centre."""


def render(
    scene: Scene, pose: CameraPose, conditions: Conditions, rng: np.random.Generator
) -> SimFrame:
    """The frame a camera at `pose` takes of `scene` in `conditions`, with its truth.

    Everything random (card pictures, hands, glare, noise) comes from `rng`, so a
    generator seeded alike gives the same frame, pixel for pixel.
    """
    board_to_px = pose.homography(scene.layout.board_mm)
    codes = _codes(scene)
    _check_in_front(board_to_px, scene, codes)
    frame = _table(scene, pose, board_to_px, rng)
    for code in codes:
        _draw_code(frame, code, board_to_px)
    hands = _draw_hands(frame, conditions.hands, scene, board_to_px, rng)
    spots = _draw_glare(frame, conditions, scene, board_to_px, rng)
    truth = SimTruth(scene, pose, board_to_px, _truths(codes, board_to_px, frame, hands, spots))
    return SimFrame(_camera(frame, conditions, rng), truth)


def _foreign_modules(text: str) -> tuple[Modules, int]:
    """A foreign code's matrix and quiet zone: a tag of another kit is printed like
    ours; anything else as a QR code of whatever version its text needs."""
    try:
        tag = parse_tag(text)
    except ForeignTagError:
        matrix = np.array(segno.make_qr(text, error="m").matrix, dtype=np.bool_)
        return np.pad(matrix, FOREIGN_QUIET_ZONE), FOREIGN_QUIET_ZONE
    return tag_modules(tag), QUIET_ZONE_MODULES


def _codes(scene: Scene) -> list[_Code]:
    """Every code to draw, bottom first: the board's tags, foreign codes, tokens."""

    def kit(placement: Placement) -> _Code:
        size = scene.size_mm(placement.tag)
        square = square_mm(placement.center_mm, size, placement.angle_deg)
        modules = tag_modules(placement.tag)
        return _Code(
            placement.tag.text,
            placement.tag,
            placement.center_mm,
            square,
            modules,
            QUIET_ZONE_MODULES,
        )

    def foreign(code: ForeignCode) -> _Code:
        modules, quiet = _foreign_modules(code.text)
        square = square_mm(code.center_mm, code.size_mm, code.angle_deg)
        return _Code(code.text, None, code.center_mm, square, modules, quiet)

    return [
        *map(kit, scene.anchors),
        *map(foreign, scene.foreign),
        *map(kit, scene.tokens),
    ]


def _check_in_front(board_to_px: Matrix, scene: Scene, codes: Sequence[_Code]) -> None:
    """Refuse a pose that puts part of the board or a code behind the camera, where
    the homography would fold it back into the frame."""
    width, height = scene.layout.board_mm
    points = [np.array([(0, 0), (width, 0), (width, height), (0, height)])]
    points += [code.square for code in codes]
    depths = np.column_stack([np.vstack(points), np.ones(sum(len(p) for p in points))])
    if (depths @ board_to_px[2] <= 0).any():
        raise SettingError("the camera must see the whole board and every code in front of it")


def _px_per_mm(board_to_px: Matrix, point: Point) -> float:
    """Local scale of the map at a board point: the root of its Jacobian's determinant."""
    x, y, w = board_to_px @ np.array([point[0], point[1], 1.0])
    jacobian = (board_to_px[:2, :2] - np.outer([x / w, y / w], board_to_px[2, :2])) / w
    return math.sqrt(abs(float(np.linalg.det(jacobian))))


def _table(scene: Scene, pose: CameraPose, board_to_px: Matrix, rng: np.random.Generator) -> Image:
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
        _px_per_mm(board_to_px, look),
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


def _tinted(colour: tuple[int, int, int], relief: npt.NDArray[np.float32], depth: float) -> Image:
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
    under[:] = cv2.add(_scaled(under, cv2.bitwise_not(cover)), _scaled(over, cover))


def _draw_code(frame: Image, code: _Code, board_to_px: Matrix) -> None:
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


def _draw_hands(
    frame: Image, count: int, scene: Scene, board_to_px: Matrix, rng: np.random.Generator
) -> Image | None:
    """Hands reaching in from the frame's edges to random points over the board, with
    soft shadows; the mask of what they cover, or None without hands."""
    if count == 0:
        return None
    rows, cols = frame.shape[:2]
    mask = np.zeros((rows, cols), dtype=np.uint8)
    board_w, board_h = scene.layout.board_mm
    for _ in range(count):
        target = (board_w * float(rng.uniform(0.1, 0.9)), board_h * float(rng.uniform(0.1, 0.9)))
        tip = project(board_to_px, [target])[0]
        along = float(rng.uniform(0.15, 0.85))
        entry = np.array(
            [
                (along * cols, -0.2 * rows),
                (1.2 * cols, along * rows),
                (along * cols, 1.2 * rows),
                (-0.2 * cols, along * rows),
            ][int(rng.integers(4))]
        )
        mm = _px_per_mm(board_to_px, target) * HAND_LIFT
        shapes = _hand(entry, tip, mm, bool(rng.integers(2)), rng)
        tone = np.array(SKIN[int(rng.integers(len(SKIN)))]) * float(rng.uniform(0.9, 1.05))
        _draw_hand(frame, mask, shapes, tuple(float(c) for c in np.clip(tone, 0, 255)), mm)
    return mask


def _hand(
    entry: npt.NDArray[np.float64],
    tip: npt.NDArray[np.float64],
    mm: float,
    left: bool,
    rng: np.random.Generator,
) -> list[npt.NDArray[np.int32]]:
    """The convex pieces of an arm and hand reaching from `entry` to fingertips at
    `tip`, in pixels, `mm` pixels to a millimetre: forearm, palm, four fingers, thumb."""
    ahead = (tip - entry) / max(float(np.linalg.norm(tip - entry)), 1.0)
    side = np.array([-ahead[1], ahead[0]])
    palm = tip - ahead * 85 * mm
    wrist = palm - ahead * 55 * mm
    arm = np.array(
        [
            entry + side * 48 * mm,
            wrist + side * 32 * mm,
            wrist - side * 32 * mm,
            entry - side * 48 * mm,
        ]
    )
    shapes = [arm.round().astype(np.int32), _ellipse(palm, ahead, 55 * mm, 45 * mm)]
    for across, length in ((-27, 62), (-9, 75), (9, 72), (27, 58)):
        reach = length * mm * float(rng.uniform(0.6, 1.0))
        base = palm + ahead * 38 * mm + side * across * mm
        shapes.append(_ellipse(base + ahead * reach / 2, ahead, reach / 2, 9 * mm))
    hand_side = 1.0 if left else -1.0
    turn = math.radians(55) * hand_side
    thumb = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]]) @ ahead
    base = palm + side * hand_side * 38 * mm - ahead * 5 * mm
    shapes.append(_ellipse(base + thumb * 28 * mm, thumb, 30 * mm, 11 * mm))
    return shapes


def _ellipse(
    centre: npt.NDArray[np.float64], ahead: npt.NDArray[np.float64], long: float, short: float
) -> npt.NDArray[np.int32]:
    """An ellipse as a polygon, its long axis along `ahead`."""
    angle = round(math.degrees(math.atan2(ahead[1], ahead[0])))
    middle = (round(float(centre[0])), round(float(centre[1])))
    axes = (max(1, round(long)), max(1, round(short)))
    return np.asarray(cv2.ellipse2Poly(middle, axes, angle, 0, 360, 10), dtype=np.int32)


def _draw_hand(
    frame: Image,
    mask: Image,
    shapes: list[npt.NDArray[np.int32]],
    tone: tuple[float, ...],
    mm: float,
) -> None:
    """One hand with its soft shadow, a little darker towards its edges so it looks
    round; what it covers is added to `mask`."""
    rows, cols = frame.shape[:2]
    blur = 10 * mm
    drop = np.array([1, 1]) * round(18 * mm)
    points = np.vstack(shapes + [s + drop for s in shapes])
    left, top = np.maximum(points.min(axis=0) - int(3 * blur), 0)
    right, bottom = np.minimum(points.max(axis=0) + int(3 * blur) + 1, (cols, rows))
    if right <= left or bottom <= top:
        return
    origin = np.array([left, top])
    roi = frame[top:bottom, left:right]
    local = [shape - origin for shape in shapes]
    shadow = _soft([s + drop for s in local], roi.shape[:2], blur)
    roi[:] = _scaled(roi, cv2.convertScaleAbs(shadow, alpha=-0.35, beta=255))
    hand = np.zeros(roi.shape[:2], dtype=np.uint8)
    for shape in local:
        cv2.fillConvexPoly(roi, shape, tone, cv2.LINE_AA)
        cv2.fillConvexPoly(hand, shape, 255)
    relief = cv2.convertScaleAbs(_soft(local, roi.shape[:2], 8 * mm), alpha=0.3, beta=0.7 * 255)
    roi[:] = _scaled(roi, cv2.max(relief, 255 - hand))
    covered = mask[top:bottom, left:right]
    covered |= hand


def _scaled(image: cv2.typing.MatLike, gain: cv2.typing.MatLike) -> Image:
    """A BGR image scaled by a gain map, 255 leaving it unchanged."""
    return np.asarray(cv2.multiply(image, _three(gain), scale=1 / 255), np.uint8)


def _soft(
    shapes: list[npt.NDArray[np.int32]], shape: tuple[int, ...], sigma: float
) -> npt.NDArray[np.uint8]:
    """Convex shapes filled and blurred by `sigma` pixels, 0 to 255: drawn at an
    eighth of the resolution, since a wide blur keeps no detail."""
    rows, cols = shape[0], shape[1]
    small = np.zeros((rows // 8 + 1, cols // 8 + 1), dtype=np.uint8)
    for piece in shapes:  # small pixel i stands for full pixels 8i..8i+7, centred on 8i + 3.5
        cv2.fillConvexPoly(small, piece * 2 - 7, 255, cv2.LINE_8, 4)
    blurred = cv2.GaussianBlur(small, (0, 0), max(sigma / 8, 0.5))
    size = (small.shape[1] * 8, small.shape[0] * 8)
    grown = cv2.resize(blurred, size, interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(grown[:rows, :cols], dtype=np.uint8)


def _draw_glare(
    frame: Image,
    conditions: Conditions,
    scene: Scene,
    board_to_px: Matrix,
    rng: np.random.Generator,
) -> list[_Glare]:
    """Reflections over random points of the board, washing the frame towards white."""
    rows, cols = frame.shape[:2]
    board_w, board_h = scene.layout.board_mm
    spots = []
    for _ in range(conditions.glare_spots):
        where = (board_w * float(rng.uniform(0.1, 0.9)), board_h * float(rng.uniform(0.1, 0.9)))
        x, y = project(board_to_px, [where])[0]
        sigma = conditions.glare_radius * cols * float(rng.uniform(0.7, 1.3))
        spots.append(_Glare((float(x), float(y)), sigma, conditions.glare_strength))
        left, top = max(0, int(x - 3 * sigma)), max(0, int(y - 3 * sigma))
        right, bottom = min(cols, int(x + 3 * sigma) + 1), min(rows, int(y + 3 * sigma) + 1)
        if right <= left or bottom <= top:
            continue
        across = np.exp(-((np.arange(left, right) - x) ** 2) / (2 * sigma**2))
        down = np.exp(-((np.arange(top, bottom) - y) ** 2) / (2 * sigma**2))
        wash = np.outer(down * 255 * conditions.glare_strength, across).astype(np.uint8)
        roi = frame[top:bottom, left:right]
        whiter = _scaled(cv2.bitwise_not(roi), wash)
        roi[:] = cv2.add(roi, whiter)
    return spots


def _truths(
    codes: Sequence[_Code],
    board_to_px: Matrix,
    frame: Image,
    hands: Image | None,
    spots: Sequence[_Glare],
) -> tuple[TagTruth, ...]:
    """What a perfect reader would report of each code, given what lies on top."""
    rows, cols = frame.shape[:2]
    view = np.array(
        [(-0.5, -0.5), (cols - 0.5, -0.5), (cols - 0.5, rows - 0.5), (-0.5, rows - 0.5)], np.float32
    )
    printed = [project(board_to_px, code.square) for code in codes]
    truths = []
    for i, code in enumerate(codes):
        quad = printed[i]
        blocked: set[Obstruction] = set()
        total = float(cv2.contourArea(quad.astype(np.float32)))
        inside, _ = cv2.intersectConvexConvex(quad.astype(np.float32), view)
        in_frame = min(1.0, inside / total)
        if in_frame < 1.0 - 1e-6:
            blocked.add(Obstruction.FRAME)
        else:
            in_frame = 1.0
        hidden, by_hand, by_code = _hidden(quad, printed[i + 1 :], hands, (rows, cols))
        if by_hand:
            blocked.add(Obstruction.HAND)
        if by_code:
            blocked.add(Obstruction.CODE)
        if any(_wash_on(spot, quad) > GLARE_BURNT for spot in spots):
            blocked.add(Obstruction.GLARE)
        span = code.modules.shape[0]
        inner = code_corners(board_to_px, code.square, span, code.quiet)
        centre = project(board_to_px, [code.center_mm])[0]
        truths.append(
            TagTruth(
                text=code.text,
                tag=code.tag,
                center_mm=code.center_mm,
                center_px=(float(centre[0]), float(centre[1])),
                corners_px=_quad(inner),
                px_per_module=code_side(board_to_px, code.square, span, code.quiet)
                / (span - 2 * code.quiet),
                covered=1.0 - in_frame * (1.0 - hidden),
                obstructions=frozenset(blocked),
            )
        )
    return tuple(truths)


def _hidden(
    quad: npt.NDArray[np.float64],
    above: Sequence[npt.NDArray[np.float64]],
    hands: Image | None,
    shape: tuple[int, int],
) -> tuple[float, bool, bool]:
    """Share of a code's in-frame pixels under hands or codes drawn above it, and
    whether any hand, any code covers some of it."""
    rows, cols = shape
    left, top = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    right, bottom = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, (cols, rows))
    if right <= left or bottom <= top:
        return 0.0, False, False
    origin = np.array([left, top])
    own = _fill(quad - origin, (bottom - top, right - left))
    if not own.any():
        return 0.0, False, False
    coded = np.zeros_like(own)
    for other in above:
        if (other.max(axis=0) >= origin).all() and (other.min(axis=0) < (right, bottom)).all():
            coded |= _fill(other - origin, own.shape)
    handed = hands[top:bottom, left:right] > 0 if hands is not None else np.zeros_like(own)
    by_hand, by_code = bool((own & handed).any()), bool((own & coded).any())
    return float((own & (handed | coded)).sum() / own.sum()), by_hand, by_code


def _quad(points: npt.NDArray[np.float64]) -> Quad:
    """Four corners as the records keep them: a tuple of float pairs."""
    (a, b), (c, d), (e, f), (g, h) = points.tolist()
    return ((a, b), (c, d), (e, f), (g, h))


def _fill(polygon: npt.NDArray[np.float64], shape: tuple[int, int]) -> npt.NDArray[np.bool_]:
    """The pixels of a convex polygon, placed to a sixteenth of a pixel."""
    canvas = np.zeros(shape, dtype=np.uint8)
    cv2.fillConvexPoly(canvas, np.rint(polygon * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return canvas.astype(bool)


def _wash_on(spot: _Glare, quad: npt.NDArray[np.float64]) -> float:
    """The strongest glare from `spot` anywhere on a code."""
    signed = cv2.pointPolygonTest(quad.astype(np.float32), spot.center, True)
    apart = max(0.0, -signed)
    return spot.strength * math.exp(-(apart**2) / (2 * spot.sigma**2))


def _camera(frame: Image, conditions: Conditions, rng: np.random.Generator) -> Image:
    """Lens blur, uneven light, sensor noise and JPEG compression, in that order."""
    out = frame
    if conditions.blur_sigma_px > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), conditions.blur_sigma_px), np.uint8)
    if conditions.gradient > 0:
        out = _light(out, conditions.gradient, conditions.gradient_deg)
    if conditions.noise_sigma > 0:
        out = _noise(out, conditions.noise_sigma, rng)
    if conditions.jpeg_quality is not None:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality])
        out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return out


def _light(frame: Image, strength: float, towards_deg: float) -> Image:
    """Light falling off linearly across the frame: full on one side, `1 - strength`
    on the side `towards_deg` points to. The gain is worked out on a grid eight times
    coarser and stretched, which a linear ramp survives unchanged."""
    rows, cols = frame.shape[:2]
    turn = math.radians(towards_deg)
    cos, sin = math.cos(turn), math.sin(turn)
    reach = (abs(cols * cos) + abs(rows * sin)) / 2
    grid = (rows // 8 + 2, cols // 8 + 2)
    xs = (np.arange(grid[1]) * 8 + 3.5 - (cols - 1) / 2) * (cos / reach)
    ys = (np.arange(grid[0]) * 8 + 3.5 - (rows - 1) / 2) * (sin / reach)
    gain = 1.0 - strength * (0.5 + 0.5 * np.add.outer(ys, xs))
    level = np.rint(np.clip(gain, 0, 1) * 255).astype(np.uint8)
    grown = cv2.resize(level, (grid[1] * 8, grid[0] * 8), interpolation=cv2.INTER_LINEAR)
    return _scaled(frame, np.ascontiguousarray(grown[:rows, :cols]))


def _noise(frame: Image, sigma: float, rng: np.random.Generator) -> Image:
    """Gaussian noise of `sigma` grey levels, drawn fast: random bytes looked up in a
    table of normal quantiles, then added and subtracted with saturation. The noise is
    the same in the three channels: `sigma` is then exactly the noise a decoder sees
    in the grey frame."""
    quantiles = np.array([NormalDist().inv_cdf((k + 0.5) / 256) for k in range(256)]) * sigma
    up = np.clip(np.rint(quantiles), 0, 255).astype(np.uint8)
    down = np.clip(np.rint(-quantiles), 0, 255).astype(np.uint8)
    draws = rng.integers(0, 256, size=frame.shape[:2], dtype=np.uint8)
    raised = cv2.add(frame, _three(cv2.LUT(draws, up)))
    return np.asarray(cv2.subtract(raised, _three(cv2.LUT(draws, down))), np.uint8)


def _three(channel: cv2.typing.MatLike) -> Image:
    """One channel repeated as BGR."""
    return np.asarray(cv2.merge([channel, channel, channel]), np.uint8)
