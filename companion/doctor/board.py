"""The calibration check: is there one, and does the board still lie where it says?

A board gets bumped and a camera arm sags. The game re-fits the board from the tags it
sees in every frame, but when tokens and hands cover them it falls back on the
calibration, and then a board that has moved puts tokens in the wrong slots. So the
corner and slot tags seen now are compared with where the calibration puts them, in
board millimetres (what decides a slot) and in pixels (what a person can see).
"""

import statistics
from dataclasses import dataclass

from companion.doctor.camera import Capture
from companion.doctor.findings import CALIBRATION, Finding, Status
from companion.doctor.settings import Settings
from companion.doctor.view import BoardView, Sight, TableFile, load_table, look, tag_name
from companion.kit.layouts import Layout
from companion.kit.tags import KitTag
from companion.vision.assign import anchor_pairs
from companion.vision.board import MIN_ANCHORS
from companion.vision.calibration import Calibration

SHIFT_OK_MM = 3.0
"""Median displacement of the board tags up to which the calibration still holds: well
inside the card areas' margins."""
SHIFT_MOVED_MM = 8.0
"""Median displacement beyond which the board (or the camera) has moved: tokens near a
card's edge would land in the wrong slot."""


@dataclass(frozen=True)
class Shift:
    """How far one board tag lies from where the calibration puts it."""

    tag: KitTag
    """The corner or slot tag."""
    mm: float
    """Distance on the board, in millimetres."""
    px: float
    """Distance in the frame, in pixels."""


@dataclass(frozen=True)
class BoardShift:
    """The displacement of every board tag seen, against the calibration."""

    shifts: tuple[Shift, ...]
    """One per corner or slot tag seen that the layout places."""
    expected: int
    """How many corner and slot tags the layout places."""

    @property
    def seen(self) -> int:
        """Board tags seen."""
        return len(self.shifts)

    @property
    def median_mm(self) -> float:
        """The typical displacement, robust to one misplaced sticker."""
        return statistics.median(s.mm for s in self.shifts)

    @property
    def median_px(self) -> float:
        """The typical displacement in frame pixels."""
        return statistics.median(s.px for s in self.shifts)

    @property
    def worst(self) -> Shift:
        """The tag furthest from its calibrated place."""
        return max(self.shifts, key=lambda s: s.mm)


def measure_shift(view: BoardView, calibration: Calibration, layout: Layout) -> BoardShift:
    """Where the board tags seen lie, against where the calibration puts them."""
    shifts = []
    for anchor in view.anchors:
        pixels, places = anchor_pairs([anchor], layout)
        if not pixels:
            continue
        (seen_px,), (place_mm,) = pixels, places
        (seen_mm,) = calibration.board.to_mm([seen_px])
        (place_px,) = calibration.board.to_px([place_mm])
        shifts.append(Shift(anchor.tag, _distance(seen_mm, place_mm), _distance(seen_px, place_px)))
    return BoardShift(tuple(shifts), len(layout.corners) + len(layout.slots))


def _px(pixels: float) -> str:
    """Pixels as a person can compare them: one decimal while they are few."""
    return f"{pixels:.1f} px" if pixels < 10 else f"{pixels:.0f} px"


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def calibration_check(settings: Settings, taken: Capture | None) -> tuple[Finding, Sight]:
    """Read the calibration, look at the live frame once, and judge the board; the look
    is handed on to the tag check."""
    table = load_table(settings.calibration)
    frame = taken.picture if taken is not None else None
    kit = table.calibration.kit if table.calibration is not None else None
    view = None if frame is None else look(frame, kit, settings.decoder)
    size = taken.frame_size if taken is not None else None
    return judge_board(settings, table, view, size), Sight(table, view)


def judge_board(
    settings: Settings,
    table: TableFile,
    view: BoardView | None,
    frame_size: tuple[int, int] | None,
) -> Finding:
    """The calibration's finding: present, the camera's size, the right kit, not moved."""
    layout_name = table.calibration.layout if table.calibration is not None else None
    recalibrate = (
        f"put the empty board under the camera and run {settings.calibrate_command(layout_name)}"
    )
    if table.calibration is None:
        detail = f"no calibration at {table.path}" if table.missing else table.problem
        return Finding(Status.FAIL, CALIBRATION, detail, recalibrate)
    if table.layout is None:
        return Finding(Status.FAIL, CALIBRATION, f"{table.path}: {table.problem}", recalibrate)
    calibration, layout = table.calibration, table.layout
    width, height = calibration.frame_size
    base = f"kit {calibration.kit}, layout {layout.name}, {width}x{height}"
    if view is None or frame_size is None:
        return Finding(
            Status.SKIP,
            CALIBRATION,
            f"{base}; not compared with the board: no picture from the camera",
        )
    if frame_size != calibration.frame_size:
        return Finding(
            Status.FAIL,
            CALIBRATION,
            f"calibrated at {width}x{height}, the camera gives {frame_size[0]}x{frame_size[1]}",
            f"set the camera to {width}x{height} (as in --source picamera:{width}x{height}), "
            f"or recalibrate: {recalibrate}",
        )
    top = view.kits[0] if view.kits else None
    if top is not None and top.kit != calibration.kit and top.tags > view.own_tags:
        return Finding(
            Status.FAIL,
            CALIBRATION,
            f"tags of kit {top.kit} ({top.tags}) outnumber this table's kit {calibration.kit} "
            f"({view.own_tags}): another kit's board is under the camera",
            f"put this table's board (kit {calibration.kit}) under the camera; if the other "
            f"board is to stay, recalibrate: {recalibrate}",
        )
    shift = measure_shift(view, calibration, layout)
    if shift.seen < MIN_ANCHORS:
        return Finding(
            Status.FAIL,
            CALIBRATION,
            f"only {shift.seen} of {shift.expected} board tags visible ({base})",
            "clear the board (cards and tokens off the corner and slot tags) and check that "
            "the whole board is in the camera's view",
        )
    worst = shift.worst
    figures = (
        f"corner and slot tags are {shift.median_mm:.1f} mm ({_px(shift.median_px)}) from "
        f"where they were calibrated (median of {shift.seen} of {shift.expected} seen; "
        f"worst {worst.mm:.1f} mm, {tag_name(worst.tag)})"
    )
    if shift.median_mm <= SHIFT_OK_MM:
        return Finding(Status.OK, CALIBRATION, f"{base}: {figures}")
    if shift.median_mm <= SHIFT_MOVED_MM:
        return Finding(
            Status.WARN,
            CALIBRATION,
            f"the board has shifted a little: {figures}",
            f"recalibrate when the table is free: {recalibrate}",
        )
    return Finding(
        Status.FAIL,
        CALIBRATION,
        f"the board or the camera has moved by {shift.median_mm:.0f} mm: {figures}",
        f"recalibrate: {recalibrate}",
    )
