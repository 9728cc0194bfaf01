"""The pictures kept with each round in the journal: the board, small enough to keep.

A café table plays some 200 rounds a week on a Pi's SD card, so a round keeps only
the part of the frame that explains it, the board, at the size where every token's
code can still be read, and the same region drawn over for people to check.
"""

import math

import numpy as np

from companion.imaging.overlay import Region, annotate, encode_jpeg, outlines_px
from companion.journal import RoundImages
from companion.kit.layouts import Layout
from companion.sources.base import Frame
from companion.vision.pipeline import FrameReading

FRAME_LONG_SIDE = 1800
"""Long side of the kept frame, in pixels. The board fills the picture, so this fixes
the pixels per board millimetre whatever the camera's height: on the 812 mm
odyssey-12 board, 24 mm tokens keep about 2 px per QR module, and every token of
simulated 12-player rounds still decodes from the kept picture (zoomed in, as a
person looks at it); at 1600 px a few are lost, at 1200 px nearly all."""
FRAME_QUALITY = 40
"""JPEG quality of the kept frame: the lowest at which every token still decodes at
`FRAME_LONG_SIDE` (at 35 some are lost); the cards' pictures stay recognisable, and
a 12-player round takes about 105 kB."""
OVERLAY_LONG_SIDE = 720
"""Long side of the kept drawing, in pixels: it is for people, who need the card
areas, the slot numbers and the tokens' colours and marks, not the codes; 1.5 times
the screen's picture, some 37 kB for a 12-player round."""
OVERLAY_QUALITY = 50
"""JPEG quality of the kept drawing: its lines and marks stay clean."""
BOARD_MARGIN_MM = 20.0
"""Room kept around the board's edge, in board millimetres: a token laid half over it
stays in the picture, and a board fit a little off loses nothing."""


def round_pictures(
    frame: Frame,
    reading: FrameReading | None,
    layout: Layout,
    long_side: int = FRAME_LONG_SIDE,
) -> RoundImages:
    """The frame and the annotated drawing to keep with a round, as JPEG: the board
    region when this frame's own tags placed the board, else the whole frame (a round
    entered by hand, a board the reader did not find), `long_side` pixels at most."""
    region = board_region(frame, reading, layout)
    kept = annotate(frame, None, layout, _width(region, long_side), region, averaged=True)
    width = _width(region, OVERLAY_LONG_SIDE)
    drawn = annotate(frame, reading, layout, width, region, averaged=True)
    return RoundImages(encode_jpeg(kept, FRAME_QUALITY), encode_jpeg(drawn, OVERLAY_QUALITY))


def board_region(frame: Frame, reading: FrameReading | None, layout: Layout) -> Region:
    """The box around the board's outline in the frame, with a margin, clipped to the
    frame; the whole frame when this frame did not place the board (the calibration's
    fit is a guess then: the board may have been moved, which is worth keeping)."""
    height, width = frame.shape[:2]
    whole = (0, 0, width, height)
    if reading is None or not reading.refitted:
        return whole
    m = BOARD_MARGIN_MM
    board_w, board_h = layout.board_mm
    (points,) = outlines_px(reading.board, [(-m, -m, board_w + m, board_h + m)])
    if not np.isfinite(points).all():
        return whole
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    left, top = max(0, math.floor(x0)), max(0, math.floor(y0))
    right, bottom = min(width, math.ceil(x1)), min(height, math.ceil(y1))
    if right <= left or bottom <= top:
        return whole
    return (left, top, right, bottom)


def _width(region: Region, long_side: int) -> int:
    """The width that brings the region's long side to `long_side`, never enlarging."""
    left, top, right, bottom = region
    width, height = right - left, bottom - top
    return max(1, round(width * min(1.0, long_side / max(width, height))))
