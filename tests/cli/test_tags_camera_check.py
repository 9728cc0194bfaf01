"""`companion tags` refuses a kit its camera cannot read, saying the size that works;
`--force` prints it anyway; the default kit passes; and the hardware guide's table
asks for the same sizes as the command."""

import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.layout import TIMES
from companion.cli.tags import DEFAULT_LAYOUT
from companion.kit.layouts import layout_names, load_layout
from companion.kit.mounting import LENSES, RECOMMENDED_LENS, kit_check

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "hardware.md"
"""The hardware guide, with the camera table."""
OWNER = ROOT / "docs" / "owner.md"
"""The café owner's guide, with the kit's command and the board table."""
MAT_REFUSED = (
    "companion tags: 24 mm tokens are too small for mat-a1-12 with the Camera Module 3: "
    "from 88 cm, the lowest height that shows the whole board, they span fewer than 4 "
    "pixels per QR module; print them at 26 mm or more (--token-mm 26), or add --force to "
    "print it anyway\n"
)


def tags(out: Path, *extra: str, players: str = "3") -> int:
    return main(["tags", "--kit", "CAFE1", "--players", players, "--out", str(out), *extra])


def test_a_kit_too_small_for_the_camera_is_refused_with_the_size_that_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit"
    assert tags(out, "--layout", "mat-a1-12", "--token-mm", "24") == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", MAT_REFUSED)
    assert not out.exists()
    assert f"\n{MAT_REFUSED}```" in OWNER.read_text(encoding="utf-8"), "the owner's guide's example"


def test_a_refused_kit_leaves_the_previous_kit_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tags(tmp_path) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert tags(tmp_path, "--layout", "mat-a1-12", "--token-mm", "24", players="5") == 2
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert capsys.readouterr().err == MAT_REFUSED


def test_the_size_it_asks_for_is_printed(tmp_path: Path) -> None:
    assert tags(tmp_path, "--layout", "mat-a1-12", "--token-mm", "26") == 0
    sizes = {e["role"]: e["size_mm"] for e in json.loads((tmp_path / "manifest.json").read_text())}
    assert sizes["vote"] == sizes["owner"] == sizes["trap"] == 26


def test_force_prints_the_kit_and_says_what_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tags(tmp_path, "--layout", "mat-a1-12", "--token-mm", "24", "--force") == 0
    captured = capsys.readouterr()
    assert captured.out == f"wrote 29 tag PNGs, kit.pdf, manifest.json to {tmp_path}\n"
    assert captured.err == (
        "companion tags: printed anyway (--force): 24 mm tokens are too small for mat-a1-12 "
        "with the Camera Module 3: from 88 cm, the lowest height that shows the whole "
        "board, they span fewer than 4 pixels per QR module\n"
    )
    sizes = {e["size_mm"] for e in json.loads((tmp_path / "manifest.json").read_text())}
    assert 24 in sizes


def test_the_help_says_what_force_skips(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tags", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--force print the kit even if the camera cannot read it: skips the check" in text


def test_corner_or_slot_tags_too_small_are_refused_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = load_layout("odyssey-12").to_json() | {"name": "our-table"}
    for slot in doc["slots"]:
        slot["tag_size_mm"] = 15
    layout = tmp_path / "our-table.json"
    layout.write_text(json.dumps(doc))
    out = tmp_path / "kit"
    assert tags(out, "--layout", str(layout), "--token-mm", "40") == 2
    err = capsys.readouterr().err
    assert err.startswith("companion tags: the slot tags of our-table (15 mm) are too small ")
    assert "make every corner and slot tag 22 mm or more, in a layout file of your own" in err
    assert err.count("\n") == 1
    assert not out.exists()


def test_the_kit_is_checked_against_the_camera_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kit"
    assert tags(out, "--camera", "usb-4k") == 2
    assert "24 mm tokens are too small for odyssey-12 with the 4K USB webcam" in (
        capsys.readouterr().err
    )
    assert not out.exists()
    assert tags(out, "--camera", "usb-4k", "--token-mm", "26") == 0


def test_the_guides_command_prints_a_kit_the_recommended_camera_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion tags --kit CAFE1 --players 12 --out kit/`, as the owner's guide has it."""
    assert "companion tags --kit CAFE1 --players 12 --out kit/\n" in OWNER.read_text("utf-8")
    assert tags(tmp_path, players="12") == 0
    assert capsys.readouterr().err == ""
    check = kit_check(load_layout(DEFAULT_LAYOUT))
    assert check.readable and check.plan.lens == LENSES[RECOMMENDED_LENS]


def table_rows() -> dict[tuple[str, str], list[str]]:
    """The hardware guide's camera table by (layout, camera name): its cells."""
    rows = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            rows[(cells[0].strip("`"), cells[3].split(",")[0])] = cells
    return rows


@pytest.mark.parametrize("layout_name", layout_names())
@pytest.mark.parametrize("camera", list(LENSES))
def test_the_guides_table_and_tags_ask_for_the_same_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], layout_name: str, camera: str
) -> None:
    cells = table_rows()[(layout_name, LENSES[camera].name)]
    out = tmp_path / "kit"
    status = tags(out, "--layout", layout_name, "--camera", camera)
    err = capsys.readouterr().err
    if cells[6] != "**no height works**":
        assert status == 0 and err == ""
        return
    assert status == 2 and not out.exists()
    asked = re.search(r"`--token-mm (\d+)`", cells[7])
    if asked is None:
        assert "make every corner and slot tag" in err or "no tag up to" in err
        return
    assert f"(--token-mm {asked[1]})" in err
    assert tags(out, "--layout", layout_name, "--camera", camera, "--token-mm", asked[1]) == 0
    smaller = str(int(asked[1]) - 1)
    less = out / "less"
    assert tags(less, "--layout", layout_name, "--camera", camera, "--token-mm", smaller) == 2
    assert not less.exists()


def guide_boards(guide: Path) -> dict[str, list[str]]:
    """A guide's "your board" table by layout name: its cells."""
    text = guide.read_text(encoding="utf-8")
    section = text[text.index("| your board |") :]
    rows = {}
    for line in section.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[re.findall(r"`([^`]+)`", cells[1])[0]] = cells
    return rows


@pytest.mark.parametrize("guide", [OWNER, TABLE], ids=["owner's guide", "hardware guide"])
def test_the_guides_board_tables_are_what_the_layouts_and_the_rule_say(guide: Path) -> None:
    rows = guide_boards(guide)
    assert sorted(rows) == layout_names()
    assert [name for name, cells in rows.items() if "default" in cells[1]] == [DEFAULT_LAYOUT]
    for name, cells in rows.items():
        layout = load_layout(name)
        plan = kit_check(layout).plan
        width, height = layout.board_mm
        assert cells[2] == f"{width:g} {TIMES} {height:g} mm", name
        assert cells[3] == f"{layout.token_size_mm:g} mm", name
        assert plan.recommended_height_mm is not None
        if len(cells) > 4:
            assert cells[4] == f"{plan.recommended_height_mm / 10:g} cm", name
