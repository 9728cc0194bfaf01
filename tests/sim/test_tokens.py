"""Physical tokens on the simulated table: discs with coloured rims, thick enough to
stand up and cast a shadow, leaning on a card's edge, one partly over another."""

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from companion.kit.layouts import load_layout
from companion.kit.tags import KitTag, Role
from companion.sim import (
    Conditions,
    Disc,
    Laying,
    Obstruction,
    Placement,
    Scene,
    SimCamera,
    find_lens,
    round_scene,
)
from companion.sim.codes import moving_codes
from companion.sim.tokens import face_axes, printed_square, solid
from tests.sim.rig import KIT, decode, game_of, read_back, rng

CLEAN = Conditions(blur_sigma_px=0, noise_sigma=0, gradient=0, jpeg_quality=None)
ODYSSEY = load_layout("odyssey-12")
RED_VOTE = KitTag(KIT, Role.VOTE, colour="red", index=1)
BLUE_OWNER = KitTag(KIT, Role.OWNER, colour="blue", index=1)
DISC = Disc()
CAMERA = SimCamera(find_lens("standard").over(ODYSSEY, tilt_deg=5))


def shot(*placements: Placement) -> tuple[np.ndarray, dict[str, Any]]:
    scene = Scene(ODYSSEY, KIT, {1: True, 2: True}, placements, disc=DISC)
    frame = CAMERA.shoot(scene, CLEAN, rng(0))
    return frame.image, {t.text: t for t in frame.truth.tags}


def test_a_disc_holds_its_whole_code_and_wears_its_players_colour() -> None:
    image, truths = shot(Placement(RED_VOTE, (101.0, 85.0), 20.0))
    truth = truths[RED_VOTE.text]
    assert truth.visible
    assert RED_VOTE.text in decode(image)
    body = solid(Placement(RED_VOTE, (101.0, 85.0), 20.0), ODYSSEY.token_size_mm, Disc())
    rim = CAMERA.view(ODYSSEY).project(body.top[:1] * 0.5 + body.face[:1] * 0.5)[0]
    blue, green, red = image[round(rim[1]), round(rim[0])].astype(int)
    assert red > 150 and red > green + 60 and red > blue + 60


def test_a_disc_casts_a_shadow_away_from_the_light() -> None:
    where = (101.0, 85.0)
    bare, _ = shot()
    laid, _ = shot(Placement(RED_VOTE, where, 0.0))
    view = CAMERA.view(ODYSSEY)
    radius = ODYSSEY.token_size_mm * Disc().across / 2
    near, far = (radius + 1.0) / math.sqrt(2), (radius + 8.0) / math.sqrt(2)
    lit_side, shadow_side = view.project(
        [(where[0] - far, where[1] - far), (where[0] + near, where[1] + near)]
    )

    def level(image: np.ndarray, at: np.ndarray) -> float:
        x, y = at.round().astype(int)
        return float(image[y - 1 : y + 2, x - 1 : x + 2].mean())

    assert level(laid, shadow_side) < 0.85 * level(bare, shadow_side)
    assert level(laid, lit_side) == pytest.approx(level(bare, lit_side), rel=0.05)


def test_a_thick_token_is_seen_a_little_larger_and_further_out_than_a_flat_tag() -> None:
    flat = printed_square(Placement(RED_VOTE, (60.0, 60.0), 0.0), 24.0, None)
    thick = printed_square(Placement(RED_VOTE, (60.0, 60.0), 0.0), 24.0, Disc())
    view = CAMERA.view(ODYSSEY)
    flat_px, thick_px = view.project(flat), view.project(thick)
    middle = view.project([(ODYSSEY.board_mm[0] / 2, ODYSSEY.board_mm[1] / 2)])[0]
    assert np.linalg.norm(thick_px.mean(axis=0) - middle) > np.linalg.norm(
        flat_px.mean(axis=0) - middle
    )
    assert np.linalg.norm(thick_px[1] - thick_px[0]) > np.linalg.norm(flat_px[1] - flat_px[0])


def test_a_leaning_token_tips_down_the_way_it_leans() -> None:
    leaning = Placement(RED_VOTE, (100.0, 100.0), 0.0, tilt_deg=5.0, tilt_towards_deg=0.0)
    square = printed_square(leaning, 24.0, Disc())
    right, left = square[1][2], square[0][2]  # top right and top left corners' heights
    assert right < left
    assert math.degrees(math.asin((left - right) / 24.0)) == pytest.approx(5.0, abs=0.01)
    x_axis, y_axis, normal = face_axes(leaning)
    assert np.dot(x_axis, y_axis) == pytest.approx(0.0, abs=1e-12)
    assert normal[2] > 0 and normal[0] > 0  # it faces the way it leans down


def test_a_token_partly_over_another_hides_it_and_the_truth_says_so() -> None:
    under = Placement(BLUE_OWNER, (100.0, 90.0), 0.0)
    over = Placement(
        RED_VOTE,
        (118.0, 90.0),
        30.0,
        tilt_deg=8.0,
        tilt_towards_deg=0.0,
        resting_on=BLUE_OWNER.text,
    )
    image, truths = shot(over, under)  # drawn by height, whatever the order
    assert Obstruction.CODE in truths[BLUE_OWNER.text].obstructions
    assert truths[RED_VOTE.text].visible
    assert RED_VOTE.text in decode(image)


@pytest.mark.parametrize(("ruleset", "players"), [("odyssey", 12), ("party", 9), ("teams", 10)])
def test_careless_laying_keeps_every_token_in_its_slot(ruleset: str, players: int) -> None:
    careless = Laying(half_off=0.4, overlap=0.3)
    for seed in range(6):
        scene = round_scene(
            ODYSSEY, KIT, game_of(ruleset, players), rng(seed), disc=Disc(), laying=careless
        )
        assert read_back(scene) == scene.reveal
        on_edges = [p for p in scene.tokens if p.tilt_deg > 0 and p.resting_on is None]
        assert all(2.0 <= p.tilt_deg <= 5.0 for p in on_edges)
        resting = [p for p in scene.tokens if p.resting_on is not None]
        by_text = {p.tag.text: p for p in scene.tokens}
        for p in resting:  # one edge on the 3 mm disc below, the other on the board
            under = by_text[p.resting_on]
            assert under.resting_on is None
            apart = math.dist(p.center_mm, under.center_mm)
            assert math.tan(math.radians(p.tilt_deg)) == pytest.approx(3.0 / apart)
            others = [o for o in scene.tokens if o is not p and o is not under]
            # it covers only the one it rests on: the players saw every other
            assert all(math.dist(p.center_mm, o.center_mm) >= scene.token_width_mm for o in others)
        drawn = [code.text for code in moving_codes(scene)]
        for p in resting:
            assert drawn.index(p.tag.text) > drawn.index(p.resting_on)


def test_a_token_half_off_its_card_lies_on_the_card_edge_and_is_read() -> None:
    careless = Laying(half_off=1.0)
    scene = round_scene(ODYSSEY, KIT, game_of("classic", 5), rng(4), disc=Disc(), laying=careless)
    poses = scene.card_poses()
    on_edge = 0
    for placement in scene.tokens:
        slot = ODYSSEY.slot_at(placement.center_mm)
        corners = poses[slot].corners() if slot in poses else None
        if corners is None or placement.tilt_deg == 0:
            continue
        gaps = [
            _distance_to_segment(np.array(placement.center_mm), corners[i], corners[(i + 1) % 4])
            for i in range(4)
        ]
        assert min(gaps) < 1e-6
        on_edge += 1
    assert on_edge >= 3
    frame = CAMERA.shoot(scene, CLEAN, rng(4))
    found = decode(frame.image)
    assert {p.tag.text for p in scene.tokens} <= set(found)


def _distance_to_segment(point: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    t = np.clip(np.dot(point - a, b - a) / np.dot(b - a, b - a), 0, 1)
    return float(np.linalg.norm(point - (a + t * (b - a))))


def test_printed_tags_lie_flat_as_before() -> None:
    scene = round_scene(ODYSSEY, KIT, game_of("odyssey", 6), rng(2))
    assert scene.disc is None
    assert all(p.tilt_deg == 0 and p.resting_on is None for p in scene.tokens)
    frame = CAMERA.shoot(scene, CLEAN, rng(2))
    assert all(t.visible for t in frame.truth.tags)
    assert {p.tag.text for p in scene.tokens} <= set(decode(frame.image))


def test_cards_lie_where_their_deal_puts_them_in_every_frame() -> None:
    scene = round_scene(ODYSSEY, KIT, game_of("classic", 4), rng(5), disc=Disc())
    again = replace(scene, tokens=scene.tokens[:2])
    assert scene.card_poses() == again.card_poses()
    other = replace(scene, deal=scene.deal + 1)
    assert scene.card_poses() != other.card_poses()
