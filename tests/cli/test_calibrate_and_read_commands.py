"""`companion calibrate` and `companion read` on simulated frames saved as images."""

import dataclasses
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import calibrate as calibrate_command
from companion.cli import main
from companion.kit.layouts import load_layout
from companion.kit.tags import KitTag, Role
from companion.sim import ForeignCode, Placement, Scene, render
from tests.vision.bent import WEBCAM, BentDecoder
from tests.vision.scenes import (
    KIT,
    LAYOUT_NAME,
    MILD,
    POSE,
    empty_frame,
    layout,
    round_frame,
    true_slots,
)


def saved(path: Path, image: np.ndarray) -> str:
    cv2.imwrite(str(path), image)
    return str(path)


@pytest.fixture
def calibration_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "cal.json"
    assert (
        main(
            [
                "calibrate",
                saved(tmp_path / "empty.png", empty_frame().image),
                "--layout",
                LAYOUT_NAME,
                "--out",
                str(out),
            ]
        )
        == 0
    )
    capsys.readouterr()
    return out


def test_calibrate_saves_kit_layout_frame_size_fit_and_tag_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cal.json"
    image = saved(tmp_path / "empty.png", empty_frame().image)
    assert main(["calibrate", image, "--layout", LAYOUT_NAME, "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["kit"] == KIT
    assert doc["layout"] == LAYOUT_NAME
    assert doc["frame_size"] == [2304, 1296]
    assert len(doc["px_to_mm"]) == 3
    assert doc["rms_error_mm"] < 1.0
    assert len(doc["px_per_module"]) == 8
    assert all(3.5 < ppm < 5 for ppm in doc["px_per_module"].values())
    printed = capsys.readouterr().out
    assert printed.startswith(
        f"calibrated kit {KIT} on layout small-4: 8 of 8 corner and slot tags"
    )
    assert "lens" not in printed  # the simulated camera is a pinhole: nothing to correct
    assert doc["lens"]["k"] == [0, 0, 0]


def test_calibrate_says_how_far_the_lens_bent_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    classic = load_layout("classic-8")
    bent = BentDecoder(classic, KIT, WEBCAM)
    monkeypatch.setattr(calibrate_command, "make_decoder", lambda name: bent)
    image = saved(tmp_path / "webcam.png", np.zeros(WEBCAM.frame_px[::-1], np.uint8))
    out = tmp_path / "cal.json"
    status, printed, err = run(
        ["calibrate", image, "--layout", "classic-8", "--out", str(out)], capsys
    )
    assert status == 0
    assert all(line.startswith("companion calibrate: warning: ") for line in err.splitlines())
    assert re.fullmatch(
        rf"calibrated kit {KIT} on layout classic-8: 12 of 12 corner and slot tags fit within "
        r"0\.1 mm after correcting the lens \(uncorrected the fit was off by [3-9]\.\d mm\); "
        rf"tags at \d\.\d to \d\.\d px per module; saved to {re.escape(str(out))}\n",
        printed,
    )
    assert json.loads(out.read_text())["straight_rms_error_mm"] > 3


def test_calibrate_warns_about_tags_below_4_px_per_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    far = dataclasses.replace(POSE, height_mm=560.0)
    frame = render(Scene(layout(), KIT), far, MILD, np.random.default_rng(1))
    out = tmp_path / "cal.json"
    assert (
        main(
            [
                "calibrate",
                saved(tmp_path / "far.png", frame.image),
                "--layout",
                LAYOUT_NAME,
                "--out",
                str(out),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "companion calibrate: warning: DXC.CAFE1." in err
    assert "px per module, below 4: move the camera closer" in err


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_calibrate_refuses_fewer_than_four_board_tags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = frozenset(a.tag for a in Scene(layout(), KIT).anchors[:5])
    image = saved(tmp_path / "f.png", empty_frame(missing=gone).image)
    status, out, err = run(
        ["calibrate", image, "--layout", LAYOUT_NAME, "--out", str(tmp_path / "c.json")], capsys
    )
    assert (status, out) == (2, "")
    assert (
        err
        == f"companion calibrate: only 3 corner or slot tags of kit {KIT} found on layout small-4; at least 4 are needed\n"
    )


def test_calibrate_refuses_tags_of_two_kits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = KitTag("BAR2", Role.SLOT, slot=1)
    image = saved(
        tmp_path / "f.png",
        empty_frame(foreign=(ForeignCode(other.text, (280.0, 90.0), 26.0),)).image,
    )
    status, _, err = run(
        ["calibrate", image, "--layout", LAYOUT_NAME, "--out", str(tmp_path / "c.json")], capsys
    )
    assert status == 2
    assert (
        err
        == "companion calibrate: tags of more than one kit are in view: BAR2 (one tag), CAFE1 (eight tags)\n"
    )


def test_calibrate_refuses_a_board_that_does_not_fit_the_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = saved(tmp_path / "f.png", empty_frame().image)
    status, _, err = run(
        ["calibrate", image, "--layout", "odyssey-12", "--out", str(tmp_path / "c.json")], capsys
    )
    assert status == 2
    assert (
        "agree with layout odyssey-12 even allowing for the lens's distortion: "
        "is it the right layout, or were tags moved?"
        in err
        or "the board fit is off by" in err
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such image file"),
        (b"not an image", "not an image that can be read (PNG, JPEG, ...)"),
    ],
)
def test_calibrate_and_read_refuse_missing_or_unreadable_images(
    tmp_path: Path,
    calibration_file: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes | None,
    message: str,
) -> None:
    path = tmp_path / "frame.png"
    if content is not None:
        path.write_bytes(content)
    status, out, err = run(
        ["calibrate", str(path), "--layout", LAYOUT_NAME, "--out", str(tmp_path / "c.json")], capsys
    )
    assert (status, out, err) == (2, "", f"companion calibrate: {path}: {message}\n")
    status, out, err = run(["read", "--calibration", str(calibration_file), str(path)], capsys)
    assert (status, out, err) == (2, "", f"companion read: {path}: {message}\n")


def test_read_prints_slots_unplaced_and_foreign(
    tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame = round_frame(11)
    stray = Placement(KitTag(KIT, Role.TRAP), (280.0, 225.0), 0.0)
    menu = ForeignCode("https://cafe.example/menu", (150.0, 225.0), 30.0)
    scene = dataclasses.replace(
        frame.truth.scene, tokens=(*frame.truth.scene.tokens, stray), foreign=(menu,)
    )
    image = render(scene, POSE, MILD, np.random.default_rng(11)).image
    status, out, err = run(
        ["read", "--calibration", str(calibration_file), saved(tmp_path / "round.png", image)],
        capsys,
    )
    assert (status, err) == (0, "")
    doc = json.loads(out)
    assert doc["image"] == str(tmp_path / "round.png")
    read = {}
    for slot, contents in doc["slots"].items():
        assert contents["trap"] is False
        for owner in contents["owners"]:
            read[KitTag(KIT, Role.OWNER, colour=owner, index=1).text] = int(slot)
        for vote in contents["votes"]:
            read[KitTag(KIT, Role.VOTE, colour=vote["player"], index=vote["dial"]).text] = int(slot)
    assert read == true_slots(frame)
    assert [u["text"] for u in doc["unplaced"]] == [stray.tag.text]
    assert doc["unplaced"][0]["reason"].startswith("outside every card area, at 28")
    assert doc["foreign"] == ["https://cafe.example/menu"]
    assert doc["elapsed_ms"] > 0


def test_read_refuses_a_frame_of_another_kit(
    tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = render(Scene(layout(), "BAR2"), POSE, MILD, np.random.default_rng(3)).image
    status, out, err = run(
        ["read", "--calibration", str(calibration_file), saved(tmp_path / "bar.png", other)], capsys
    )
    assert (status, out) == (2, "")
    assert (
        err
        == f"companion read: {tmp_path / 'bar.png'}: the tags in view are of kit BAR2, but this table is calibrated for kit {KIT}\n"
    )


def test_read_goes_on_after_a_bad_image(
    tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = saved(tmp_path / "good.png", round_frame(12).image)
    status, out, err = run(
        ["read", "--calibration", str(calibration_file), str(tmp_path / "gone.png"), good], capsys
    )
    assert status == 2
    assert len(out.splitlines()) == 1
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such calibration file"),
        ("{not json", "not a calibration file"),
        ('{"format": 1, "kit": "CAFE1"}', "damaged calibration file"),
        (
            '{"format": 1, "kit": "CAFE1", "layout": "small", "frame_size": [10, 10], "px_to_mm": [[1, 0, 0], [0, 1, 0], [0, 0, "x"]], "rms_error_mm": 0, "anchors_used": 4, "anchors_seen": 4, "px_per_module": {}}',
            "damaged calibration file",
        ),
        ("[]", "damaged calibration file"),
    ],
)
def test_read_refuses_a_missing_or_corrupt_calibration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    cal = tmp_path / "cal.json"
    if content is not None:
        cal.write_text(content)
    image = saved(tmp_path / "round.png", round_frame(13).image)
    status, out, err = run(["read", "--calibration", str(cal), image], capsys)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion read: {cal}: {message}")
    assert err.count("\n") == 1
