"""Fitting the board plane to the fixed tags."""

import cv2
import numpy as np
import pytest

from companion.vision.board import fit_board
from companion.vision.lens import Lens

TRUE = np.array([[0.4, 0.05, -30.0], [-0.02, 0.41, -12.0], [1e-5, 2e-5, 1.0]])
"""A slightly tilted camera: pixels to millimetres."""


def project(points_px: list[tuple[float, float]]) -> list[tuple[float, float]]:
    array = np.array(points_px, dtype=np.float64).reshape(-1, 1, 2)
    return [tuple(p) for p in cv2.perspectiveTransform(array, TRUE).reshape(-1, 2)]  # type: ignore[misc]


LENS = Lens((1010.0, 590.0), (1160.0, 1160.0), (0.08, 0.01, 0.0))
"""A barrel: frame pixels are where it bends a pinhole's."""

PIXELS = [
    (100.0, 80.0),
    (1900.0, 90.0),
    (1950.0, 1100.0),
    (120.0, 1150.0),
    (1000.0, 600.0),
    (500.0, 300.0),
]


def test_the_fit_recovers_the_plane() -> None:
    fit = fit_board(PIXELS, project(PIXELS))
    assert fit is not None
    assert fit.rms_error_mm < 1e-3
    probe = [(777.0, 444.0)]
    assert fit.to_mm(probe)[0] == pytest.approx(project(probe)[0], abs=1e-3)
    assert fit.to_px(fit.to_mm(probe))[0] == pytest.approx(probe[0], abs=1e-3)


def test_a_moved_tag_is_set_aside() -> None:
    board = project(PIXELS)
    board[4] = (board[4][0] + 40, board[4][1])
    fit = fit_board(PIXELS, board)
    assert fit is not None
    assert (fit.anchors_used, fit.anchors_seen) == (5, 6)
    assert fit.rms_error_mm < 0.01


def test_fewer_than_four_tags_fix_no_plane() -> None:
    assert fit_board(PIXELS[:3], project(PIXELS[:3])) is None


def test_tags_on_a_line_fix_no_plane() -> None:
    line = [(100.0 * i, 50.0 * i) for i in range(1, 6)]
    assert fit_board(line, project(line)) is None


def test_the_fit_through_a_lens_recovers_the_plane() -> None:
    seen = [tuple(p) for p in LENS.bend(PIXELS)]
    fit = fit_board(seen, project(PIXELS), LENS)
    assert fit is not None
    assert fit.lens == LENS
    assert (fit.anchors_used, fit.rms_error_mm) == (6, pytest.approx(0, abs=1e-3))
    (probe,) = LENS.bend([(777.0, 444.0)])
    assert fit.to_mm([tuple(probe)])[0] == pytest.approx(project([(777.0, 444.0)])[0], abs=1e-3)
    assert fit.to_px(fit.to_mm([tuple(probe)]))[0] == pytest.approx(tuple(probe), abs=1e-3)


def test_a_board_bent_by_a_lens_fits_no_plane_without_it() -> None:
    seen = [tuple(p) for p in LENS.bend(PIXELS)]
    straight = fit_board(seen, project(PIXELS))
    assert straight is None or straight.anchors_used < 6 or straight.rms_error_mm > 2
