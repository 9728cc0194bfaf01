"""The camera picture with what the reader made of it drawn on top.

Players trust a score they can check: the small picture on the screen shows each card
area and every token in its player's colour on the slot it was assigned to, and the
journal keeps the same drawing of the board, larger, with every round.
"""

import itertools
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from companion.colours import BY_NAME
from companion.errors import UnwritableFileError
from companion.kit.layouts import Layout, Point, Rect
from companion.kit.tags import Role
from companion.sources.base import Frame
from companion.vision.board import BoardFit
from companion.vision.pipeline import FrameReading

EDGE_POINTS = 8
"""Points along each edge of an outline drawn on the frame: through the widest lens a
card's edge curves by a few pixels, and eight straight pieces follow it to a fraction
of one."""

_MARK = {Role.VOTE: "V", Role.OWNER: "O", Role.TRAP: "T"}
_GREY = (150, 150, 150)
_LIVE = (80, 220, 80)


Region = tuple[int, int, int, int]
"""Part of a frame: left, top, right and bottom edges in frame pixels (right and bottom
excluded), as a slice of the frame's rows and columns."""


def annotate(
    frame: Frame,
    reading: FrameReading | None,
    layout: Layout,
    width: int,
    region: Region | None = None,
    *,
    averaged: bool = False,
) -> Frame:
    """A copy of the frame, or of its `region`, `width` pixels wide, card areas and
    tokens drawn on it (shifted and scaled with the region, so the journal can keep
    just the board).

    Pictures shrunk more than four times (for the screen, several times a second) are
    shrunk by sampling, which costs next to nothing, unless `averaged` (for the
    journal, once a round); averaging reads better, and noise averaged away costs no
    bytes in a JPEG.
    """
    left, top, right, bottom = region or (0, 0, frame.shape[1], frame.shape[0])
    part = frame[top:bottom, left:right]
    height, full_width = part.shape[:2]
    scale = width / full_width
    size = (width, max(1, round(height * scale)))
    how = cv2.INTER_NEAREST if width < full_width / 4 and not averaged else cv2.INTER_AREA
    small = np.asarray(cv2.resize(part, size, interpolation=how), np.uint8)
    if small.ndim == 2:
        small = np.asarray(cv2.cvtColor(small, cv2.COLOR_GRAY2BGR), np.uint8)
    if reading is None:
        return small
    line = max(1, width // 400)
    busy = {token.slot for token in reading.placed}
    outlines = outlines_px(reading.board, [spec.card_mm for spec in layout.slots])
    for spec, outline in zip(layout.slots, outlines, strict=True):
        points = np.array((outline - (left, top)) * scale, np.int32)
        colour = _LIVE if spec.slot in busy else _GREY
        cv2.polylines(small, [points], True, colour, line, cv2.LINE_AA)
        label_at = tuple(int(v) for v in points[0] + (3 * line, 12 * line))
        cv2.putText(
            small,
            str(spec.slot),
            label_at,
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4 * line,
            colour,
            line,
            cv2.LINE_AA,
        )
    radius = max(3, round(layout.token_size_mm * _px_per_mm(reading, layout) * scale / 2))
    for token in reading.placed:
        tag = token.tag
        r, g, b = BY_NAME[tag.colour].rgb if tag.colour else (255, 255, 255)
        x, y = token.center_px
        centre = (round((x - left) * scale), round((y - top) * scale))
        cv2.circle(small, centre, radius, (b, g, r), -1, cv2.LINE_AA)
        cv2.circle(small, centre, radius, (0, 0, 0), line, cv2.LINE_AA)
        text = _MARK.get(tag.role, "?")
        cv2.putText(
            small,
            text,
            (centre[0] - radius // 2, centre[1] + radius // 2),
            cv2.FONT_HERSHEY_SIMPLEX,
            radius / 14,
            (0, 0, 0),
            line,
            cv2.LINE_AA,
        )
    return small


def outlines_px(board: BoardFit, rects: Sequence[Rect]) -> list[npt.NDArray[np.float64]]:
    """The outlines of rectangles of the board in frame pixels, each `EDGE_POINTS`
    points to an edge from its top left corner clockwise: through a wide lens the
    board's straight edges curve in the frame, and the outline follows them."""
    steps = np.arange(EDGE_POINTS) / EDGE_POINTS
    board_mm: list[Point] = []
    for x0, y0, x1, y1 in rects:
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
        for (ax, ay), (bx, by) in itertools.pairwise(corners):
            board_mm += [(ax + t * (bx - ax), ay + t * (by - ay)) for t in steps]
    points = np.array(board.to_px(board_mm), np.float64).reshape(-1, 4 * EDGE_POINTS, 2)
    return list(points)


def _px_per_mm(reading: FrameReading, layout: Layout) -> float:
    """Frame pixels per board millimetre near the board's middle."""
    width, height = layout.board_mm
    (ax, ay), (bx, by) = reading.board.to_px(
        [(width / 2, height / 2), (width / 2 + 10, height / 2)]
    )
    return float(np.hypot(bx - ax, by - ay)) / 10


def encode_jpeg(image: Frame, quality: int) -> bytes:
    """JPEG bytes of a BGR or grey image, with Huffman tables fitted to it (some 7 %
    smaller than the standard tables, for a few milliseconds)."""
    options = [cv2.IMWRITE_JPEG_QUALITY, quality, cv2.IMWRITE_JPEG_OPTIMIZE, 1]
    ok, data = cv2.imencode(".jpg", image, options)
    if not ok:
        raise UnwritableFileError("the picture could not be encoded as JPEG")
    return bytes(data.tobytes())
