"""Calibrating straight from the camera into the state folder, where `companion play`
finds it; and a table without a calibration still plays, by hand, saying why."""

from pathlib import Path

import cv2
import pytest

from companion.cli import build_parser, main
from companion.cli.play import play_table
from companion.runtime.camera import Watching
from companion.runtime.config import TableConfig
from companion.statedir import STATE_DIR_VARIABLE
from companion.vision.calibration import load_calibration
from tests.screens import RecordingScreen
from tests.vision.scenes import LAYOUT_NAME, empty_frame


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv(STATE_DIR_VARIABLE, str(folder))
    return folder


def board_frames(folder: Path, count: int) -> Path:
    folder.mkdir()
    image = empty_frame().image
    for n in range(count):
        assert cv2.imwrite(str(folder / f"frame-{n}.png"), image)
    return folder


def test_calibrate_reads_the_camera_and_saves_into_the_state_folder(
    tmp_path: Path, state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = board_frames(tmp_path / "camera", 3)
    command = ["calibrate", "--source", f"folder:{frames}", "--frames", "2"]
    assert main([*command, "--layout", LAYOUT_NAME]) == 0
    assert f"saved to {state / 'calibration.json'}" in capsys.readouterr().out
    calibration = load_calibration(state / "calibration.json")
    assert calibration.frame_size == (2304, 1296)

    args = build_parser().parse_args(
        ["play", "--source", f"folder:{frames}", "--display", "headless", "--players", "4"]
    )
    with play_table(TableConfig.from_args(args)) as table:
        loop = table.loop
        assert loop.camera is not None and isinstance(loop.camera.state.status, Watching)
        assert loop.camera_note == ""


def test_a_camera_that_runs_out_before_the_frame_is_a_one_line_error(
    tmp_path: Path, state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = board_frames(tmp_path / "camera", 2)
    command = ["calibrate", "--source", f"folder:{frames}", "--frames", "5"]
    assert main([*command, "--layout", LAYOUT_NAME]) == 2
    error = capsys.readouterr().err
    assert error.startswith("companion calibrate: ") and error.count("\n") == 1
    assert not (state / "calibration.json").exists()


@pytest.mark.parametrize(
    "arguments",
    [
        ["--layout", LAYOUT_NAME],
        ["image.png", "--source", "picamera", "--layout", LAYOUT_NAME],
    ],
)
def test_calibrate_takes_an_image_or_a_source_not_both_nor_neither(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["calibrate", *arguments])
    assert exit_.value.code == 2
    assert "image" in capsys.readouterr().err


def test_without_a_calibration_the_game_is_played_by_hand_and_the_screen_says_why(
    tmp_path: Path,
    state: Path,
    capsys: pytest.CaptureFixture[str],
    recording_screen: RecordingScreen,
) -> None:
    args = build_parser().parse_args(
        ["play", "--source", "picamera", "--display", "headless", "--players", "4"]
    )
    with play_table(TableConfig.from_args(args)) as table:
        loop = table.loop
        loop.screen = recording_screen
        loop.step()
    assert loop.camera is None
    shown = recording_screen.views[-1].camera
    assert shown is not None and not shown.working
    assert str(state / "calibration.json") in shown.status
    assert "companion calibrate" in shown.status and "entered by hand" in shown.status
    assert "companion play: no calibration" in capsys.readouterr().err


def test_a_layout_file_is_kept_by_its_full_path_for_play_in_another_folder(
    tmp_path: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = board_frames(tmp_path / "camera", 1)
    (tmp_path / "my-board.json").write_text(Path(LAYOUT_NAME).read_text())
    monkeypatch.chdir(tmp_path)
    command = ["calibrate", "--source", f"folder:{frames}", "--frames", "0"]
    assert main([*command, "--layout", "my-board.json"]) == 0
    assert load_calibration(state / "calibration.json").layout == str(tmp_path / "my-board.json")


def test_calibrate_from_the_camera_makes_the_state_folder(tmp_path: Path, state: Path) -> None:
    frames = board_frames(tmp_path / "camera", 1)
    assert not state.exists()
    command = ["calibrate", "--source", f"folder:{frames}", "--frames", "0"]
    assert main([*command, "--layout", LAYOUT_NAME]) == 0
    assert (state / "calibration.json").is_file()
