"""Reading through a bending lens: the calibration's fit maps frame pixels to the board
through the lens, at the calibration's frame size and at a smaller one (the camera read
in a binned mode), and a frame whose board tags are hidden is still placed right."""

import math

import numpy as np
import pytest

from companion.kit.layouts import load_layout
from companion.sim import Scene, SimCamera, View, find_lens
from companion.sim.looks import GOOD_CAFE
from companion.vision.calibration import calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, to_gray

KIT = "CAFE1"
ODYSSEY = load_layout("odyssey-12")
WIDE = find_lens("wide")


@pytest.fixture(scope="module")
def reader() -> TableReader:
    pose = WIDE.over(ODYSSEY, tilt_deg=5)
    frame = SimCamera(pose).shoot(Scene(ODYSSEY, KIT), GOOD_CAFE, np.random.default_rng(0))
    calibration = calibrate(to_gray(frame.image), ODYSSEY, make_decoder(), "odyssey-12")
    assert not calibration.board.lens.is_straight
    return TableReader(calibration, ODYSSEY, make_decoder())


def board_points() -> list[tuple[float, float]]:
    width, height = ODYSSEY.board_mm
    return [(x * width, y * height) for x in (0.05, 0.3, 0.5, 0.7, 0.95) for y in (0.05, 0.5, 0.95)]


@pytest.mark.parametrize("shrink", [1, 2, 4])
def test_the_calibrations_fit_places_board_points_through_the_lens_at_any_frame_size(
    reader: TableReader, shrink: int
) -> None:
    width, height = WIDE.frame_px
    mode = WIDE.in_mode((width // shrink, height // shrink))
    view = View(mode.over(ODYSSEY, tilt_deg=5), ODYSSEY.board_mm)
    assert view.pose.height_mm == WIDE.over(ODYSSEY, tilt_deg=5).height_mm
    points = board_points()
    fit = reader._fallback(mode.frame_px)
    for point, mapped in zip(
        points, fit.to_mm([(float(x), float(y)) for x, y in view.project(points)]), strict=True
    ):
        assert math.dist(point, mapped) < 0.35, (shrink, point, mapped)
    back = np.array(fit.to_px(points))
    assert np.abs(back - view.project(points)).max() < 0.6 * view.px_per_mm(points[4])
