"""`companion tags`: PNGs, kit.pdf, manifest.json and mat.pdf in DIR; exit 2 on bad input."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import zxingcpp
from PIL import Image

from companion.cli import main
from companion.kit.layouts import load_layout
from companion.kit.tags import kit_tags, parse_tag
from tests.kit.pdf_pages import PT_PER_MM, page_sizes


def make(out: Path, *extra: str) -> int:
    return main(["tags", "--kit", "CAFE1", "--players", "3", "--out", str(out), *extra])


def test_writes_a_png_per_tag_the_sheet_and_the_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit"
    assert make(out) == 0
    assert capsys.readouterr().out == f"wrote 29 tag PNGs, kit.pdf, manifest.json to {out}\n"
    entries = json.loads((out / "manifest.json").read_text())
    tags = kit_tags("CAFE1", 3)
    assert [e["text"] for e in entries] == [t.text for t in tags]
    names = {p.name for p in out.iterdir()}
    assert names == {e["file"] for e in entries} | {"kit.pdf", "manifest.json"}
    assert len(page_sizes((out / "kit.pdf").read_bytes())) == 2


def test_every_png_file_decodes_to_its_manifest_entry(tmp_path: Path) -> None:
    assert make(tmp_path) == 0
    for entry in json.loads((tmp_path / "manifest.json").read_text()):
        pixels = np.array(Image.open(tmp_path / entry["file"]).convert("L"))
        (result,) = zxingcpp.read_barcodes(pixels)
        assert result.text == entry["text"]
        tag = parse_tag(result.text)
        assert (tag.role.value, tag.colour, tag.index, tag.slot, tag.corner) == (
            entry["role"],
            entry["player"],
            entry["index"],
            entry["slot"],
            entry["corner"],
        )


def test_sizes_follow_the_layout_and_the_token_option(tmp_path: Path) -> None:
    assert make(tmp_path, "--layout", "classic-8", "--token-mm", "30") == 0
    sizes = {e["role"]: e["size_mm"] for e in json.loads((tmp_path / "manifest.json").read_text())}
    assert sizes == {"corner": 30, "slot": 26, "vote": 30, "owner": 30, "trap": 30}


def test_the_default_layout_is_the_odyssey_board(tmp_path: Path) -> None:
    assert make(tmp_path) == 0
    sizes = {e["role"]: e["size_mm"] for e in json.loads((tmp_path / "manifest.json").read_text())}
    assert sizes == {"corner": 30, "slot": 26, "vote": 24, "owner": 24, "trap": 24}


@pytest.mark.parametrize("name", ["mat-a1-12", "classic-8"])
def test_the_mat_is_the_layouts_board_at_true_size(tmp_path: Path, name: str) -> None:
    assert make(tmp_path, "--mat", "--layout", name) == 0
    ((width, height),) = page_sizes((tmp_path / "mat.pdf").read_bytes())
    board = load_layout(name).board_mm
    assert (width, height) == pytest.approx((board[0] * PT_PER_MM, board[1] * PT_PER_MM), abs=0.01)


def test_no_mat_unless_asked(tmp_path: Path) -> None:
    assert make(tmp_path) == 0
    assert not (tmp_path / "mat.pdf").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kit", "cafe"], "kit id 'cafe' must be 2 to 6 capital letters or digits"),
        (["--kit", "TOOLONG1"], "kit id 'TOOLONG1' must be 2 to 6 capital letters or digits"),
        (["--players", "0"], "a kit has 1 to 12 player colours, not 0"),
        (["--players", "13"], "a kit has 1 to 12 player colours, not 13"),
        (
            ["--players", "three"],
            "--players must be a number of players in digits 0-9, not 'three'",
        ),
        (
            ["--layout", "chess"],
            "unknown layout 'chess'; shipped layouts are classic-8, mat-a1-12, odyssey-12",
        ),
        (["--token-mm", "5"], "tags must be 10 to 100 mm across; red vote 1 would be 5 mm"),
        (
            ["--token-mm", "big"],
            "--token-mm must be a size in millimetres in digits 0-9, not 'big'",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "kit"
    options = {"--kit": "CAFE1", "--players": "3", "--out": str(out)}
    options.update(zip(args[::2], args[1::2], strict=True))
    assert main(["tags", *(item for pair in options.items() for item in pair)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"companion tags: {message}\n"
    assert not out.exists()


def test_an_unwritable_folder_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = blocker / "kit"
    command = ["tags", "--kit", "CAFE1", "--players", "2", "--out", str(out)]
    run = subprocess.run(
        [sys.executable, "-m", "companion", *command],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == f"companion tags: cannot write {out}: Not a directory\n"
