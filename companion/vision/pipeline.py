"""Reading one frame: decode, fit the board, look again where tags are missing, assign.

The board is re-fitted from the corner and slot tags of every frame (boards get
bumped), through the calibration's lens; with too few in view (hands, tokens on top)
the calibration's fit stands in. Frames in which tokens span more than about 5 px per
module are decoded at a reduced scale chosen from the calibration (so that the
smallest, at the board's edge through a wide lens, keep their 5 px), and tags
expected but missing (a token seen a moment ago; the corner and slot tags, when too
few were read to fit the board) are looked for again in a full-resolution crop around
where they should be.
`TableWatcher` adds the stabiliser to turn frames into settled tables.
"""

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from companion.kit.layouts import Layout
from companion.kit.tags import MODULES_ACROSS, KitTag, Role
from companion.phrases import Phrase, phrase
from companion.vision.assign import (
    Classified,
    PlacedToken,
    anchor_key,
    anchor_pairs,
    classify,
    observe,
    place,
    set_apart_copies,
)
from companion.vision.board import MIN_AGREEING, MIN_ANCHORS, BoardFit, fit_board
from companion.vision.calibration import MAX_RMS_ERROR_MM, Calibration
from companion.vision.decode import Decoder, Gray
from companion.vision.lens import Lens
from companion.vision.records import Detection, Point, TableObservation
from companion.vision.stabilise import Settled, Stabiliser

DECODE_PX_PER_MODULE = 5.0
"""Pixels per module the main decode pass aims for: frames with larger tags are
decoded at a reduced scale, which is faster and reads just as well."""
MAX_LOOKS = 32
"""At most this many crops are decoded again per frame."""
LOOK_MARGIN = 1.6
"""Half a crop's side, in tag sizes: room for a tag a little off its predicted place."""

Frame = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class FrameReading:
    """What one frame showed."""

    observation: TableObservation
    """Tokens by slot, unplaced tokens, foreign codes."""
    placed: tuple[PlacedToken, ...]
    """Every token assigned to a slot, with where it was seen."""
    board: BoardFit
    """The board fit used for this frame."""
    refitted: bool
    """Whether the fit came from this frame's tags (else from the calibration)."""
    kit_texts: tuple[str, ...]
    """Texts of the calibrated kit's tags read in this frame, anchors and tokens."""
    looked_again: int
    """How many crops were decoded again."""
    found_again: int
    """How many tags those crops found."""
    elapsed_ms: float
    """Time spent reading the frame."""


class TableReader:
    """Reads frames of one calibrated table."""

    def __init__(
        self,
        calibration: Calibration,
        layout: Layout,
        decoder: Decoder,
        *,
        decode_scale: float | None = None,
    ) -> None:
        self.calibration = calibration
        self.layout = layout
        self.decoder = decoder
        self._decode_scale = decode_scale
        self._fallbacks: dict[tuple[int, int], BoardFit] = {}
        kit = calibration.kit
        anchors = [
            (KitTag(kit, Role.CORNER, corner=c.corner), c.center_mm, c.size_mm)
            for c in layout.corners
        ]
        anchors += [
            (KitTag(kit, Role.SLOT, slot=s.slot), s.tag_center_mm, s.tag_size_mm)
            for s in layout.slots
        ]
        self._anchors = {tag.text: centre for tag, centre, _ in anchors}
        px_per_mm = sorted(
            calibration.px_per_module[tag.text] * MODULES_ACROSS / size
            for tag, _, size in anchors
            if tag.text in calibration.px_per_module
        )
        unknown = DECODE_PX_PER_MODULE * MODULES_ACROSS
        self._token_px = (
            px_per_mm[len(px_per_mm) // 2] * layout.token_size_mm if px_per_mm else unknown
        )
        """A token's size in calibration pixels, typically: how large a crop to look in."""
        self._least_token_px = px_per_mm[0] * layout.token_size_mm if px_per_mm else unknown
        """A token's size in calibration pixels where the board is seen smallest (its
        edge, through a wide lens): what the decode scale must keep readable."""

    def read(self, frame: Frame, look_again: Mapping[str, Point] | None = None) -> FrameReading:
        """Read a frame (greyscale or BGR); `look_again` maps token texts to where they
        were last seen, to be looked for again if this frame misses them."""
        started = time.perf_counter()
        gray = to_gray(frame)
        height, width = gray.shape
        shrink = width / self.calibration.frame_size[0]
        tag_px = self._token_px * shrink
        least_px = self._least_token_px * shrink
        scale = self._decode_scale or min(1.0, DECODE_PX_PER_MODULE * MODULES_ACROSS / least_px)
        detections = self._decode(gray, scale)
        found = classify(detections, self.calibration.kit)
        fallback = self._fallback((width, height))
        fit = self._refit(found, fallback.lens)

        targets = self._missing_tokens(found, look_again or {})
        if fit is None:
            targets += self._missing_anchors(found, fallback)
        boxes = (_crop_box(centre, tag_px * LOOK_MARGIN, width, height) for centre in targets)
        looks = [b for b in boxes if min(b[2] - b[0], b[3] - b[1]) >= tag_px][:MAX_LOOKS]
        extra: list[Detection] = []
        for x0, y0, x1, y1 in looks:
            extra += _shifted(self.decoder.decode(gray[y0:y1, x0:x1]), x0, y0, 1.0)
        if extra:
            found = classify([*detections, *extra], self.calibration.kit)
            if fit is None:
                fit = self._refit(found, fallback.lens)
        board, refitted = (fit, True) if fit is not None else (fallback, False)

        placed, unplaced = place([*found.tokens, *found.copies], board, self.layout)
        placed, unplaced, duplicates = set_apart_copies(placed, unplaced)
        wrong_board = None if fit is not None else self._wrong_board(found, fallback.lens)
        return FrameReading(
            observation=observe(placed, unplaced, found.foreign, duplicates, wrong_board),
            placed=tuple(placed),
            board=board,
            refitted=refitted,
            kit_texts=tuple(k.detection.text for k in (*found.anchors, *found.tokens)),
            looked_again=len(looks),
            found_again=len({d.text for d in extra}),
            elapsed_ms=(time.perf_counter() - started) * 1000,
        )

    def _decode(self, gray: Gray, scale: float) -> list[Detection]:
        """Decode at `scale`, or at full size where shrinking would leave no pixels (a
        strip of an image, which holds no tag either way)."""
        if scale >= 1.0 or min(gray.shape) * scale < 1.0:
            return self.decoder.decode(gray)
        small = np.asarray(
            cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.uint8
        )
        return _shifted(self.decoder.decode(small), 0, 0, 1.0 / scale)

    def _refit(self, found: Classified, lens: Lens) -> BoardFit | None:
        """The board fitted through `lens` (the calibration's, at this frame's size) to
        this frame's corner and slot tags, if they fix it well."""
        fit = fit_board(*anchor_pairs(found.anchors, self.layout), lens)
        if fit is None or fit.rms_error_mm > MAX_RMS_ERROR_MM or fit.agreeing < MIN_AGREEING:
            return None
        return fit

    def _wrong_board(self, found: Classified, lens: Lens) -> Phrase | None:
        """Why the corner and slot tags in view are not the calibrated board's, if
        they are not: a tag the layout has no place for, or more than enough tags to
        fit a board of which too few lie where the layout puts them (as `calibrate`
        refuses such a frame, and reading it through the calibration's fit would put
        tokens on the wrong slots). Too few tags (hands, tokens on top) say nothing."""
        name = self.layout.name
        places = self.layout.anchors()
        strangers = sorted(a.tag.text for a in found.anchors if anchor_key(a.tag) not in places)
        if strangers:
            return phrase(
                "the board in view is not the board of layout {name} this table was "
                "calibrated on: it has tags that layout has no place for ({tags})",
                name=name,
                tags=", ".join(strangers),
            )
        pixels, board_mm = anchor_pairs(found.anchors, self.layout)
        if len(pixels) <= MIN_ANCHORS:
            return None
        fit = fit_board(pixels, board_mm, lens)
        agreeing = 0 if fit is None else fit.anchors_used
        if agreeing >= MIN_AGREEING * len(pixels):
            return None
        return phrase(
            "the board in view is not the board of layout {name} this table was "
            "calibrated on: only {agreeing} of the {n} corner and slot tags in view lie "
            "where that layout puts them",
            name=name,
            agreeing=agreeing,
            n=len(pixels),
        )

    def _fallback(self, size: tuple[int, int]) -> BoardFit:
        """The calibration's fit, lens and all, rescaled to this frame size."""
        if size not in self._fallbacks:
            fit = self.calibration.board
            sx = self.calibration.frame_size[0] / size[0]
            sy = self.calibration.frame_size[1] / size[1]
            # pixel centres at whole numbers: pixel p of this frame is (p + 0.5) s - 0.5
            # of the calibration's
            to_calibrated = np.array([[sx, 0, (sx - 1) / 2], [0, sy, (sy - 1) / 2], [0, 0, 1]])
            matrix = fit.matrix @ to_calibrated
            rows = tuple(tuple(float(v) for v in row) for row in matrix)
            lens = fit.lens.rescaled(sx, sy)
            self._fallbacks[size] = BoardFit(rows, fit.rms_error_mm, fit.anchors_used, 0, lens)
        return self._fallbacks[size]

    def _missing_tokens(self, found: Classified, look_again: Mapping[str, Point]) -> list[Point]:
        """Where tokens seen a moment ago were, when this frame missed them."""
        seen = {t.detection.text for t in found.tokens}
        return [p for text, p in look_again.items() if text not in seen]

    def _missing_anchors(self, found: Classified, board: BoardFit) -> list[Point]:
        """Where the corner and slot tags this frame missed should be (bent through the
        lens, where the frame shows them): looked for only when too few were read to
        fit the board."""
        seen = {a.detection.text for a in found.anchors}
        return board.to_px([p for text, p in self._anchors.items() if text not in seen])


class TableWatcher:
    """A reader and a stabiliser together: frames in, settled tables out."""

    def __init__(self, reader: TableReader, stabiliser: Stabiliser) -> None:
        self.reader = reader
        self.stabiliser = stabiliser

    def push(self, frame: Frame) -> tuple[FrameReading, Settled]:
        """Read a frame, looking again for tokens the stabiliser still expects."""
        reading = self.reader.read(frame, self.stabiliser.look_again())
        return reading, self.stabiliser.push(reading.placed, reading.observation)


def to_gray(frame: Frame) -> Gray:
    """The frame in grey levels: as it is when already grey, else from BGR."""
    if frame.ndim == 2:
        return frame
    return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), np.uint8)


def _crop_box(centre: Point, half: float, width: int, height: int) -> tuple[int, int, int, int]:
    x, y = centre
    x0, y0 = max(0, int(x - half)), max(0, int(y - half))
    x1, y1 = min(width, int(x + half)), min(height, int(y + half))
    return (x0, y0, max(x0, x1), max(y0, y1))


def _shifted(detections: Sequence[Detection], dx: float, dy: float, k: float) -> list[Detection]:
    """Detections moved from a crop or scaled image back into frame pixels."""
    moved = []
    for d in detections:
        a, b, c, e = ((x * k + dx, y * k + dy) for x, y in d.corners_px)
        moved.append(Detection(d.text, (a, b, c, e)))
    return moved
