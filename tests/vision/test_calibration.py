"""Calibration from decoded tags, and the calibration file."""

from pathlib import Path

import numpy as np
import pytest

from companion.errors import CalibrationError
from companion.kit.layouts import load_layout
from companion.kit.tags import KitTag, Role
from companion.vision.calibration import calibrate, load_calibration, save_calibration
from companion.vision.decode import Gray
from companion.vision.records import Detection

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
    with pytest.raises(CalibrationError, match=r"the board fit is off by \d\.\d mm \(at most 2\)"):
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
