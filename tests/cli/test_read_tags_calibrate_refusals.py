"""Hostile input to `companion read`, `calibrate` and `tags`: one line, exit 2, nothing half-done.

A truncated image, a board that is not the calibration's, a second copy of a token,
a numeric option in other digits than ASCII's, an absurd layout, and a kit whose
writing fails half-way.
"""

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.kit.layouts import SHIPPED_LAYOUTS
from companion.kit.tags import KitTag, Role
from companion.sim import Placement, Scene, render
from tests.vision.scenes import KIT, LAYOUT_NAME, MILD, POSE, empty_frame, round_frame


def run(argv: list[str], capfd: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr, captured at the file descriptors (so that a C
    library's warnings written straight to fd 2 are caught too)."""
    status = main(argv)
    out, err = capfd.readouterr()
    return status, out, err


@pytest.fixture
def calibration_file(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "cal.json"
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), empty_frame().image)
    assert main(["calibrate", str(empty), "--layout", LAYOUT_NAME, "--out", str(out)]) == 0
    capfd.readouterr()
    return out


@pytest.mark.parametrize(("suffix", "keep"), [(".jpg", 0.6), (".png", 0.6), (".jpg", 0.98)])
def test_read_refuses_a_truncated_image_in_one_line(
    tmp_path: Path,
    calibration_file: Path,
    capfd: pytest.CaptureFixture[str],
    suffix: str,
    keep: float,
) -> None:
    whole = tmp_path / f"whole{suffix}"
    cv2.imwrite(str(whole), round_frame(21).image)
    data = whole.read_bytes()
    cut = tmp_path / f"cut{suffix}"
    cut.write_bytes(data[: int(len(data) * keep)])
    status, out, err = run(["read", "--calibration", str(calibration_file), str(cut)], capfd)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion read: {cut}: ")
    assert "cut short" in err
    assert err.count("\n") == 1
    assert err.count(str(cut)) == 1


def test_read_names_the_unreadable_image_once(
    tmp_path: Path, calibration_file: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "frame.png"
    path.write_bytes(b"not an image")
    status, out, err = run(["read", "--calibration", str(calibration_file), str(path)], capfd)
    assert (status, out) == (2, "")
    assert err == f"companion read: {path}: not an image that can be read (PNG, JPEG, ...)\n"


def other_board(tmp_path: Path) -> Path:
    """The small board with its slots numbered the other way round: the same tags, at
    other places, as a café's second table might have."""
    doc = json.loads(Path(LAYOUT_NAME).read_text())
    for spec in doc["slots"]:
        spec["slot"] = 5 - spec["slot"]
    doc["name"] = "small-4-reversed"
    path = tmp_path / "reversed.json"
    path.write_text(json.dumps(doc))
    return path


def test_read_refuses_a_board_that_is_not_the_calibrations(
    tmp_path: Path, calibration_file: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from companion.kit.layouts import load_layout

    board = load_layout(str(other_board(tmp_path)))
    vote = Placement(KitTag(KIT, Role.VOTE, colour="red", index=1), (101.0, 85.0), 0.0)
    scene = Scene(board, KIT, cards={1: True, 2: True, 3: True, 4: True}, tokens=(vote,))
    image = tmp_path / "other.png"
    cv2.imwrite(str(image), render(scene, POSE, MILD, np.random.default_rng(5)).image)
    status, out, err = run(["read", "--calibration", str(calibration_file), str(image)], capfd)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion read: {image}: ")
    assert "not the board of layout" in err and "small-4" in err
    assert err.count("\n") == 1


def test_read_reports_a_vote_dial_lying_twice_and_counts_neither(
    tmp_path: Path, calibration_file: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    frame = round_frame(22)
    scene = frame.truth.scene
    vote = next(p for p in scene.tokens if p.tag.role is Role.VOTE)
    slot = scene.layout.slot_at(vote.center_mm)
    other = next(s for s in scene.layout.slots if s.slot != slot)
    x0, y0, x1, y1 = other.card_mm
    copy = Placement(vote.tag, ((x0 + x1) / 2, (y0 + y1) / 2), 10.0)
    image = tmp_path / "copy.png"
    doubled = Scene(scene.layout, KIT, scene.cards, (*scene.tokens, copy))
    cv2.imwrite(str(image), render(doubled, POSE, MILD, np.random.default_rng(22)).image)
    status, out, err = run(["read", "--calibration", str(calibration_file), str(image)], capfd)
    assert (status, err) == (0, "")
    doc = json.loads(out)
    slots = sorted([slot, other.slot])
    assert doc["problems"] == [
        f"{vote.tag.colour}'s vote dial {vote.tag.index} is on the table twice "
        f"(slots {slots[0]} and {slots[1]})"
    ]
    voters = [
        (v["player"], v["dial"]) for contents in doc["slots"].values() for v in contents["votes"]
    ]
    assert (vote.tag.colour, vote.tag.index) not in voters


@pytest.mark.parametrize("players", ["1_0", "\u0661\u0660", " 3", "+3", "3.0"])
def test_tags_refuses_players_in_anything_but_ascii_digits(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], players: str
) -> None:
    argv = ["tags", "--kit", "CAFE1", "--players", players, "--out", str(tmp_path / "k")]
    status, out, err = run(argv, capfd)
    assert (status, out) == (2, "")
    assert err.startswith("companion tags: --players ")
    assert err.count("\n") == 1
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("size", ["2_4", "\u0662\u0664", "24e0", " 24", "inf"])
def test_tags_refuses_a_token_size_in_anything_but_ascii_decimals(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], size: str
) -> None:
    argv = ["tags", "--kit", "CAFE1", "--players", "3", "--out", str(tmp_path / "k")]
    status, out, err = run([*argv, "--token-mm", size], capfd)
    assert (status, out) == (2, "")
    assert err.startswith("companion tags: --token-mm ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("frames", ["1_0", "\u0661\u0660", "-1", "+1"])
def test_calibrate_refuses_frames_in_anything_but_ascii_digits(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], frames: str
) -> None:
    argv = ["calibrate", "--source", "none", "--layout", LAYOUT_NAME, "--frames", frames]
    status, out, err = run([*argv, "--out", str(tmp_path / "c.json")], capfd)
    assert (status, out) == (2, "")
    assert err.startswith("companion calibrate: --frames ")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [("board_mm", [1e308, 508]), ("token_size_mm", 0.0001), ("token_size_mm", 1e9)],
)
def test_tags_refuses_a_layout_of_no_physical_size(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], field: str, value: object
) -> None:
    doc = json.loads((SHIPPED_LAYOUTS / "classic-8.json").read_text(encoding="utf-8"))
    doc[field] = value
    path = tmp_path / "cafe.json"
    path.write_text(json.dumps(doc))
    argv = ["tags", "--kit", "CAFE1", "--players", "3", "--out", str(tmp_path / "k")]
    status, out, err = run([*argv, "--layout", str(path), "--mat"], capfd)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion tags: layout {path}: ")
    assert err.count("\n") == 1
    assert not (tmp_path / "k").exists()


def test_a_kit_whose_writing_fails_half_way_leaves_the_old_kit_whole(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "kit"
    base = ["tags", "--players", "3", "--out", str(out)]
    assert main([*base, "--kit", "OLD1"]) == 0
    (out / "notes.txt").write_text("the café's own file")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capfd.readouterr()
    fsync = os.fsync
    synced = 0

    def failing(fd: int) -> None:
        nonlocal synced
        synced += 1
        if synced == 34:  # kit.pdf, after the 33 tags of 4 players
            raise OSError(28, "No space left on device")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    status, stdout, err = run([*base, "--kit", "NEW2", "--players", "4"], capfd)
    assert (status, stdout) == (2, "")
    assert err == f"companion tags: cannot write {out / 'kit.pdf'}: No space left on device\n"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


def test_a_new_kit_replaces_the_old_one_whole_and_keeps_other_files(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit"
    assert main(["tags", "--kit", "OLD1", "--players", "5", "--out", str(out)]) == 0
    (out / "notes.txt").write_text("the café's own file")
    assert main(["tags", "--kit", "NEW2", "--players", "3", "--out", str(out)]) == 0
    entries = json.loads((out / "manifest.json").read_text())
    names = {p.name for p in out.iterdir()}
    assert names == {e["file"] for e in entries} | {"kit.pdf", "manifest.json", "notes.txt"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_read_refuses_an_image_damaged_inside_in_one_line(
    tmp_path: Path,
    calibration_file: Path,
    capfd: pytest.CaptureFixture[str],
    suffix: str,
) -> None:
    whole = tmp_path / f"whole{suffix}"
    cv2.imwrite(str(whole), round_frame(23).image)
    data = bytearray(whole.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = b"\xff" * 64 if suffix == ".jpg" else bytes(64)
    damaged = tmp_path / f"damaged{suffix}"
    damaged.write_bytes(bytes(data))
    status, out, err = run(["read", "--calibration", str(calibration_file), str(damaged)], capfd)
    assert (status, out) == (2, "")
    assert err.startswith(f"companion read: {damaged}: ")
    assert err.count("\n") == 1
