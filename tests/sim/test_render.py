"""The table simulator: its geometry, its truth, its rounds, and frames a decoder reads."""

import dataclasses
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from companion.errors import LayoutError, SeatingError, SettingError
from companion.kit.layouts import Layout, load_layout
from companion.kit.tags import MODULES, KitTag, Role
from companion.rules import Game, find_ruleset
from companion.sim import (
    CameraPose,
    Conditions,
    ForeignCode,
    Obstruction,
    Placement,
    Scene,
    SimFrame,
    TagTruth,
    render,
    round_scene,
)
from companion.sim.camera import project
from tests.sim.rig import KIT, ZXING_OFFSET, decode, game_of, odyssey_scene, read_back, rng

CLEAN = Conditions(blur_sigma_px=0, noise_sigma=0, gradient=0, jpeg_quality=None)
"""No optics, no sensor: the geometry alone."""


# The camera


def test_homography_maps_the_board_corners_to_where_the_frame_shows_them() -> None:
    layout = load_layout("classic-8")
    pose = CameraPose(height_mm=950, tilt_deg=12, yaw_deg=7, offset_mm=(10, -15))
    frame = render(Scene(layout, KIT), pose, CLEAN, rng(1))
    width, height = layout.board_mm
    centre = np.array([width / 2, height / 2])
    for corner in np.array([(0, 0), (width, 0), (width, height), (0, height)], dtype=float):
        inward = (centre - corner) / np.linalg.norm(centre - corner)
        (x_in, y_in), (x_out, y_out) = (
            project(frame.truth.board_to_pinhole, [corner + 4 * inward, corner - 4 * inward])
            .round()
            .astype(int)
        )
        blue, _, red = frame.image[y_in, x_in].astype(int)
        assert blue > red, f"board corner {corner}: the board should show just inside"
        blue, _, red = frame.image[y_out, x_out].astype(int)
        assert red > blue, f"board corner {corner}: the wooden table should show just outside"


def test_truth_puts_each_code_where_the_decoder_finds_it() -> None:
    layout = load_layout("classic-8")
    pose = CameraPose(height_mm=950, tilt_deg=12, yaw_deg=-9)
    frame = render(Scene(layout, KIT), pose, CLEAN, rng(2))
    found = decode(frame.image)
    assert len(frame.truth.visible_tags) == len(frame.truth.tags) == 12
    assert {t.text for t in frame.truth.tags} == set(found)
    for truth in frame.truth.tags:
        assert_corners_match(found[truth.text], truth)
        centre = found[truth.text].mean(axis=0) - ZXING_OFFSET
        assert np.hypot(*(centre - truth.center_px)) < 1.0, truth.text


def assert_corners_match(decoded: np.ndarray, truth: TagTruth) -> None:
    """Decoded corners lie on the true ones within a pixel and a quarter module; the
    bottom right one, which a version 1 code marks with no pattern and the decoder
    extrapolates, within a pixel and 0.8 module."""
    errors = np.hypot(*(decoded - ZXING_OFFSET - np.array(truth.corners_px)).T)
    allowed = 1.0 + np.array([0.25, 0.25, 0.8, 0.25]) * truth.px_per_module
    assert (errors < allowed).all(), f"{truth.text}: corners off by {errors} px"


def test_px_per_module_matches_the_decoded_size_within_ten_percent() -> None:
    scene = odyssey_scene(3)
    checked = 0
    for seed, (tilt, yaw) in enumerate([(6, 0), (15, 20), (25, -35)]):
        pose = CameraPose(tilt_deg=tilt, yaw_deg=yaw, frame_px=(1920, 1080))
        frame = render(scene, pose, Conditions(), rng(seed))
        truths = {t.text: t for t in frame.truth.tags}
        for text, corners in decode(frame.image).items():
            side = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).mean()
            assert side / MODULES == pytest.approx(truths[text].px_per_module, rel=0.1), text
            checked += 1
    assert checked > 60


def test_a_pose_can_be_chosen_for_a_resolution() -> None:
    layout = load_layout("mat-a1-12")
    pose = CameraPose(tilt_deg=10, offset_mm=(40, 20)).with_px_per_module(layout.board_mm, 4.0, 24)
    look = (layout.board_mm[0] / 2 + 40, layout.board_mm[1] / 2 + 20)
    assert pose.px_per_module(layout.board_mm, look, 24) == pytest.approx(4.0, rel=1e-3)
    assert pose.px_per_module(layout.board_mm, look, 48) == pytest.approx(8.0, rel=1e-3)


@pytest.mark.parametrize(
    "change",
    [
        {"height_mm": 0.0},
        {"tilt_deg": -1.0},
        {"tilt_deg": 60.0},
        {"hfov_deg": 0.0},
        {"frame_px": (8, 8)},
    ],
)
def test_impossible_poses_are_refused(change: dict[str, Any]) -> None:
    with pytest.raises(SettingError):
        dataclasses.replace(CameraPose(), **change)


@pytest.mark.parametrize(
    "change",
    [
        {"blur_sigma_px": -1.0},
        {"gradient": 1.0},
        {"glare_strength": 1.5},
        {"hands": -1},
        {"jpeg_quality": 0},
    ],
)
def test_impossible_conditions_are_refused(change: dict[str, Any]) -> None:
    with pytest.raises(SettingError):
        dataclasses.replace(Conditions(), **change)


# Frames a decoder reads


def close_up_frames(count: int) -> Iterator[SimFrame]:
    """Frames of random Odyssey rounds from random poses giving 4 to 5 px per module
    at the middle of the view, in the default (mild) conditions."""
    layout = load_layout("odyssey-12")
    game = game_of("odyssey", 12)
    for seed in range(count):
        draw = rng(100 + seed)
        scene = round_scene(layout, KIT, game, draw)
        pose = CameraPose(
            tilt_deg=float(draw.uniform(0, 25)),
            yaw_deg=float(draw.uniform(-30, 30)),
            offset_mm=(float(draw.uniform(-200, 200)), float(draw.uniform(-100, 100))),
            frame_px=(2304, 1296),
        ).with_px_per_module(layout.board_mm, float(draw.uniform(4.0, 5.0)), 24)
        yield render(scene, pose, Conditions(), draw)


def test_at_four_px_per_module_nearly_every_visible_tag_is_decoded() -> None:
    seen = read = 0
    for frame in close_up_frames(20):
        found = decode(frame.image)
        assert set(found) <= {t.text for t in frame.truth.tags}, "a code that is not there"
        for truth in frame.truth.visible_tags:
            if truth.px_per_module >= 4:
                seen += 1
                read += truth.text in found
    assert seen >= 150
    assert read >= 0.99 * seen, f"{read} of {seen} visible tags decoded"


def test_foreign_codes_are_drawn_and_told_apart() -> None:
    layout = load_layout("classic-8")
    menu = ForeignCode("https://cafe.example/menu?table=7", (284, 254), 60, 15)
    other_kit = ForeignCode(KitTag("OTHER", Role.TRAP).text, (220, 254), 24, -30)
    scene = Scene(layout, KIT, foreign=(menu, other_kit))
    frame = render(scene, CameraPose(), CLEAN, rng(4))
    drawn = {t.text: t for t in frame.truth.tags}
    assert drawn[menu.text].tag is None and drawn[other_kit.text].tag is None
    assert drawn[KitTag(KIT, Role.CORNER, corner=1).text].tag == KitTag(KIT, Role.CORNER, corner=1)
    assert {menu.text, other_kit.text} <= set(decode(frame.image))


# What hides a code


def test_hands_hide_tags_and_the_truth_says_so() -> None:
    scene = odyssey_scene(5)
    pose = CameraPose()
    hidden = 0
    for seed in range(4):
        bare = render(scene, pose, Conditions(), rng(seed))
        busy = render(scene, pose, Conditions(hands=3), rng(seed))
        assert all(t.visible for t in bare.truth.tags)
        assert len(busy.truth.visible_tags) < len(bare.truth.visible_tags)
        found = decode(busy.image)
        for truth in busy.truth.tags:
            if Obstruction.HAND in truth.obstructions:
                hidden += 1
                assert truth.covered > 0
            else:
                assert truth.covered == 0
            if truth.covered > 0.5:
                assert truth.text not in found, f"{truth.text} read through a hand"
        for text in found:
            assert next(t for t in busy.truth.tags if t.text == text).covered < 0.5
    assert hidden >= 8


def test_glare_burns_out_tags_and_the_truth_says_so() -> None:
    scene = odyssey_scene(6)
    glare = Conditions(glare_spots=3, glare_strength=1.0, glare_radius=0.04)
    burnt = []
    for seed in range(3):
        frame = render(scene, CameraPose(), glare, rng(seed))
        burnt += [t for t in frame.truth.tags if Obstruction.GLARE in t.obstructions]
        found = decode(frame.image)
        for truth in frame.truth.tags:
            x, y = np.array(truth.center_px).round().astype(int)
            if frame.image[y, x].min() == 255:
                assert Obstruction.GLARE in truth.obstructions, truth.text
                assert truth.text not in found
    assert burnt


def test_codes_beyond_the_frame_edge_are_not_visible() -> None:
    layout = load_layout("odyssey-12")
    pose = CameraPose(frame_px=(1280, 720)).with_px_per_module(layout.board_mm, 4.0, 24)
    frame = render(odyssey_scene(7), pose, CLEAN, rng(7))
    for truth in frame.truth.tags:
        x, y = truth.center_px
        inside = 0 <= x < 1280 and 0 <= y < 720
        if Obstruction.FRAME not in truth.obstructions:
            assert inside, truth.text
        if not inside:
            assert truth.covered > 0.4, truth.text
    assert any(Obstruction.FRAME in t.obstructions for t in frame.truth.tags)
    assert frame.truth.visible_tags


def test_the_same_seed_gives_the_same_frame() -> None:
    conditions = Conditions(hands=2, glare_spots=1)
    first = render(odyssey_scene(8), CameraPose(), conditions, rng(9))
    again = render(odyssey_scene(8), CameraPose(), conditions, rng(9))
    other = render(odyssey_scene(8), CameraPose(), conditions, rng(10))
    assert np.array_equal(first.image, again.image)
    assert first.truth.tags == again.truth.tags
    assert not np.array_equal(first.image, other.image)


# Rounds laid out on the board


ROUNDS = [
    ("classic", 3, "classic-8"),
    ("classic", 6, "classic-8"),
    ("classic-1e", 5, "classic-8"),
    ("odyssey", 12, "odyssey-12"),
    ("odyssey", 7, "mat-a1-12"),
    ("party", 9, "odyssey-12"),
    ("party-1e", 12, "mat-a1-12"),
    ("teams", 10, "odyssey-12"),
    ("teams-1e", 6, "classic-8"),
]


@pytest.mark.parametrize(("ruleset", "players", "layout_name"), ROUNDS)
def test_round_scene_lays_out_a_legal_round_token_by_token(
    ruleset: str, players: int, layout_name: str
) -> None:
    layout = load_layout(layout_name)
    for seed in range(6):
        game = game_of(ruleset, players, first=seed % players)
        scene = round_scene(layout, KIT, game, rng(seed))
        reveal = scene.reveal
        assert reveal is not None
        assert game.problems(reveal) == ()
        assert read_back(scene) == reveal
        assert {s for s, laid in scene.cards.items() if laid} == set(reveal.cards)
        assert_tokens_spread(scene, layout)


def assert_tokens_spread(scene: Scene, layout: Layout) -> None:
    """Token centres lie inside their card area, a token size apart on one card."""
    by_slot: dict[int, list[np.ndarray]] = {}
    for placement in scene.tokens:
        slot = layout.slot_at(placement.center_mm)
        assert slot is not None
        by_slot.setdefault(slot, []).append(np.array(placement.center_mm))
    for slot, centres in by_slot.items():
        for i, a in enumerate(centres):
            for b in centres[i + 1 :]:
                apart = float(np.linalg.norm(a - b))
                assert apart >= layout.token_size_mm, f"slot {slot}: tokens {apart:.1f} mm apart"


def test_odyssey_with_twelve_players_casts_double_votes() -> None:
    reveals = [odyssey_scene(seed).reveal for seed in range(5)]
    assert any(len(cast) == 2 for r in reveals if r for cast in r.votes.values())


def test_with_three_players_each_card_has_its_own_owner_token() -> None:
    scene = round_scene(load_layout("classic-8"), KIT, game_of("classic", 3), rng(1))
    owners = sorted((t.tag.colour, t.tag.index) for t in scene.tokens if t.tag.role is Role.OWNER)
    assert owners == [("blue", 1), ("blue", 2), ("green", 1), ("green", 2), ("red", 1)]


def test_party_lays_the_trap_dial_on_the_trapped_card() -> None:
    scene = round_scene(load_layout("odyssey-12"), KIT, game_of("party", 8), rng(3))
    (trap,) = [t for t in scene.tokens if t.tag.role is Role.TRAP]
    assert scene.reveal is not None
    assert scene.layout.slot_at(trap.center_mm) == scene.reveal.trap


def test_round_scene_needs_kit_colours_and_enough_slots() -> None:
    names = ["ann", "bob", "cat", "dan"]
    with pytest.raises(SeatingError):
        round_scene(
            load_layout("classic-8"), KIT, Game.start(find_ruleset("classic"), names, "ann"), rng(0)
        )
    with pytest.raises(LayoutError):
        round_scene(load_layout("classic-8"), KIT, game_of("odyssey", 12), rng(0))


def test_a_token_tag_turned_keeps_its_corner_order() -> None:
    layout = load_layout("classic-8")
    tag = KitTag(KIT, Role.VOTE, colour="red", index=1)
    where = (101.0, 85.0)
    offset = (where[0] - layout.board_mm[0] / 2, where[1] - layout.board_mm[1] / 2)
    pose = CameraPose(tilt_deg=15, offset_mm=offset).with_px_per_module(layout.board_mm, 5, 24)
    for angle in (0.0, 90.0, 200.0, 317.0):
        scene = Scene(layout, KIT, tokens=(Placement(tag, where, angle),))
        frame = render(scene, pose, CLEAN, rng(0))
        (truth,) = [t for t in frame.truth.tags if t.tag == tag]
        corners = np.array(truth.corners_px)
        across = corners[1] - corners[0]
        turned = math.degrees(math.atan2(across[1], across[0])) % 360
        assert min(abs(turned - angle), 360 - abs(turned - angle)) < 5
        assert_corners_match(decode(frame.image)[tag.text], truth)


def test_missing_anchors_are_left_out_and_moved_ones_lie_where_placed() -> None:
    layout = load_layout("classic-8")
    corner = KitTag(KIT, Role.CORNER, corner=1)
    slot = KitTag(KIT, Role.SLOT, slot=3)
    moved = Placement(slot, (300.0, 254.0), 30.0)
    scene = Scene(layout, KIT, tokens=(moved,), missing=frozenset({corner, slot}))
    frame = render(scene, CameraPose(), CLEAN, rng(0))
    texts = [t.text for t in frame.truth.tags]
    assert corner.text not in texts and texts.count(slot.text) == 1
    (truth,) = [t for t in frame.truth.tags if t.tag == slot]
    assert truth.center_mm == moved.center_mm
    assert set(decode(frame.image)) == set(texts)
