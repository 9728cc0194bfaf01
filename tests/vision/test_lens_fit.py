"""Fitting the lens and the board together to the corners of the fixed tags."""

import math

import numpy as np
import pytest

from companion.kit.layouts import Layout, load_layout
from companion.kit.tags import KitTag, Role
from companion.vision.assign import classify
from companion.vision.calibration import MAX_RMS_ERROR_MM, MIN_AGREEING_EMPTY, corner_pairs
from companion.vision.lens_fit import LensFit, fit_lens
from companion.vision.records import Detection
from tests.vision.bent import MILD, PINHOLE, WEBCAM, WIDE, Camera, board_points, seen_tags

KIT = "CAFE1"
ODYSSEY = load_layout("odyssey-12")


def fitted(detections: list[Detection], layout: Layout, camera: Camera) -> LensFit | None:
    pixels, board_mm, tags = corner_pairs(classify(detections, KIT).anchors, layout)
    return fit_lens(pixels, board_mm, tags, camera.frame_px)


def worst_mm(fit: LensFit, camera: Camera, layout: Layout) -> float:
    """How far the fitted board puts any point of the board from where it is."""
    points = board_points(layout)
    mapped = fit.board.to_mm([tuple(p) for p in camera.over(layout)(points)])
    return float(np.max(np.hypot(*(np.array(mapped) - np.array(points)).T)))


@pytest.mark.parametrize("camera", [MILD, WEBCAM, WIDE], ids=["mild", "webcam", "wide"])
def test_the_fitted_lens_puts_every_board_point_in_its_place(camera: Camera) -> None:
    rng = np.random.default_rng(1)
    fit = fitted(seen_tags(ODYSSEY, KIT, camera.over(ODYSSEY), rng), ODYSSEY, camera)
    assert fit is not None
    assert worst_mm(fit, camera, ODYSSEY) < 0.3
    assert fit.board.rms_error_mm < 0.15
    assert (fit.board.anchors_used, fit.board.anchors_seen, fit.set_aside) == (16, 16, ())
    assert not fit.lens.is_straight
    assert fit.straight_rms_error_mm > 2 * fit.board.rms_error_mm


def test_through_a_webcam_a_straight_fit_misses_by_millimetres() -> None:
    rng = np.random.default_rng(2)
    fit = fitted(seen_tags(ODYSSEY, KIT, WEBCAM.over(ODYSSEY), rng), ODYSSEY, WEBCAM)
    assert fit is not None
    assert fit.straight_rms_error_mm > MAX_RMS_ERROR_MM
    assert fit.lens.k[0] > 0  # the correction undoes a barrel


def test_stickers_turned_any_way_round_fit_alike() -> None:
    rng = np.random.default_rng(3)
    turns = [90.0 * (i % 4) + 3.0 * math.sin(i) for i in range(16)]
    detections = seen_tags(ODYSSEY, KIT, WIDE.over(ODYSSEY), rng, turns_deg=turns)
    fit = fitted(detections, ODYSSEY, WIDE)
    assert fit is not None
    assert fit.set_aside == ()
    assert worst_mm(fit, WIDE, ODYSSEY) < 0.3


def test_a_moved_sticker_is_set_aside() -> None:
    rng = np.random.default_rng(4)
    slot7 = KitTag(KIT, Role.SLOT, slot=7).text
    detections = seen_tags(ODYSSEY, KIT, WEBCAM.over(ODYSSEY), rng, moved_mm={slot7: (12.0, 0.0)})
    fit = fitted(detections, ODYSSEY, WEBCAM)
    assert fit is not None
    assert fit.set_aside == (slot7,)
    assert (fit.board.anchors_used, fit.board.anchors_seen) == (15, 16)
    assert worst_mm(fit, WEBCAM, ODYSSEY) < 0.3


def test_a_tag_misread_far_from_its_place_is_set_aside() -> None:
    rng = np.random.default_rng(5)
    slot3 = KitTag(KIT, Role.SLOT, slot=3).text
    detections = seen_tags(ODYSSEY, KIT, WIDE.over(ODYSSEY), rng, moved_mm={slot3: (200.0, -80.0)})
    fit = fitted(detections, ODYSSEY, WIDE)
    assert fit is not None
    assert fit.set_aside == (slot3,)
    assert worst_mm(fit, WIDE, ODYSSEY) < 0.3


def test_points_of_another_layout_fit_no_lens() -> None:
    rng = np.random.default_rng(6)
    detections = seen_tags(ODYSSEY, KIT, WEBCAM.over(ODYSSEY), rng)
    fit = fitted(detections, load_layout("classic-8"), WEBCAM)
    assert fit is not None
    assert fit.board.rms_error_mm > MAX_RMS_ERROR_MM or fit.board.agreeing < MIN_AGREEING_EMPTY


def test_with_four_tags_only_k1_is_fitted_about_the_frame_centre() -> None:
    rng = np.random.default_rng(7)
    detections = seen_tags(ODYSSEY, KIT, WEBCAM.over(ODYSSEY), rng)
    few = [d for d in detections if any(f".{n}." in d.text for n in ("C1", "C3", "S02", "S11"))]
    fit = fitted(few, ODYSSEY, WEBCAM)
    assert fit is not None
    width, height = WEBCAM.frame_px
    assert fit.lens.centre_px == ((width - 1) / 2, (height - 1) / 2)
    assert fit.lens.k[0] > 0 and fit.lens.k[1:] == (0.0, 0.0)
    assert fit.board.rms_error_mm < 0.5 < fit.straight_rms_error_mm


def test_a_lens_that_bends_nothing_is_kept_straight() -> None:
    rng = np.random.default_rng(8)
    fit = fitted(seen_tags(ODYSSEY, KIT, PINHOLE.over(ODYSSEY), rng), ODYSSEY, PINHOLE)
    assert fit is not None
    assert fit.lens.is_straight
    assert fit.board.rms_error_mm == fit.straight_rms_error_mm < 0.15
    assert worst_mm(fit, PINHOLE, ODYSSEY) < 0.1


def test_fewer_than_four_tags_or_tags_on_a_line_fix_no_board() -> None:
    rng = np.random.default_rng(9)
    detections = seen_tags(ODYSSEY, KIT, WEBCAM.over(ODYSSEY), rng)
    assert fitted(detections[:3], ODYSSEY, WEBCAM) is None
    row = [d for d in detections if any(f".S0{n}." in d.text for n in range(1, 7))]
    assert fitted(row, ODYSSEY, WEBCAM) is None
