"""Calibration from decoded tags, and the calibration file."""

import json
from pathlib import Path

import numpy as np
import pytest

from companion.errors import CalibrationError
from companion.kit.layouts import load_layout
from companion.kit.tags import KitTag, Role
from companion.vision.assign import anchor_pairs, classify
from companion.vision.board import fit_board
from companion.vision.calibration import (
    MAX_RMS_ERROR_MM,
    MIN_AGREEING_EMPTY,
    calibrate,
    load_calibration,
    save_calibration,
)
from companion.vision.decode import Gray
from companion.vision.lens import STRAIGHT
from companion.vision.records import Detection
from tests.vision.bent import WEBCAM, BentDecoder, board_points

LAYOUT = load_layout("classic-8")
SCALE = 4.0
"""Frame pixels per board millimetre in these made-up frames."""


class Seen:
    """A decoder that reports the board's tags where the test puts them."""

    name = "seen"

    def __init__(self, jitter_mm: float = 0.0, module_px: float = 5.0) -> None:
        self.jitter = jitter_mm
        self.module_px = module_px

    def decode(self, gray: Gray) -> list[Detection]:
        tags = [(KitTag("CAFE", Role.CORNER, corner=c.corner), c.center_mm) for c in LAYOUT.corners]
        tags += [(KitTag("CAFE", Role.SLOT, slot=s.slot), s.tag_center_mm) for s in LAYOUT.slots]
        found = []
        for i, (tag, (x, y)) in enumerate(tags):
            turn = 2.4 * i
            dx, dy = self.jitter * np.cos(turn), self.jitter * np.sin(turn)
            cx, cy = (x + dx) * SCALE, (y + dy) * SCALE
            h = 21 * self.module_px / 2
            found.append(
                Detection(
                    tag.text,
                    ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)),
                )
            )
        return found


FRAME = np.zeros((2100, 2300), np.uint8)


def test_calibration_maps_pixels_to_board_millimetres() -> None:
    calibration = calibrate(FRAME, LAYOUT, Seen(), "classic-8")
    assert calibration.board.to_mm([(400.0, 800.0)])[0] == pytest.approx((100.0, 200.0), abs=1e-3)
    assert calibration.frame_size == (2300, 2100)
    assert calibration.warnings == ()
    assert set(calibration.px_per_module.values()) == {5.0}


def test_a_fit_too_far_off_is_refused() -> None:
    with pytest.raises(
        CalibrationError,
        match=r"the board fit is off by \d\.\d mm even allowing for the lens's "
        r"distortion \(at most 2\)",
    ):
        calibrate(FRAME, LAYOUT, Seen(jitter_mm=3.0), "classic-8")


def test_small_tags_are_warned_about() -> None:
    calibration = calibrate(FRAME, LAYOUT, Seen(module_px=3.2), "classic-8")
    assert len(calibration.warnings) == 12
    assert calibration.warnings[0].endswith(
        "px per module, below 4: move the camera closer, use a higher resolution, or print larger tags"
    )


def test_a_frame_without_kit_tags_is_refused() -> None:
    class Menu:
        name = "menu"

        def decode(self, gray: Gray) -> list[Detection]:
            return [Detection("https://menu.example", ((0, 0), (9, 0), (9, 9), (0, 9)))]

    with pytest.raises(
        CalibrationError,
        match=r"no tag of the companion's kit found in the frame \(1 other codes\)",
    ):
        calibrate(FRAME, LAYOUT, Menu(), "classic-8")


def test_the_file_reads_back_the_same(tmp_path: Path) -> None:
    calibration = calibrate(FRAME, LAYOUT, Seen(), "classic-8")
    path = tmp_path / "cal.json"
    save_calibration(calibration, path)
    assert load_calibration(path) == calibration
    assert not (tmp_path / "cal.json.tmp").exists()


BENT = BentDecoder(LAYOUT, "CAFE", WEBCAM)
"""The board's tags as a webcam's barrel shows them."""
WEBCAM_FRAME = np.zeros(WEBCAM.frame_px[::-1], np.uint8)


def test_a_board_bent_by_the_lens_is_calibrated_once_the_lens_is_corrected() -> None:
    found = classify(BENT.decode(WEBCAM_FRAME), "CAFE")
    straight = fit_board(*anchor_pairs(found.anchors, LAYOUT))
    assert straight is None or (
        straight.agreeing < MIN_AGREEING_EMPTY or straight.rms_error_mm > MAX_RMS_ERROR_MM
    )
    calibration = calibrate(WEBCAM_FRAME, LAYOUT, BENT, "classic-8")
    assert calibration.board.rms_error_mm < 0.5
    assert calibration.straight_rms_error_mm is not None
    assert calibration.straight_rms_error_mm > MAX_RMS_ERROR_MM
    assert not calibration.board.lens.is_straight
    points = board_points(LAYOUT)
    mapped = calibration.board.to_mm([tuple(p) for p in WEBCAM.over(LAYOUT)(points)])
    assert np.hypot(*(np.array(mapped) - np.array(points)).T).max() < 0.5


def test_a_board_bent_beyond_any_lens_is_refused_naming_the_correction() -> None:
    with pytest.raises(
        CalibrationError,
        match=r"layout odyssey-12 even allowing for the lens's distortion|"
        r"mm even allowing for the lens's distortion \(at most 2\): is the layout "
        r"odyssey-12 the right one",
    ):
        calibrate(WEBCAM_FRAME, load_layout("odyssey-12"), BENT, "odyssey-12")


def test_the_lens_reads_back_the_same(tmp_path: Path) -> None:
    calibration = calibrate(WEBCAM_FRAME, LAYOUT, BENT, "classic-8")
    path = tmp_path / "cal.json"
    save_calibration(calibration, path)
    doc = json.loads(path.read_text())
    assert doc["format"] == 2
    assert doc["lens"] == {
        "centre_px": list(calibration.board.lens.centre_px),
        "scale_px": list(calibration.board.lens.scale_px),
        "k": list(calibration.board.lens.k),
    }
    assert load_calibration(path) == calibration


def test_a_file_from_before_the_lens_reads_as_a_straight_lens(tmp_path: Path) -> None:
    calibration = calibrate(FRAME, LAYOUT, Seen(), "classic-8")
    doc = calibration.to_json() | {"format": 1}
    del doc["lens"], doc["straight_rms_error_mm"]
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(doc))
    loaded = load_calibration(path)
    assert loaded.board.lens == STRAIGHT
    assert loaded.straight_rms_error_mm is None
    assert loaded.board.px_to_mm == calibration.board.px_to_mm
    assert loaded.board.to_mm([(400.0, 800.0)])[0] == pytest.approx((100.0, 200.0), abs=1e-3)
