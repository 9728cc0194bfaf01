"""The lens model: straightening frame pixels, bending them back, other frame sizes."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from companion.errors import CalibrationError
from companion.vision.lens import STRAIGHT, Lens

FRAME = (4608, 2592)
HALF_DIAGONAL = math.hypot(*FRAME) / 2
WIDE = Lens((2330.0, 1281.0), (HALF_DIAGONAL, HALF_DIAGONAL), (0.0, 0.016, 0.1))
"""About what the fit finds for the Camera Module 3 Wide."""


def usable(lens: Lens) -> bool:
    try:
        lens.check(FRAME)
    except CalibrationError:
        return False
    return True


terms = st.floats(-0.3, 0.3)
lenses = st.builds(
    Lens,
    st.tuples(st.floats(2000, 2600), st.floats(1100, 1500)),
    st.just((HALF_DIAGONAL, HALF_DIAGONAL)),
    st.tuples(terms, terms, terms),
)
in_frame = st.tuples(st.floats(0, FRAME[0]), st.floats(0, FRAME[1]))


@given(lenses, st.lists(in_frame, min_size=1, max_size=20))
def test_bending_undoes_straightening_inside_the_frame(
    lens: Lens, points: list[tuple[float, float]]
) -> None:
    assume(usable(lens))
    straight = lens.straighten(points)
    assert straight.shape == (len(points), 2)
    assert np.abs(lens.bend(straight) - np.array(points)).max() < 1e-6


@given(lenses, st.lists(in_frame, min_size=1, max_size=20))
def test_straightening_undoes_bending(lens: Lens, points: list[tuple[float, float]]) -> None:
    assume(usable(lens))
    straight = lens.straighten(points)
    assert np.abs(lens.straighten(lens.bend(straight)) - straight).max() < 1e-6


@given(
    st.builds(
        Lens,
        st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)),
        st.tuples(st.floats(1, 1e4), st.floats(1, 1e4)),
        st.tuples(st.floats(-10, 10), st.floats(-10, 10), st.floats(-10, 10)),
    ),
    st.lists(st.tuples(st.floats(-1e300, 1e300), st.floats(-1e300, 1e300)), min_size=1),
)
def test_bending_any_point_through_any_lens_gives_a_pixel(
    lens: Lens, points: list[tuple[float, float]]
) -> None:
    assert np.isfinite(lens.bend(points)).all()


@given(lenses, in_frame, st.floats(0.25, 4), st.floats(0.25, 4))
def test_a_rescaled_lens_straightens_the_rescaled_frame_alike(
    lens: Lens, point: tuple[float, float], sx: float, sy: float
) -> None:
    x, y = point
    expected = lens.straighten([point])[0]
    small = ((x + 0.5) / sx - 0.5, (y + 0.5) / sy - 0.5)
    straight = lens.rescaled(sx, sy).straighten([small])[0]
    assert (straight + 0.5) * (sx, sy) - 0.5 == pytest.approx(expected)


def test_the_correction_moves_points_along_their_ray_from_the_centre() -> None:
    (x, y), (cx, cy) = WIDE.straighten([(4000.0, 2300.0)])[0], WIDE.centre_px
    assert math.atan2(y - cy, x - cx) == pytest.approx(math.atan2(2300 - cy, 4000 - cx))
    assert math.hypot(x - cx, y - cy) > math.hypot(4000 - cx, 2300 - cy)
    assert WIDE.straighten([WIDE.centre_px])[0] == pytest.approx(WIDE.centre_px)


def test_the_straight_lens_moves_nothing() -> None:
    points = [[1.5, -2.0], [1e300, 3.0]]
    assert STRAIGHT.is_straight and not WIDE.is_straight
    assert STRAIGHT.straighten(points).tolist() == points
    assert STRAIGHT.bend(points).tolist() == points
    STRAIGHT.check(FRAME)


def test_the_wide_lens_is_usable_over_its_frame() -> None:
    WIDE.check(FRAME)


@pytest.mark.parametrize(
    ("k", "message"),
    [
        ((-0.5, 0.0, 0.0), r"stops growing inside the 4608x2592 frame .*: it would fold"),
        ((0.0, 0.0, -0.2), r"stops growing inside the 4608x2592 frame"),
        ((0.0, 0.0, 40.0), r"stretches the 4608x2592 frame's edge \d+-fold \(at most 10\)"),
    ],
)
def test_a_lens_that_folds_or_tears_the_frame_is_refused(
    k: tuple[float, float, float], message: str
) -> None:
    with pytest.raises(CalibrationError, match=message):
        Lens(WIDE.centre_px, WIDE.scale_px, k).check(FRAME)


def test_a_lens_centred_far_outside_the_frame_is_refused() -> None:
    with pytest.raises(CalibrationError, match=r"centre \(9000, 1281\) lies far outside"):
        Lens((9000.0, 1281.0), WIDE.scale_px, WIDE.k).check(FRAME)


def test_beyond_its_fold_a_lens_bends_every_point_to_the_fold() -> None:
    folding = Lens(WIDE.centre_px, WIDE.scale_px, (-0.5, 0.0, 0.0))
    fold = math.sqrt(1 / 1.5) * HALF_DIAGONAL  # where 1 - 1.5 r² is 0
    cx, cy = folding.centre_px
    far = folding.bend([(cx + 1e6, cy), (cx, cy - 1e9)])
    np.testing.assert_allclose(far, [[cx + fold, cy], [cx, cy - fold]])


@pytest.mark.parametrize("scale", [1e-10, 100.0, 40_000.0, 1e300])
def test_a_lens_scaled_far_from_the_frames_half_diagonal_is_refused(scale: float) -> None:
    with pytest.raises(CalibrationError, match="half the"):
        Lens(WIDE.centre_px, (scale, scale), WIDE.k).check(FRAME)
