"""Calibrating a table: one frame of the empty board fixes where the board lies.

`calibrate` finds the corner and slot tags of one kit, fits the lens and the board to
their corners (`lens_fit`), and records the kit, the layout, the frame size, the lens
and how many pixels each tag's modules span. The result is saved as JSON and read
back strictly: a damaged file is refused, never half-trusted. Files written before
the lens was corrected (format 1) still read, as a straight lens.
"""

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from companion.errors import CalibrationError, CalibrationFileError
from companion.jsonfile import finite_number, load_json_file
from companion.kit.layouts import Layout
from companion.kit.tags import MIN_PX_PER_MODULE, MODULES, MODULES_ACROSS, check_kit_id
from companion.phrases import plural
from companion.vision.assign import KitDetection, anchor_key, classify, kits_in
from companion.vision.board import MIN_ANCHORS, BoardFit
from companion.vision.decode import Decoder, Gray
from companion.vision.lens import STRAIGHT, Lens
from companion.vision.lens_fit import fit_lens
from companion.vision.records import Point
from companion.wording import count

MAX_RMS_ERROR_MM = 2.0
"""A calibration whose fit is worse than this is refused: tags would land in the
wrong slot near card edges."""
MIN_AGREEING_EMPTY = 0.85
"""On the empty board all tags should agree with the fit; one in eight may be off (a
sticker put back askew). A stricter share than in play, where tokens cover tags."""
FORMAT = 2
"""Version of the calibration file format: 2 added the lens."""
STRAIGHT_FORMAT = 1
"""The format before the lens, still read (as a straight lens)."""
MAX_FRAME_SIDE = 65_536
"""Pixels a side of the largest frame a calibration may claim, far beyond any camera
(the Camera Module 3 gives 4608 x 2592)."""
LENS_FIELDS = (("centre_px", 2), ("scale_px", 2), ("k", 3))
"""The lens object's fields in the file, and how many numbers each holds."""
MIN_DETERMINANT = 1e-12
"""A pixels-to-millimetres matrix closer than this to singular maps the frame onto a line
or a point (`fit_board` refuses such fits too): it could not map the board back."""


@dataclass(frozen=True)
class Calibration:
    """What one frame of the empty board told about this table."""

    kit: str
    """The kit id of the board's tags."""
    layout: str
    """The layout's name (or path) the board follows."""
    frame_size: tuple[int, int]
    """Width and height of the calibration frame, in pixels."""
    board: BoardFit
    """The board fit: the lens, straightened pixels to millimetres, and its error."""
    px_per_module: Mapping[str, float] = field(default_factory=dict)
    """Tag text to the pixels per module it was seen at."""
    straight_rms_error_mm: float | None = None
    """The error of a fit without the lens correction, to tell how far the lens bent
    the board (None when not measured: a format 1 file, whose fit is straight)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "px_per_module", MappingProxyType(dict(self.px_per_module)))

    @property
    def warnings(self) -> tuple[str, ...]:
        """Tags too small in the frame to be read reliably."""
        small = sorted(
            (ppm, text) for text, ppm in self.px_per_module.items() if ppm < MIN_PX_PER_MODULE
        )
        return tuple(
            f"{text} is {ppm:.1f} px per module, below {MIN_PX_PER_MODULE:.0f}: "
            "move the camera closer, use a higher resolution, or print larger tags"
            for ppm, text in small
        )

    def to_json(self) -> dict[str, Any]:
        """The calibration as its JSON document."""
        lens = self.board.lens
        straight = self.straight_rms_error_mm
        return {
            "format": FORMAT,
            "kit": self.kit,
            "layout": self.layout,
            "frame_size": list(self.frame_size),
            "px_to_mm": [list(row) for row in self.board.px_to_mm],
            "rms_error_mm": self.board.rms_error_mm,
            "straight_rms_error_mm": self.board.rms_error_mm if straight is None else straight,
            "anchors_used": self.board.anchors_used,
            "anchors_seen": self.board.anchors_seen,
            "lens": {
                "centre_px": list(lens.centre_px),
                "scale_px": list(lens.scale_px),
                "k": list(lens.k),
            },
            "px_per_module": dict(sorted(self.px_per_module.items())),
        }


def calibrate(gray: Gray, layout: Layout, decoder: Decoder, layout_name: str) -> Calibration:
    """Calibrate from a frame of the empty board; `CalibrationError` says what is wrong."""
    detections = decoder.decode(gray)
    kits = kits_in(d.text for d in detections)
    if len(kits) > 1:
        counted = ", ".join(f"{k} ({count(n, 'tag')})" for k, n in sorted(kits.items()))
        raise CalibrationError(f"tags of more than one kit are in view: {counted}")
    if not kits:
        raise CalibrationError(
            f"no tag of the companion's kit found in the frame ({len(detections)} other codes)"
        )
    (kit,) = kits
    found = classify(detections, kit)
    pixels, board_mm, tags = corner_pairs(found.anchors, layout)
    seen = len(set(tags))
    if seen < MIN_ANCHORS:
        raise CalibrationError(
            plural(
                "only {n} corner or slot tag of kit {kit} found on layout {layout}; "
                "at least {least} are needed",
                "only {n} corner or slot tags of kit {kit} found on layout {layout}; "
                "at least {least} are needed",
                seen,
                kit=kit,
                layout=layout.name,
                least=MIN_ANCHORS,
            )
        )
    height, width = gray.shape[:2]
    fitted = fit_lens(pixels, board_mm, tags, (width, height))
    if fitted is None:
        raise CalibrationError(
            f"the {seen} corner and slot tags found do not span the board: "
            "they lie on a line or in one spot"
        )
    fit = fitted.board
    corrected = " even allowing for the lens's distortion"
    if fit.agreeing < MIN_AGREEING_EMPTY:
        raise CalibrationError(
            f"only {fit.anchors_used} of {fit.anchors_seen} corner and slot tags agree with "
            f"layout {layout.name}{corrected}: is it the right layout, or were tags moved?"
        )
    if fit.rms_error_mm > MAX_RMS_ERROR_MM:
        raise CalibrationError(
            f"the board fit is off by {fit.rms_error_mm:.1f} mm{corrected} "
            f"(at most {MAX_RMS_ERROR_MM:.0f}): is the layout {layout.name} the right one, "
            "and is the board flat?"
        )
    try:
        fit.lens.check((width, height))
    except CalibrationError as err:
        raise CalibrationError(
            f"the lens's distortion could not be corrected: {err}; is the layout "
            f"{layout.name} the right one, and is the board flat?"
        ) from None
    ppm = {a.tag.text: round(a.px_per_module, 2) for a in (*found.anchors, *found.tokens)}
    return Calibration(kit, layout_name, (width, height), fit, ppm, fitted.straight_rms_error_mm)


def corner_pairs(
    anchors: Sequence[KitDetection], layout: Layout
) -> tuple[list[Point], list[Point], list[str]]:
    """The corners of the codes of the anchors the layout knows: their frame pixels,
    where they lie on the board with the tag laid upright, and the tag text of each.

    A code's own square is `MODULES` of the printed tag's `MODULES_ACROSS` modules (the
    rest is its quiet zone); the decoder gives its corners in the code's order, which
    is the board's upright order turned with the sticker (`fit_lens` fits the turn)."""
    sizes = {("corner", c.corner): c.size_mm for c in layout.corners}
    sizes.update({("slot", s.slot): s.tag_size_mm for s in layout.slots})
    places = layout.anchors()
    pixels: list[Point] = []
    board: list[Point] = []
    tags: list[str] = []
    for anchor in anchors:
        key = anchor_key(anchor.tag)
        if key not in places:
            continue
        (x, y), half = places[key], sizes[key] * MODULES / MODULES_ACROSS / 2
        pixels += anchor.detection.corners_px
        board += [
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        ]
        tags += [anchor.tag.text] * 4
    return pixels, board, tags


def save_calibration(calibration: Calibration, path: Path) -> None:
    """Write the calibration file (whole, then renamed, so a crash leaves the old one)."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(calibration.to_json(), indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)


def load_calibration(path: Path) -> Calibration:
    """Read a calibration file; `CalibrationFileError` if missing, corrupt or malformed."""
    return load_json_file(path, "calibration file", CalibrationFileError, _parse)


def _parse(doc: Any) -> Calibration:
    version = doc.get("format") if isinstance(doc, dict) else None
    if isinstance(version, bool) or version not in (STRAIGHT_FORMAT, FORMAT):
        raise ValueError(f"expected a calibration object of format {STRAIGHT_FORMAT} or {FORMAT}")
    rows = doc["px_to_mm"]
    if not isinstance(rows, list) or len(rows) != 3 or any(len(r) != 3 for r in rows):
        raise ValueError("px_to_mm must be a 3x3 matrix")
    matrix = tuple(tuple(_finite(v) for v in row) for row in rows)
    with np.errstate(all="ignore"):  # an overflow is refused below, not warned about
        determinant = float(np.linalg.det(np.array(matrix)))
    if not math.isfinite(determinant) or abs(determinant) < MIN_DETERMINANT:
        raise ValueError("px_to_mm must be an invertible matrix, as a fit of the board is")
    width, height = (_count(v) for v in doc["frame_size"])
    if not (0 < width <= MAX_FRAME_SIDE and 0 < height <= MAX_FRAME_SIDE):
        raise ValueError(f"frame_size must be 1 to {MAX_FRAME_SIDE} pixels a side")
    ppm = doc["px_per_module"]
    if not isinstance(ppm, dict):
        raise ValueError("px_per_module must be an object")
    sizes = {str(text): _finite(v) for text, v in ppm.items()}
    largest = min(width, height) / MODULES
    if not all(0 < size <= largest for size in sizes.values()):
        raise ValueError(
            f"px_per_module must be above 0 and at most {largest:.1f}, "
            f"for a tag that fits in the {width}x{height} frame"
        )
    rms = _finite(doc["rms_error_mm"])
    if rms < 0:
        raise ValueError("rms_error_mm must not be negative")
    lens, straight_rms = STRAIGHT, None
    if version == FORMAT:
        lens = _lens(doc["lens"], (width, height))
        straight_rms = _finite(doc["straight_rms_error_mm"])
        if straight_rms < 0:
            raise ValueError("straight_rms_error_mm must not be negative")
    used, seen = _count(doc["anchors_used"]), _count(doc["anchors_seen"])
    board = BoardFit(matrix, rms, used, seen, lens)
    layout, kit = doc["layout"], doc["kit"]
    if not isinstance(layout, str) or not layout:
        raise ValueError("layout must be a name")
    if not isinstance(kit, str):
        raise ValueError("kit must be a kit id")
    return Calibration(check_kit_id(kit), layout, (width, height), board, sizes, straight_rms)


def _lens(doc: Any, frame_size: tuple[int, int]) -> Lens:
    """The lens object of a format 2 file, checked over the calibration's frame."""
    if not isinstance(doc, dict):
        raise ValueError("lens must be an object")
    centre, scale, k = (_numbers(doc[name], size, name) for name, size in LENS_FIELDS)
    lens = Lens((centre[0], centre[1]), (scale[0], scale[1]), (k[0], k[1], k[2]))
    try:
        lens.check(frame_size)
    except CalibrationError as err:
        raise ValueError(f"lens: {err}") from None
    return lens


def _numbers(value: object, size: int, name: str) -> list[float]:
    if not isinstance(value, list) or len(value) != size:
        raise ValueError(f"lens {name} must be a list of {size} numbers")
    return [_finite(v) for v in value]


def _finite(value: object) -> float:
    number = finite_number(value)
    if number is None:
        raise ValueError(f"expected a finite number, got {value!r}")
    return number


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a whole number of 0 or more, got {value!r}")
    return value
