"""The simulated cameras: their lenses bend the view as a real lens does, and the truth
follows the bend."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import SettingError
from companion.kit.layouts import load_layout
from companion.sim import LENSES, CameraPose, Conditions, Scene, SimCamera, View, find_lens
from companion.sim.camera import project
from tests.sim.rig import KIT, ZXING_OFFSET, decode, odyssey_scene, rng

CLEAN = Conditions(blur_sigma_px=0, noise_sigma=0, gradient=0, jpeg_quality=None)
ODYSSEY = load_layout("odyssey-12")


@settings(max_examples=60, deadline=None)
@given(
    lens=st.sampled_from(sorted(LENSES)),
    x=st.floats(0, 1),
    y=st.floats(0, 1),
)
def test_frame_pixels_go_back_to_the_board_point_they_show(lens: str, x: float, y: float) -> None:
    view = View(LENSES[lens].over(ODYSSEY, tilt_deg=5), ODYSSEY.board_mm)
    point = (x * ODYSSEY.board_mm[0], y * ODYSSEY.board_mm[1])
    (back,) = view.board_points(view.project([point]))
    assert math.dist(back, point) < 1e-6


def margin_sides() -> list[tuple[float, float]]:
    """Points all along the sides of the board with a 5 % margin round it."""
    width, height = ODYSSEY.board_mm
    x0, y0, x1, y1 = -0.05 * width, -0.05 * height, 1.05 * width, 1.05 * height
    steps = [i / 16 for i in range(17)]
    return [
        *((x0 + t * (x1 - x0), y) for t in steps for y in (y0, y1)),
        *((x, y0 + t * (y1 - y0)) for t in steps for x in (x0, x1)),
    ]


def in_frame(pose: CameraPose, points: list[tuple[float, float]]) -> bool:
    seen = View(pose, ODYSSEY.board_mm).project(points)
    width, height = pose.frame_px
    return bool((seen >= 0).all() and (seen[:, 0] < width).all() and (seen[:, 1] < height).all())


@pytest.mark.parametrize("lens", sorted(LENSES))
def test_each_lens_hangs_as_low_as_shows_the_whole_board_with_its_margin(lens: str) -> None:
    pose = LENSES[lens].over(ODYSSEY, tilt_deg=5)
    assert in_frame(pose, margin_sides())
    assert not in_frame(LENSES[lens].pose(pose.height_mm - 20, tilt_deg=5), margin_sides())


def test_barrel_distortion_bulges_the_board_edges_outwards() -> None:
    """Through the wide lens the board's corners are pulled in more than the middle of
    its edges, so its top edge bulges up, away from the frame's centre, as in a real
    wide picture."""
    view = View(find_lens("wide").over(ODYSSEY), ODYSSEY.board_mm)
    left, middle, right = view.project(
        [(0, 0), (ODYSSEY.board_mm[0] / 2, 0), (ODYSSEY.board_mm[0], 0)]
    )
    assert middle[1] < (left[1] + right[1]) / 2 - 20
    straight = View(find_lens("wide").pose(400, tilt_deg=0), ODYSSEY.board_mm)
    assert not straight.straight


def test_a_pinhole_view_is_its_homography() -> None:
    pose = CameraPose(height_mm=900, tilt_deg=10, yaw_deg=5)
    view = View(pose, ODYSSEY.board_mm)
    points = np.array([(10.0, 20.0), (400.0, 250.0), (800.0, 500.0)])
    assert np.allclose(view.project(points), project(pose.homography(ODYSSEY.board_mm), points))


def test_a_raised_point_is_seen_further_from_the_middle() -> None:
    """The top of a token stands above the board: nearer the camera, so further out."""
    view = View(find_lens("standard").over(ODYSSEY), ODYSSEY.board_mm)
    on_board, raised = view.project([(50.0, 50.0, 0.0), (50.0, 50.0, 3.0)])
    middle = view.project([(ODYSSEY.board_mm[0] / 2, ODYSSEY.board_mm[1] / 2)])[0]
    assert np.linalg.norm(raised - middle) > np.linalg.norm(on_board - middle) + 1


@pytest.mark.parametrize("lens", sorted(LENSES))
def test_every_tag_is_decoded_where_the_truth_puts_it_through_each_lens(lens: str) -> None:
    camera = SimCamera(LENSES[lens].over(ODYSSEY, tilt_deg=5))
    frame = camera.shoot(odyssey_scene(3), CLEAN, rng(3))
    found = decode(frame.image)
    kit = [t for t in frame.truth.tags if t.tag is not None and t.tag.kit == KIT]
    assert len(kit) > 40
    for truth in kit:
        assert truth.text in found, truth.text
        errors = np.hypot(*(found[truth.text] - ZXING_OFFSET - np.array(truth.corners_px)).T)
        # the bottom right corner, which the decoder extrapolates, strays further
        # through a bending lens than through a pinhole
        allowed = 1.0 + np.array([0.25, 0.25, 1.5, 0.25]) * truth.px_per_module
        assert (errors < allowed).all(), f"{truth.text}: corners off by {errors} px"


@pytest.mark.parametrize(
    "change",
    [
        {"k1": 0.0, "k2": -0.5},
        {"k1": -2.0},
        {"k1": math.nan},
        {"centre_offset_px": (math.inf, 0.0)},
    ],
)
def test_a_lens_that_folds_or_inverts_the_frame_is_refused(change: dict[str, object]) -> None:
    with pytest.raises(SettingError):
        dataclasses.replace(find_lens("wide").pose(400), **change)


def test_an_unknown_lens_is_named_with_the_known_ones() -> None:
    with pytest.raises(SettingError, match="standard, wide, webcam"):
        find_lens("fisheye")


def test_a_lens_in_another_mode_keeps_its_field() -> None:
    full = find_lens("standard")
    half = full.in_mode((2304, 1296))
    assert half.hfov_deg == full.hfov_deg
    assert half.centre_offset_px == (full.centre_offset_px[0] / 2, full.centre_offset_px[1] / 2)
    scene_px = View(full.pose(780), ODYSSEY.board_mm).project([(100.0, 100.0)])[0]
    half_px = View(half.pose(780), ODYSSEY.board_mm).project([(100.0, 100.0)])[0]
    assert np.allclose(half_px, (scene_px + 0.5) / 2 - 0.5, atol=0.01)


def test_an_empty_board_frame_through_the_wide_lens_has_every_board_tag_visible() -> None:
    camera = SimCamera(find_lens("wide").over(ODYSSEY, tilt_deg=5))
    frame = camera.shoot(Scene(ODYSSEY, KIT), CLEAN, rng(1))
    assert len(frame.truth.visible_tags) == 16
