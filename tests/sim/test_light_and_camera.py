"""A café's light and a camera's habits on the simulated table: dim evenings, coloured
lamps, glare, shadows, smeared hands, focus and exposure hunting, and a camera that
keeps the still table between frames."""

import dataclasses
from typing import Any

import cv2
import numpy as np
import pytest

from companion.errors import SettingError
from companion.kit.layouts import load_layout
from companion.sim import (
    VARIATIONS,
    Conditions,
    Disc,
    Lay,
    Laying,
    Obstruction,
    Scene,
    SimCamera,
    find_lens,
    find_variation,
    look_with,
    render,
    round_scene,
)
from companion.sim.autos import EXPOSURE_STEPS, FOCUS_STEPS_PX, Autos
from companion.sim.codes import anchor_codes, moving_codes
from companion.sim.effects import Tweak, develop, hunted
from companion.sim.glare import card_streaks
from companion.sim.looks import CAFE, GOOD_CAFE
from companion.sim.pixels import Canvas
from companion.sim.render import _Token
from companion.sources.simulated import SimulatedTable
from tests.sim.rig import KIT, decode, game_of, rng
from tests.vision.scenes import LAYOUT_NAME

SMALL = load_layout(LAYOUT_NAME)
POSE = find_lens("standard").in_mode((2304, 1296)).over(SMALL, tilt_deg=5)
QUIET = Conditions(blur_sigma_px=0.8, noise_sigma=0, gradient=0, jpeg_quality=None)


def small_scene(seed: int, **changes: Any) -> Scene:
    return round_scene(SMALL, KIT, game_of("classic", 4), rng(seed), disc=Disc(), **changes)


def board_patch(image: np.ndarray) -> np.ndarray:
    """A patch of bare board between the slots (the middle of the small board)."""
    height, width = image.shape[:2]
    return image[height // 2 - 20 : height // 2 + 20, width // 2 - 20 : width // 2 + 20]


def test_an_evening_raises_the_gain_and_with_it_the_noise() -> None:
    evening = find_variation("evening").on(CAFE).conditions
    assert evening.gain > 1 and evening.noise > GOOD_CAFE.noise
    assert evening.brightness == pytest.approx(1.0)
    flat = Conditions(blur_sigma_px=0, noise_sigma=3.0, gradient=0, jpeg_quality=None)
    dim = dataclasses.replace(flat, light=1 / 3, exposure_ms=20.0)
    scene = Scene(SMALL, KIT, disc=Disc())

    def noise(conditions: Conditions) -> float:
        """The noise in grey levels: two frames of the same table differ by it."""
        a, b = (
            cv2.cvtColor(
                SimCamera(POSE).shoot(scene, conditions, rng(seed)).image, cv2.COLOR_BGR2GRAY
            )
            for seed in (1, 2)
        )
        return float(np.std(board_patch(a).astype(float) - board_patch(b)) / np.sqrt(2))

    assert noise(flat) == pytest.approx(3.0, rel=0.2)
    assert noise(dim) == pytest.approx(dim.noise, rel=0.2)
    assert dim.noise > 1.3 * flat.noise


def test_a_gain_at_its_most_leaves_the_frame_dim() -> None:
    dim = Conditions(light=0.05, exposure_ms=10.0)
    assert dim.gain == 8.0 and dim.brightness == pytest.approx(0.4)


@pytest.mark.parametrize(("name", "redder"), [("warm", True), ("cool", False)])
def test_the_lamps_colour_tints_the_frame(name: str, redder: bool) -> None:
    scene = Scene(SMALL, KIT, disc=Disc())
    plain = SimCamera(POSE).shoot(scene, QUIET, rng(2)).image
    tinted = (
        SimCamera(POSE)
        .shoot(
            scene,
            find_variation(name).on(dataclasses.replace(CAFE, conditions=QUIET)).conditions,
            rng(2),
        )
        .image
    )
    blue, _, red = board_patch(tinted).mean(axis=(0, 1)) - board_patch(plain).mean(axis=(0, 1))
    assert (red > 0 > blue) if redder else (blue > 0 > red)


def test_an_arms_shadow_darkens_part_of_the_board_but_hides_no_tag() -> None:
    scene = small_scene(3)
    shadowed = dataclasses.replace(QUIET, arm_shadows=1)
    plain = SimCamera(POSE).shoot(scene, QUIET, rng(3))
    dark = SimCamera(POSE).shoot(scene, shadowed, rng(3))
    darker = cv2.cvtColor(plain.image, cv2.COLOR_BGR2GRAY).astype(int) - cv2.cvtColor(
        dark.image, cv2.COLOR_BGR2GRAY
    )
    assert (darker > 20).mean() > 0.02
    assert [t.obstructions for t in dark.truth.tags] == [t.obstructions for t in plain.truth.tags]


def test_glare_off_a_card_lies_across_a_token_and_pales_it() -> None:
    scene = small_scene(4)
    camera = SimCamera(POSE)
    (streak,) = card_streaks(1, scene, camera.view(SMALL), rng(4))
    on_token = [p for p in scene.tokens if SMALL.slot_at(p.center_mm)]
    centres = camera.view(SMALL).project([p.center_mm for p in on_token])
    assert min(np.hypot(*(centres - streak.center).T)) < 1.0
    assert 0.45 <= streak.strength <= 0.65
    frame = camera.shoot(scene, dataclasses.replace(QUIET, glare_streaks=1), rng(4))
    paled = [t for t in frame.truth.tags if Obstruction.GLARE in t.obstructions]
    assert all(t.tag is not None for t in paled)


def test_a_slow_shutter_smears_a_moving_hand_further() -> None:
    fast, slow = Conditions(exposure_ms=5.0), Conditions(exposure_ms=40.0)
    assert slow.smear_mm == pytest.approx(8 * fast.smear_mm)
    scene = Scene(SMALL, KIT, disc=Disc())
    sharp = (
        SimCamera(POSE)
        .shoot(scene, dataclasses.replace(QUIET, hands=1, exposure_ms=2.0), rng(5))
        .image
    )
    smeared = (
        SimCamera(POSE)
        .shoot(scene, dataclasses.replace(QUIET, hands=1, exposure_ms=60.0), rng(5))
        .image
    )

    def edges(image: np.ndarray) -> float:
        return float(
            np.abs(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_32F)).mean()
        )

    assert edges(smeared) < edges(sharp)


def test_focus_hunts_for_a_few_soft_frames_after_the_table_changes() -> None:
    conditions = Conditions(focus_hunt=3)
    autos, blurs = Autos(), []
    for changed in (True, False, False, False, False, True, False):
        autos, tweak = autos.next(changed, 0, conditions, 4608)
        blurs.append(tweak.focus_sigma_px)
    assert blurs == [*FOCUS_STEPS_PX[:3], 0.0, 0.0, FOCUS_STEPS_PX[0], FOCUS_STEPS_PX[1]]
    _, tweak = Autos().next(True, 0, Conditions(), 4608)
    assert tweak.none


def test_exposure_steps_when_a_hand_comes_into_view() -> None:
    conditions = Conditions(exposure_hunt=2)
    autos, levels = Autos(), []
    for hands in (0, 1, 1, 1, 0, 2):
        autos, tweak = autos.next(False, hands, conditions, 2304)
        levels.append(tweak.exposure)
    assert levels == [1.0, EXPOSURE_STEPS[0], EXPOSURE_STEPS[1], 1.0, 1.0, EXPOSURE_STEPS[0]]


def test_a_hunting_frame_is_softer_and_darker() -> None:
    frame = SimCamera(POSE).shoot(Scene(SMALL, KIT), QUIET, rng(6)).image
    soft = hunted(frame, Tweak(focus_sigma_px=5.0, exposure=0.7))
    assert soft.mean() == pytest.approx(0.7 * frame.mean(), rel=0.03)
    assert cv2.Laplacian(soft, cv2.CV_32F).var() < 0.2 * cv2.Laplacian(frame, cv2.CV_32F).var()


def test_the_simulated_table_hunts_as_its_conditions_ask() -> None:
    scene = small_scene(7)
    conditions = dataclasses.replace(QUIET, focus_hunt=2, exposure_hunt=2)
    table = SimulatedTable(scene, POSE, conditions, rng(7))
    first, _second, third = (table.read() for _ in range(3))
    assert not np.array_equal(first, third) and np.array_equal(table.read(), third)
    table.lay(Lay(scene, hands=1))
    assert table.read().mean() < 0.9 * third.mean()


def test_a_kept_camera_draws_the_frame_a_fresh_one_draws() -> None:
    camera = SimCamera(POSE)
    first, second = small_scene(8), small_scene(9)
    conditions = dataclasses.replace(GOOD_CAFE, hands=1, glare_spots=1)
    camera.shoot(first, conditions, rng(1))
    camera.shoot(second, conditions, rng(2))
    kept = camera.shoot(first, conditions, rng(3))
    fresh = render(first, POSE, conditions, rng(3))
    assert np.array_equal(kept.image, fresh.image)
    assert kept.truth.tags == fresh.truth.tags


@pytest.mark.parametrize("name", list(VARIATIONS))
def test_every_condition_makes_frames_whose_visible_tokens_decode(name: str) -> None:
    look = look_with([name])
    scene = (
        small_scene(10, laying=look.laying)
        if look.disc is not None
        else round_scene(SMALL, KIT, game_of("classic", 4), rng(10), laying=look.laying)
    )
    frame = SimCamera(POSE).shoot(scene, look.conditions, rng(10))
    found = decode(frame.image)
    assert set(found) <= {t.text for t in frame.truth.tags}
    missed = [t.text for t in frame.truth.visible_tags if t.text not in found]
    assert missed == []


def test_conditions_and_laying_refuse_what_no_table_has() -> None:
    bad: list[dict[str, Any]] = [
        {"light": 0.0},
        {"exposure_ms": -1.0},
        {"white_balance": (1.0, 0.0, 1.0)},
        {"arm_shadows": -1},
    ]
    for change in bad:
        with pytest.raises(SettingError):
            dataclasses.replace(Conditions(), **change)
    with pytest.raises(SettingError):
        Laying(half_off=1.5)
    with pytest.raises(SettingError, match="evening"):
        find_variation("storm")


def test_developing_the_frame_piece_by_piece_draws_what_developing_it_whole_draws() -> None:
    """The kept camera develops only the pieces of the frame where something moved; the
    lens's blur and the light across them must come out as on the whole frame, with no
    seam where a piece meets the still table."""
    scene = small_scene(11, laying=Laying(half_off=0.5, overlap=0.5))
    conditions = Conditions(
        blur_sigma_px=1.1,
        noise_sigma=0,
        gradient=0.35,
        white_balance=(0.8, 0.95, 1.1),
        jpeg_quality=None,
    )
    camera = SimCamera(POSE)
    pieced = camera.shoot(scene, conditions, rng(0)).image
    view = camera.view(SMALL)
    whole = camera._dealt(scene, view, anchor_codes(scene)).copy()
    canvas = Canvas(whole, (0, 0))
    for code in moving_codes(scene):
        _Token(code, view).draw(canvas)
    width, height = POSE.frame_px
    developed = develop(whole, (0, 0, width, height), POSE.frame_px, conditions)
    difference = np.abs(pieced.astype(int) - developed)
    assert difference.max() <= 1, np.argwhere(difference > 1)[:5]
