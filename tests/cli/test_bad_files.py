"""`companion read`, `calibrate` and `score` on files gone wrong: one line, exit 2.

Images are damaged the ways files get damaged (cut short, overwritten, noise, a header
claiming billions of pixels, a shape no camera gives); each command either reads what
is there or says in one line on stderr, naming the file, why it cannot, and never
shows a traceback. A few cases run as a real process, where stderr is the real one.
"""

import io
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.vision.calibration import save_calibration
from tests.mutations import damaged_images, encoded, png_claiming
from tests.vision.scenes import LAYOUT_NAME, calibration, empty_frame

SMALL = np.asarray(cv2.resize(empty_frame().image, (576, 324)), np.uint8)
"""The empty board, small enough to damage and read again quickly."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bad-files")
    save_calibration(calibration(), path / "cal.json")
    return path


def read_and_calibrate(
    folder: Path, image: Path, capsys: pytest.CaptureFixture[str]
) -> list[tuple[int, str, str]]:
    """Status, stdout and stderr of `companion read` and `companion calibrate` on it."""
    runs = []
    for args in (
        ["read", "--calibration", str(folder / "cal.json"), str(image)],
        ["calibrate", str(image), "--layout", LAYOUT_NAME, "--out", str(folder / "new.json")],
    ):
        status = main(args)
        out, err = capsys.readouterr()
        runs.append((status, out, err))
    return runs


def assert_one_line_or_read(command: str, status: int, out: str, err: str) -> None:
    if status == 0:
        assert out.count("\n") == 1
        return
    assert status == 2
    assert out == ""
    assert err.startswith(f"companion {command}: ")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err


@settings(
    max_examples=200,
    deadline=None,
    # capsys is read out after every run, so nothing leaks from one example to the next.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(damaged_images(SMALL))
def test_a_damaged_image_is_read_or_refused_in_one_line(
    folder: Path, capsys: pytest.CaptureFixture[str], data: bytes
) -> None:
    image = folder / "frame.png"
    image.write_bytes(data)
    (read, calibrate) = read_and_calibrate(folder, image, capsys)
    assert_one_line_or_read("read", *read)
    assert_one_line_or_read("calibrate", *calibrate)


@pytest.mark.parametrize(
    ("name", "content", "read_says", "calibrate_says"),
    [
        ("empty.png", b"", "not an image that can be read", "not an image that can be read"),
        ("noise.jpg", bytes(range(256)), "not an image that can be read", "not an image"),
        (
            "huge.png",
            png_claiming(100_000, 100_000),
            "OpenCV cannot read this image",
            "OpenCV cannot read this image",
        ),
        ("folder.png", None, "no such image file", "no such image file"),
    ],
)
def test_regression_bad_images_are_refused_in_one_line(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes | None,
    read_says: str,
    calibrate_says: str,
) -> None:
    image = folder / name
    if content is None:
        image.mkdir(exist_ok=True)
    else:
        image.write_bytes(content)
    (read, calibrate) = read_and_calibrate(folder, image, capsys)
    for (status, out, err), command, says in (
        (read, "read", read_says),
        (calibrate, "calibrate", calibrate_says),
    ):
        assert (status, out) == (2, "")
        assert err.startswith(f"companion {command}: ") and says in err
        assert_one_line_or_read(command, status, out, err)


def test_an_image_too_flat_to_shrink_is_read_as_an_empty_table(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = folder / "flat.png"
    image.write_bytes(encoded(np.full((1, 9216), 200, np.uint8), ".png"))
    (read, calibrate) = read_and_calibrate(folder, image, capsys)
    status, out, _ = read
    assert status == 0 and json.loads(out)["slots"] == {}
    status, out, err = calibrate
    assert (status, out) == (2, "") and "no tag of the companion's kit found" in err


@pytest.mark.parametrize(
    ("content", "status"),
    [
        (png_claiming(100_000, 100_000), 2),
        (encoded(np.zeros((3, 30_000), np.uint8), ".png"), 0),
    ],
    ids=["claims 10^10 pixels, refused", "3x30000, an empty table"],
)
def test_a_real_run_on_an_absurd_image_prints_one_line_and_no_traceback(
    folder: Path, content: bytes, status: int
) -> None:
    image = folder / "absurd.png"
    image.write_bytes(content)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "read",
            "--calibration",
            str(folder / "cal.json"),
            str(image),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == status
    if status == 0:
        assert json.loads(run.stdout)["slots"] == {} and run.stderr == ""
    else:
        assert run.stdout == ""
        assert run.stderr.startswith(f"companion read: {image}: ")
        assert run.stderr.count("\n") == 1


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.binary(max_size=64))
def test_any_bytes_on_standard_input_are_scored_or_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data: bytes
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status = main(["score", "-"])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith("companion score: standard input: ") and err.count("\n") == 1
