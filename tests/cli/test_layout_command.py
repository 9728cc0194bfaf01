"""`companion layout list [--boards] | show NAME`: the layouts as JSON, or one line per
board for a person; exit 2 on an unknown one."""

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.layout import TIMES
from companion.kit.layouts import SHIPPED_LAYOUTS, layout_names, load_layout, parse_layout
from companion.kit.mounting import kit_check


def test_list_prints_the_shipped_names_as_one_json_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["layout", "list"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert (
        json.loads(out)
        == layout_names()
        == sorted(p.name.removesuffix(".json") for p in SHIPPED_LAYOUTS.iterdir())
    )
    assert {"classic-8", "odyssey-12", "mat-a1-12"} <= set(json.loads(out))


@pytest.mark.parametrize("name", layout_names())
def test_show_prints_the_layout_document(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["layout", "show", name]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == load_layout(name).to_json()
    assert parse_layout(doc, "shown") == load_layout(name)


def test_show_takes_a_layout_file_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = load_layout("classic-8").to_json() | {"name": "our-table"}
    path = tmp_path / "ours.json"
    path.write_text(json.dumps(doc))
    assert main(["layout", "show", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == doc


def test_an_unknown_name_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["layout", "show", "chess"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "companion layout: unknown layout 'chess'; "
        "shipped layouts are classic-8, mat-a1-12, odyssey-12\n"
    )


def test_a_malformed_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"name": "broken"}')
    assert main(["layout", "show", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"companion layout: layout {path}: 'board_mm' is missing\n"


def test_list_boards_prints_each_layout_with_its_board_size_and_camera_height(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["layout", "list", "--boards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == layout_names()
    for line in lines:
        layout = load_layout(line.split()[0])
        height = kit_check(layout).plan.recommended_height_mm
        assert layout.board is not None and height is not None
        width, depth = layout.board_mm
        assert f"  {layout.board}; {width:g} {TIMES} {depth:g} mm, " in line
        assert f"{len(layout.slots)} slots, {layout.token_size_mm:g} mm tokens" in line
        assert line.endswith(f", Camera Module 3 at {height / 10:g} cm")
    odyssey = next(line for line in lines if line.startswith("odyssey-12 "))
    assert "the board of Dixit Odyssey" in odyssey and f"812 {TIMES} 508 mm" in odyssey
    assert odyssey.endswith("Camera Module 3 at 75 cm")
