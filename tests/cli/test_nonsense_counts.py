"""Counts that make no sense (no rounds, negative ones, no players, frames in another
script's digits) are refused before anything is opened or written: one line on
stderr naming the option, exit status 2."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.statedir import STATE_DIR_VARIABLE
from tests.vision.scenes import LAYOUT_NAME


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv(STATE_DIR_VARIABLE, str(folder))
    return folder


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command; it must exit 2 with one line on stderr and nothing on stdout."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    return captured.err


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--rounds", "0", "--rounds must be a number of rounds, 1 or more, not 0"),
        ("--rounds", "-1", "--rounds must be a number of rounds, 1 or more, in digits 0-9"),
        ("--rounds", "1_0", "--rounds must be a number of rounds, 1 or more, in digits 0-9"),
        ("--players", "0", "odyssey is played by 3, 4, 5"),
        ("--players", "-1", "--players must be a number of players in digits 0-9"),
        ("--players", "\u0664", "--players must be a number of players in digits 0-9"),
        ("--seed", "-1", "--seed must be a random seed, 0 or more, in digits 0-9"),
    ],
)
def test_the_demo_refuses_a_count_that_makes_no_sense(
    state: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    err = refused(["demo", "--headless", "--no-web", option, value], capsys)
    assert err.startswith(f"companion demo: {said}"), err
    assert not state.exists()  # no journal made, no screens saved


def test_every_edition_of_the_demo_is_checked_for_its_players_first(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(["demo", "--headless", "--no-web", "--all", "--players", "4"], capsys)
    assert "is played by" in err and "not 4" in err
    assert not state.exists()


@pytest.mark.parametrize("frames", ["-1", "1_0", "\u0661"])
def test_calibrate_refuses_a_number_of_frames_that_makes_no_sense(
    tmp_path: Path, state: Path, capsys: pytest.CaptureFixture[str], frames: str
) -> None:
    argv = ["calibrate", "--source", "none", "--layout", LAYOUT_NAME, "--frames", frames]
    err = refused(argv, capsys)
    assert err.startswith(
        "companion calibrate: --frames must be a number of frames, 0 or more, in digits 0-9"
    ), err
    assert not state.exists()


@pytest.mark.parametrize(
    ("frames", "said"),
    [
        ("0", "--frames 0: read at least one frame"),
        ("-2", "--frames must be a number of frames in digits 0-9, not '-2'"),
        ("\u0663", "--frames must be a number of frames in digits 0-9"),
    ],
)
def test_the_doctor_refuses_a_number_of_frames_that_makes_no_sense(
    tmp_path: Path, state: Path, capsys: pytest.CaptureFixture[str], frames: str, said: str
) -> None:
    argv = ["doctor", "--source", "none", "--no-buttons", "--no-light", "--frames", frames]
    err = refused([*argv, "--options-file", str(tmp_path / "none")], capsys)
    assert err.startswith(f"companion doctor: {said}"), err


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--players", "0", "a kit has 12 colours, so 1 to 12 players, not 0"),
        ("--keep-pictures", "-1", "pictures are kept 0 to 36500 days, not -1"),
    ],
)
def test_play_refuses_a_count_that_makes_no_sense(
    tmp_path: Path,
    state: Path,
    capsys: pytest.CaptureFixture[str],
    option: str,
    value: str,
    said: str,
) -> None:
    argv = ["play", "--source", "none", "--display", "headless", "--no-buttons", "--no-light"]
    err = refused([*argv, "--no-web", option, value], capsys)
    assert err.startswith(f"companion play: {said}"), err
    assert not state.exists()


def test_history_refuses_a_negative_age(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal.sqlite"
    err = refused(["history", "--journal", str(journal), "archive", "--older-than", "-1"], capsys)
    assert err == "companion history: --older-than takes a number of days, 0 or more\n"
    assert not journal.exists()
