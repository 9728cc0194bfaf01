"""The camera and focus/exposure checks, on image folders and a stand-in camera module
(the `camera_module` fixture)."""

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.doctor.camera import camera_check
from companion.doctor.exposure import describe_profile, exposure_check
from companion.doctor.findings import Status
from companion.doctor.settings import Settings
from companion.sources.mock_picamera2 import MockPicamera2
from companion.sources.picamera import SETTLE_FRAMES, CameraProfile
from tests.doctor.tables import board_image, folder_of, grey_image, settings

STALL = 3.0


def check(table: Settings) -> tuple[Any, Any]:
    return camera_check(table, STALL)


def test_a_folder_of_board_frames_is_read_and_sized(tmp_path: Path) -> None:
    image = board_image()
    source = folder_of(tmp_path / "frames", image, image, image)
    finding, taken = check(settings(tmp_path, source, frames=3))
    assert finding.status is Status.OK
    assert "2304x1296, 3 of 3 frames read, brightness 75 of 255" in finding.detail
    assert taken is not None and taken.frame_size == (2304, 1296)


def test_a_replay_that_ends_early_is_no_problem(tmp_path: Path) -> None:
    finding, _ = check(settings(tmp_path, folder_of(tmp_path / "frames", board_image())))
    assert finding.status is Status.OK
    assert "one frame read, then the replay ended" in finding.detail


def test_a_black_picture_fails_like_a_lost_camera_and_hands_no_picture_on(tmp_path: Path) -> None:
    finding, taken = check(settings(tmp_path, folder_of(tmp_path / "black", grey_image(0))))
    assert finding.status is Status.FAIL
    assert "brightness 0 of 255; the picture is black" in finding.detail
    assert "cap off the lens" in finding.fix
    assert taken is not None and taken.picture is None


def test_a_black_frame_now_and_then_warns_like_a_loose_cable(tmp_path: Path) -> None:
    image = board_image()
    source = folder_of(tmp_path / "frames", image, grey_image(0), image)
    finding, taken = check(settings(tmp_path, source, frames=3))
    assert finding.status is Status.WARN
    assert finding.detail.endswith(
        "3 of 3 frames read, brightness 75 of 255; one frame of 3 came black"
    )
    assert "cable" in finding.fix
    assert taken is not None and taken.picture is not None


def test_a_nearly_black_picture_warns_with_the_lens_cap_and_the_light(tmp_path: Path) -> None:
    finding, taken = check(settings(tmp_path, folder_of(tmp_path / "dim", grey_image(25))))
    assert finding.status is Status.WARN
    assert "brightness 25 of 255; the picture is nearly black" in finding.detail
    assert "cap off the lens and light the table" in finding.fix
    assert taken is not None and taken.picture is not None


def test_a_washed_out_picture_warns(tmp_path: Path) -> None:
    finding, _ = check(settings(tmp_path, folder_of(tmp_path / "bright", grey_image(245))))
    assert finding.status is Status.WARN
    assert "the picture is washed out" in finding.detail
    assert "turn the lights down" in finding.fix


def test_a_failed_read_or_two_warn_and_more_fail(tmp_path: Path) -> None:
    image = board_image()
    one_bad = tmp_path / "one-bad"
    folder_of(one_bad, image, image, image)
    (one_bad / "frame-2.png").write_bytes(b"not a picture")
    finding, _ = check(settings(tmp_path, f"folder:{one_bad}", frames=3))
    assert finding.status is Status.WARN
    assert "2 of 3 frames read" in finding.detail
    assert "one read failed (" in finding.detail
    assert "cable" in finding.fix

    many_bad = tmp_path / "many-bad"
    folder_of(many_bad, image, image, image, image)
    for number in (1, 2, 3):
        (many_bad / f"frame-{number}.png").write_bytes(b"not a picture")
    finding, _ = check(settings(tmp_path, f"folder:{many_bad}", frames=4))
    assert finding.status is Status.FAIL
    assert "3 reads failed" in finding.detail


def test_a_missing_folder_fails_and_names_the_path_to_check(tmp_path: Path) -> None:
    finding, taken = check(settings(tmp_path, f"folder:{tmp_path / 'nowhere'}"))
    assert finding.status is Status.FAIL
    assert "no such folder" in finding.detail
    assert "check the --source path" in finding.fix
    assert taken is None


def test_without_picamera2_the_fix_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    finding, _ = check(settings(tmp_path, "picamera"))
    assert finding.status is Status.FAIL
    assert "python3-picamera2" in finding.fix
    assert "--system-site-packages" in finding.fix
    assert "hardware/install" in finding.fix


def test_no_camera_module_says_to_check_the_ribbon_cable(
    tmp_path: Path, camera_module: type[MockPicamera2]
) -> None:
    camera_module.failure_on_open = RuntimeError("no cameras available")
    finding, _ = check(settings(tmp_path, "picamera"))
    assert finding.status is Status.FAIL
    assert "no camera found" in finding.fix
    assert "ribbon cable" in finding.fix
    assert "rpicam-hello --list-cameras" in finding.fix


def test_a_settled_camera_module_holds_its_values_and_saves_them_beside_the_calibration(
    tmp_path: Path, camera_module: type[MockPicamera2]
) -> None:
    table = settings(tmp_path, "picamera", frames=SETTLE_FRAMES + 1)
    camera, taken = check(table)
    assert camera.status is Status.OK
    assert camera.detail.startswith("Raspberry Pi camera 0 (imx708), 64x48, 16 of 16 frames read")
    finding = exposure_check(table, taken)
    assert finding.status is Status.OK
    assert finding.detail == (
        "held: exposure 10.0 ms, gain 2.0, colour gains 1.80/1.50, lens 1.2 dioptres "
        "(focused at 80 cm); saved just now beside the calibration (calibration.camera.json)"
    )
    assert table.camera_profile.exists()

    _, again = check(table)
    assert "as saved beside the calibration" in exposure_check(table, again).detail


def test_a_camera_module_still_settling_warns_and_says_how_to_save_its_values(
    tmp_path: Path, camera_module: type[MockPicamera2]
) -> None:
    table = settings(tmp_path, "picamera", frames=SETTLE_FRAMES - 5)
    _, taken = check(table)
    finding = exposure_check(table, taken)
    assert finding.status is Status.WARN
    assert finding.detail == "still settling after ten frames: exposure and focus are not held yet"
    assert "let the camera run a few seconds with the board lit" in finding.fix
    assert "`companion calibrate --source picamera --layout NAME --out " in finding.fix


def test_a_damaged_camera_profile_fails_but_the_camera_is_still_checked(
    tmp_path: Path, camera_module: type[MockPicamera2]
) -> None:
    table = settings(tmp_path, "picamera")
    table.camera_profile.write_text("{ not json")
    camera, taken = check(table)
    assert camera.status is Status.OK
    finding = exposure_check(table, taken)
    assert finding.status is Status.FAIL
    assert "the saved camera settings are damaged" in finding.detail
    assert finding.fix == (
        f"delete {table.camera_profile}; it is made again when the camera next settles"
    )
    assert table.camera_profile.read_text() == "{ not json"


def test_held_exposure_does_not_apply_to_an_image_folder(tmp_path: Path) -> None:
    table = settings(tmp_path, folder_of(tmp_path / "frames", board_image()))
    _, taken = check(table)
    finding = exposure_check(table, taken)
    assert finding.status is Status.OK
    assert finding.detail.startswith("does not apply to folder ")
    assert "only a Camera Module's exposure and focus are held" in finding.detail


def test_without_frames_exposure_is_skipped(tmp_path: Path) -> None:
    assert exposure_check(settings(tmp_path), None).status is Status.SKIP


@pytest.mark.parametrize(
    ("lens", "said"),
    [
        (None, "fixed-focus lens"),
        (0.0, "lens 0.0 dioptres (focused at infinity)"),
        (2.5, "lens 2.5 dioptres (focused at 40 cm)"),
    ],
)
def test_the_held_focus_is_told_as_a_distance(lens: float | None, said: str) -> None:
    profile = CameraProfile(12000, 1.8, (1.9, 1.4), lens)
    assert describe_profile(profile).endswith(said)
    assert describe_profile(profile).startswith(
        "exposure 12.0 ms, gain 1.8, colour gains 1.90/1.40"
    )


def test_no_source_skips_the_camera(tmp_path: Path) -> None:
    finding, taken = check(dataclasses.replace(settings(tmp_path), source="none"))
    assert finding.status is Status.SKIP
    assert taken is None


def test_settings_that_cannot_be_saved_are_held_but_warned_about(
    tmp_path: Path, camera_module: type[MockPicamera2]
) -> None:
    table = settings(tmp_path, "picamera", frames=SETTLE_FRAMES + 1)
    table.camera_profile.with_name(table.camera_profile.name + ".tmp").mkdir()
    camera, taken = check(table)
    assert camera.status is Status.OK
    finding = exposure_check(table, taken)
    assert finding.status is Status.WARN
    assert finding.detail.startswith("held: exposure 10.0 ms")
    assert "; not saved: " in finding.detail
    assert "cannot write the camera profile" in finding.detail
    assert str(table.camera_profile.parent) in finding.fix


def test_without_a_calibration_folder_nothing_is_written(
    tmp_path: Path, camera_module: type[MockPicamera2]
) -> None:
    table = dataclasses.replace(
        settings(tmp_path, "picamera", frames=SETTLE_FRAMES + 1),
        calibration=tmp_path / "nowhere" / "calibration.json",
    )
    _, taken = check(table)
    finding = exposure_check(table, taken)
    assert finding.status is Status.OK
    assert finding.detail.endswith(
        "; not saved yet (calibration.camera.json is saved beside the calibration once there is one)"
    )
    assert not (tmp_path / "nowhere").exists()


def test_a_damaged_camera_profile_does_not_matter_to_an_image_folder(tmp_path: Path) -> None:
    table = settings(tmp_path, folder_of(tmp_path / "frames", board_image()))
    table.camera_profile.write_text("{ not json")
    _, taken = check(table)
    assert exposure_check(table, taken).status is Status.OK


def test_a_damaged_camera_profile_is_reported_even_when_the_camera_module_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    table = settings(tmp_path, "picamera")
    table.camera_profile.write_text("{ not json")
    camera, taken = check(table)
    assert camera.status is Status.FAIL
    assert exposure_check(table, taken).status is Status.FAIL
