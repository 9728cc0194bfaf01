"""The calibration check: present, at the camera's size, this kit's board, not moved.

The board-moved check is proved on simulated frames: the board as calibrated, and
the same board shifted under the camera by a few millimetres and by 20 mm.
"""

import dataclasses
import json
from pathlib import Path

import pytest

from companion.doctor.board import calibration_check
from companion.doctor.camera import camera_check
from companion.doctor.findings import Finding, Status
from companion.doctor.settings import Settings
from companion.doctor.view import Sight
from companion.kit.tags import KitTag, Role
from companion.statedir import STATE_DIR_VARIABLE
from tests.doctor.tables import board_image, folder_of, settings
from tests.vision.scenes import KIT, LAYOUT_NAME

SLOTS_AND_CORNERS = 8
"""Board tags of the simulated layout."""


def judged(table: Settings) -> tuple[Finding, Sight]:
    _, taken = camera_check(table, 3.0)
    return calibration_check(table, taken)


def board_table(tmp_path: Path, *images: object, **changes: object) -> Settings:
    frames = images or (board_image(),)
    return settings(tmp_path, folder_of(tmp_path / "frames", *frames), **changes)


def test_the_board_as_calibrated_is_ok_with_its_figures(tmp_path: Path) -> None:
    finding, sight = judged(board_table(tmp_path))
    assert finding.status is Status.OK
    assert finding.detail.startswith(
        f"kit {KIT}, layout small-4, 2304x1296: corner and slot tags are 0."
    )
    assert f"(median of {SLOTS_AND_CORNERS} of {SLOTS_AND_CORNERS} seen; worst 0." in finding.detail
    assert sight.view is not None and len(sight.view.anchors) == SLOTS_AND_CORNERS


def test_a_board_moved_20_mm_fails_saying_by_how_much_and_to_recalibrate(tmp_path: Path) -> None:
    finding, _ = judged(board_table(tmp_path, board_image(offset_mm=(20.0, 0.0))))
    assert finding.status is Status.FAIL
    assert finding.detail.startswith("the board or the camera has moved by 20 mm: ")
    median = float(finding.detail.split("tags are ")[1].split(" mm")[0])
    assert median == pytest.approx(20.0, abs=1.0)
    pixels = float(finding.detail.split(" mm (")[1].split(" px")[0])
    assert pixels == pytest.approx(81, abs=5)
    assert finding.fix.startswith("recalibrate: put the empty board under the camera and run ")
    assert (
        f"`companion calibrate --source folder:{tmp_path / 'frames'} --layout {LAYOUT_NAME}"
        in finding.fix
    )


def test_a_board_moved_across_fails_too(tmp_path: Path) -> None:
    finding, _ = judged(board_table(tmp_path, board_image(offset_mm=(0.0, 20.0))))
    assert finding.status is Status.FAIL
    assert "moved by 20 mm" in finding.detail


def test_a_board_shifted_a_few_mm_warns_to_recalibrate_when_the_table_is_free(
    tmp_path: Path,
) -> None:
    finding, _ = judged(board_table(tmp_path, board_image(offset_mm=(5.0, 0.0))))
    assert finding.status is Status.WARN
    assert finding.detail.startswith("the board has shifted a little: corner and slot tags are 5.")
    assert finding.fix.startswith("recalibrate when the table is free: ")


def test_a_missing_calibration_fails_with_the_calibrate_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STATE_DIR_VARIABLE, str(tmp_path / "state"))
    table = board_table(tmp_path)
    table.calibration.unlink()
    finding, sight = judged(dataclasses.replace(table, source="picamera"))
    assert finding.status is Status.FAIL
    assert finding.detail == f"no calibration at {table.calibration}"
    assert finding.fix == (
        "put the empty board under the camera and run "
        "`companion calibrate --source picamera --layout NAME`"
    )
    assert sight.table.calibration is None


def test_a_damaged_calibration_fails_naming_the_file(tmp_path: Path) -> None:
    table = board_table(tmp_path)
    table.calibration.write_text('{"format": 1}')
    finding, _ = judged(table)
    assert finding.status is Status.FAIL
    assert str(table.calibration) in finding.detail
    assert "damaged calibration file" in finding.detail
    assert "companion calibrate" in finding.fix
    assert f"--out {table.calibration}" in finding.fix


def test_a_calibration_naming_a_lost_layout_fails(tmp_path: Path) -> None:
    table = board_table(tmp_path)
    doc = json.loads(table.calibration.read_text())
    table.calibration.write_text(json.dumps({**doc, "layout": "no-such-board"}))
    finding, _ = judged(table)
    assert finding.status is Status.FAIL
    assert "the layout it names cannot be read: unknown layout 'no-such-board'" in finding.detail


def test_a_camera_at_another_size_than_calibrated_fails(tmp_path: Path) -> None:
    finding, _ = judged(board_table(tmp_path, board_image(frame_px=(1920, 1080))))
    assert finding.status is Status.FAIL
    assert finding.detail == "calibrated at 2304x1296, the camera gives 1920x1080"
    assert "picamera:2304x1296" in finding.fix
    assert "recalibrate" in finding.fix


def test_another_kits_board_under_the_camera_fails(tmp_path: Path) -> None:
    finding, _ = judged(board_table(tmp_path, board_image(kit="CAFE2")))
    assert finding.status is Status.FAIL
    assert finding.detail == (
        f"tags of kit CAFE2 ({SLOTS_AND_CORNERS}) outnumber this table's kit {KIT} (0): "
        "another kit's board is under the camera"
    )
    assert f"put this table's board (kit {KIT}) under the camera" in finding.fix


def test_too_few_board_tags_in_view_fails_saying_how_many(tmp_path: Path) -> None:
    covered = frozenset(
        [KitTag(KIT, Role.SLOT, slot=n) for n in (1, 2, 3, 4)]
        + [KitTag(KIT, Role.CORNER, corner=2)]
    )
    finding, _ = judged(board_table(tmp_path, board_image(missing=covered)))
    assert finding.status is Status.FAIL
    assert finding.detail.startswith(f"only 3 of {SLOTS_AND_CORNERS} board tags visible")
    assert "clear the board" in finding.fix


def test_without_a_picture_the_calibration_is_read_but_not_compared(tmp_path: Path) -> None:
    finding, sight = calibration_check(settings(tmp_path), None)
    assert finding.status is Status.SKIP
    assert finding.detail == (
        f"kit {KIT}, layout small-4, 2304x1296; not compared with the board: "
        "no picture from the camera"
    )
    assert sight.view is None
