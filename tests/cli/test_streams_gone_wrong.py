"""Every command, run as a real process, when its streams or its input go wrong.

Standard input closed, standard output closed, a full disk, a reader that stops
reading, an endless file, a number longer than Python converts: each ends in one line
on stderr and a documented exit status, never a traceback, never a result lost
without a word.
"""

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import pytest

from companion.cli import READER_GONE
from companion.journal import Journal
from companion.vision.calibration import save_calibration
from tests.journal.helpers import example, play_into
from tests.vision.scenes import calibration, empty_frame

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "classic-1e-4-players.json"
RUN_SECONDS = 30
"""Time limit of one run: a run that reads without end fails instead of hanging."""


def companion(
    *args: str,
    stdout: int | None = subprocess.PIPE,
    before: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `python -m companion ARGS` in the project folder."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=RUN_SECONDS,
        preexec_fn=before,
        check=False,
    )


def assert_one_line(run: subprocess.CompletedProcess[str], starts: str) -> None:
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith(starts), run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.endswith("\n"), run.stderr
    assert "Traceback" not in run.stderr


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A calibration and a frame of its empty board, for `companion read`."""
    folder = tmp_path_factory.mktemp("streams")
    save_calibration(calibration(), folder / "cal.json")
    cv2.imwrite(str(folder / "frame.png"), empty_frame().image)
    return folder / "cal.json", folder / "frame.png"


def test_a_slot_number_too_long_to_convert_is_refused_in_one_line(tmp_path: Path) -> None:
    doc = json.loads(GAME.read_text())
    doc["rounds"][0]["cards"] = {"1" * 5000: doc["players"][0]}
    game = tmp_path / "long-slot.json"
    game.write_text(json.dumps(doc))
    run = companion("score", str(game))
    assert_one_line(run, f"companion score: {game}: round 1 cards: a slot number of 5000 digits")
    assert run.stdout == ""


def test_standard_input_closed_is_refused_in_one_line() -> None:
    run = companion("score", "-", before=lambda: os.close(0))
    assert_one_line(run, "companion score: standard input: ")
    assert "closed" in run.stderr


def test_an_endless_file_is_refused_at_the_size_limit() -> None:
    run = companion("score", "/dev/zero")
    assert_one_line(run, "companion score: /dev/zero: ")
    assert "16 MB" in run.stderr


def reader_gone(*args: str) -> subprocess.CompletedProcess[str]:
    """Run with stdout a pipe whose reading end is already closed."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return companion(*args, stdout=write_end)
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args",
    [["score", str(GAME), str(GAME)], ["layout", "show", "classic-8"], ["layout", "list"]],
    ids=["score", "layout show", "layout list"],
)
def test_a_reader_that_stops_reading_is_one_line_and_exit_2(args: list[str]) -> None:
    run = reader_gone(*args)
    assert_one_line(run, f"companion {args[0]}: cannot write the output: {READER_GONE}")


def test_read_says_in_one_line_that_its_reader_stopped_reading(table: tuple[Path, Path]) -> None:
    cal, frame = table
    run = reader_gone("read", "--calibration", str(cal), str(frame))
    assert_one_line(run, f"companion read: cannot write the output: {READER_GONE}")


@pytest.mark.parametrize(
    "args",
    [["score", str(GAME)], ["layout", "show", "classic-8"], ["layout", "list"]],
    ids=["score", "layout show", "layout list"],
)
def test_a_full_disk_is_one_line_and_exit_2(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        run = companion(*args, stdout=full.fileno())
    assert_one_line(run, f"companion {args[0]}: cannot write the output: No space left on device")


@pytest.mark.parametrize(
    "args",
    [["score", str(GAME)], ["layout", "list"]],
    ids=["score", "layout list"],
)
def test_standard_output_closed_is_one_line_and_exit_2(args: list[str]) -> None:
    run = companion(*args, stdout=None, before=lambda: os.close(1))
    assert_one_line(run, f"companion {args[0]}: cannot write the output: ")
    assert "closed" in run.stderr


def test_standard_output_closed_does_not_stop_a_command_that_only_writes_files(
    tmp_path: Path,
) -> None:
    journal, exported = tmp_path / "journal.sqlite", tmp_path / "game.json"
    with Journal(journal) as kept:
        play_into(kept, example("classic-1e-4-players"))
    run = companion(
        "history",
        "--journal",
        str(journal),
        "1",
        "--export",
        str(exported),
        stdout=None,
        before=lambda: os.close(1),
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert json.loads(exported.read_text(encoding="utf-8"))["rounds"]


def test_standard_output_closed_stops_a_command_only_once_it_prints(tmp_path: Path) -> None:
    """`tags` writes its kit, then says so on stdout: the kit is kept, the line is lost."""
    run = companion(
        "tags",
        "--kit",
        "CAFE1",
        "--players",
        "3",
        "--out",
        str(tmp_path / "kit"),
        stdout=None,
        before=lambda: os.close(1),
    )
    assert_one_line(run, "companion tags: cannot write the output: standard output is closed")
    assert (tmp_path / "kit" / "manifest.json").exists()
