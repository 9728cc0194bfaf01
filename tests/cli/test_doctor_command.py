"""`companion doctor` as a café owner runs it: every check printed, the exit status, the fixes."""

import random
import sys
from pathlib import Path

import pytest
from gpiozero import Device

from companion.cli import main
from companion.cli.table_options import STAFF_PIN
from companion.doctor.findings import CHECKS, OPTIONS, TITLE
from tests.doctor.tables import board_image, calibration_file, folder_of


@pytest.fixture
def table(tmp_path: Path) -> list[str]:
    """The options for a calibrated table replayed from a folder, without GPIO parts."""
    source = folder_of(tmp_path / "frames", board_image())
    calibration = calibration_file(tmp_path / "state")
    journal = tmp_path / "state" / "journal.sqlite"
    options = tmp_path / "dixit-companion"
    options.write_text(
        'COMPANION_PLAY_OPTIONS="--language fr"\nCOMPANION_STAFF_PIN=482913\n', encoding="utf-8"
    )
    return [
        "doctor",
        "--options-file",
        str(options),
        "--source",
        source,
        "--calibration",
        str(calibration),
        "--journal",
        str(journal),
        "--no-buttons",
        "--no-light",
    ]


def test_a_sound_table_prints_every_check_and_exits_0(
    table: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(table) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == TITLE
    after_options = CHECKS.index(OPTIONS) + 1
    checks = [*CHECKS[:after_options], STAFF_PIN, *CHECKS[after_options:]]
    assert [line[6:].split("  ")[0] for line in out[1:-1]] == checks
    assert out[-1] == "no problems, no warnings (two checks skipped)"


def test_a_missing_calibration_exits_1_with_the_calibrate_command(
    table: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "state" / "calibration.json").unlink()
    assert main(table) == 1
    out = capsys.readouterr().out.splitlines()
    failed = next(i for i, line in enumerate(out) if line.startswith("FAIL  calibration"))
    assert out[failed + 1].startswith("      fix: put the empty board under the camera and run ")
    assert "`companion calibrate --source folder:" in out[failed + 1]
    assert out[-1].startswith("one problem, ")


def test_a_damaged_journal_exits_1_and_is_left_as_it_was(
    table: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "state" / "journal.sqlite"
    damage = random.Random(3).randbytes(4096)
    journal.write_bytes(damage)
    assert main(table) == 1
    out = capsys.readouterr().out
    assert "FAIL  journal" in out
    assert "moves it aside and saves every readable round at its next start" in out
    assert journal.read_bytes() == damage


def test_the_strip_is_swept_when_one_is_named(
    table: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*table, "--strip", "mock:4"]) == 0
    out = capsys.readouterr().out
    assert "      look at the LED strip: each LED lights in turn" in out
    assert "OK    LED strip       mock:4: 4 LEDs lit one after another, then dark" in out


def test_buttons_on_the_pin_factory_the_environment_names(
    table: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    options = [option for option in table if option != "--no-buttons"]
    assert main(options) == 0
    out = capsys.readouterr().out
    assert "OK    buttons         Confirm on GPIO17 (pin 11), Undo on GPIO27 (pin 13)" in out


def test_the_camera_module_without_its_library_fails_with_how_to_install_it(
    table: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    options = [*table]
    options[options.index("--source") + 1] = "picamera"
    assert main(options) == 1
    out = capsys.readouterr().out
    assert "FAIL  camera" in out
    assert "fix: install python3-picamera2 with apt" in out
    assert "SKIP  tags            not checked: no picture from the camera" in out


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--buttons", "17,27", "--buttons 17,27: give 3 BCM pin numbers, comma-separated"),
        ("--light", "5,5,13", "GPIO5"),
        ("--source", "webcam:0", "--source webcam:0: use one of picamera"),
        ("--frames", "0", "--frames 0: read at least one frame"),
        ("--buttons", "17,27,13", "the next button and the light's blue leg are both on GPIO13"),
    ],
)
def test_options_that_make_no_sense_exit_2_with_one_line(
    table: list[str], capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    options = [o for o in table if o not in ("--no-buttons", "--no-light")]
    if option in options:
        options[options.index(option) + 1] = value
    else:
        options += [option, value]
    assert main(options) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("companion doctor: ")
    assert said in captured.err
    assert captured.err.count("\n") == 1
