"""The tag check: every kit tag in view read, at how many pixels per module, and whose."""

import dataclasses
from pathlib import Path

import numpy as np

from companion.colours import COLOURS
from companion.doctor.board import calibration_check
from companion.doctor.camera import camera_check
from companion.doctor.findings import Finding, Status
from companion.doctor.tags import tags_check
from companion.doctor.view import Sight
from companion.kit.tags import MIN_PX_PER_MODULE, KitTag, Role
from companion.sim import ForeignCode, Scene, render
from tests.doctor.tables import board_image, folder_of, settings
from tests.vision.scenes import KIT, MILD, POSE, layout, round_frame


def tags_seen(tmp_path: Path, image: np.ndarray) -> Finding:
    table = settings(tmp_path, folder_of(tmp_path / "frames", image))
    _, taken = camera_check(table, 3.0)
    _, sight = calibration_check(table, taken)
    return tags_check(sight)


def test_an_empty_board_reads_every_board_tag_and_asks_for_the_tokens(tmp_path: Path) -> None:
    finding = tags_seen(tmp_path, board_image())
    assert finding.status is Status.OK
    board, tokens = finding.detail.split("; ")
    assert board.startswith(f"8 of 8 board tags of kit {KIT} read at 4.")
    assert board.endswith(" px per module (median 4.5)")
    assert tokens == (
        "no tokens on the board: lay every player's tokens and dials on the cards and run "
        "again to check them too"
    )


def test_tokens_on_the_board_are_measured_and_named_by_colour(tmp_path: Path) -> None:
    frame = round_frame(3)
    laid = {p.tag.colour for p in frame.truth.scene.tokens}
    whose = [c.name for c in COLOURS if c.name in laid]
    finding = tags_seen(tmp_path, frame.image)
    assert finding.status is Status.OK
    tokens = finding.detail.split("; ")[1]
    assert f"tokens of {', '.join(whose[:-1])} and {whose[-1]} read at 4." in tokens


def test_tags_too_small_in_the_frame_are_named_with_their_size(tmp_path: Path) -> None:
    small = render(
        Scene(layout(), KIT),
        dataclasses.replace(POSE, frame_px=(1600, 900)),
        MILD,
        np.random.default_rng(1),
    )
    finding = tags_seen(tmp_path, small.image)
    assert finding.status is Status.WARN
    smallest = min(
        (t for t in small.truth.visible_tags if t.tag is not None), key=lambda t: t.px_per_module
    )
    assert smallest.px_per_module < MIN_PX_PER_MODULE
    below = finding.detail.split("; ")[2]
    assert below.startswith(f"below {MIN_PX_PER_MODULE:g} px per module: slot ")
    lowest = finding.detail.split(" read at ")[1].split(" to ")[0]
    assert f" tag ({lowest}), " in below
    assert below.endswith(" and 3 more")
    assert finding.fix == "lower the camera, raise the resolution, or print larger tags"


def test_a_board_tag_not_seen_is_named(tmp_path: Path) -> None:
    image = board_image(missing=frozenset({KitTag(KIT, Role.SLOT, slot=2)}))
    finding = tags_seen(tmp_path, image)
    assert finding.status is Status.WARN
    assert finding.detail.startswith(f"7 of 8 board tags of kit {KIT} read")
    assert finding.detail.endswith("; slot 2 tag not read")
    assert finding.fix == (
        "clear anything lying on them and check that they are in the camera's view; if they "
        "are, lower the camera, raise the resolution, or print larger tags"
    )


def test_a_tag_of_another_kit_in_view_warns(tmp_path: Path) -> None:
    stray = KitTag("CAFE2", Role.VOTE, colour="red", index=1).text
    scene = Scene(layout(), KIT, foreign=(ForeignCode(stray, (223.0, 90.0), 26.0),))
    image = render(scene, POSE, MILD, np.random.default_rng(1)).image
    finding = tags_seen(tmp_path, image)
    assert finding.status is Status.WARN
    assert finding.detail.endswith("; tags of another kit in view: CAFE2 (1)")
    assert "take the other kit's tags off this table" in finding.fix


def test_another_kits_board_reads_no_tag_of_this_kit(tmp_path: Path) -> None:
    finding = tags_seen(tmp_path, board_image(kit="CAFE2"))
    assert finding.status is Status.FAIL
    assert finding.detail == f"no tag of kit {KIT} read, but eight tags of kit CAFE2"


def test_without_a_picture_the_tags_are_not_checked(tmp_path: Path) -> None:
    assert tags_check(None).status is Status.SKIP
    _, sight = calibration_check(settings(tmp_path), None)
    assert tags_check(sight) == Finding(
        Status.SKIP, "tags", "not checked: no picture from the camera"
    )
    assert isinstance(sight, Sight)
