"""Printing the kit: codes that decode to their tags, sizes from the layout, a manifest,
and PDFs at true size whose codes a decoder reads back."""

import io
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
import zxingcpp
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion.errors import TagSizeError
from companion.kit.layouts import TAG_MM, load_layout
from companion.kit.printing import MAX_TAG_MM, MIN_TAG_MM, PrintedTag, manifest, printed_kit
from companion.kit.qr import (
    PNG_PX_PER_MODULE,
    png_bytes,
    tag_modules,
    tag_symbol,
)
from companion.kit.sheet import (
    A4_MM,
    CLEAR_MM,
    FRAME_MM,
    HEADER_MM,
    MARGIN_MM,
    kit_sheet,
    mat_sheet,
    plan_sheet,
)
from companion.kit.tags import MODULES, QUIET_ZONE_MODULES, KitTag, Role, kit_tags, parse_tag
from tests.kit.pdf_pages import PT_PER_MM, page_sizes

KIT = kit_tags("CAFE01", 12)
MAT = load_layout("mat-a1-12")
CLASSIC = load_layout("classic-8")


def render(pdf: bytes, tmp_path: Path, dpi: int) -> list[npt.NDArray[np.uint8]]:
    """The PDF's pages as greyscale images, rendered by poppler's pdftoppm."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (Debian package poppler-utils) is not installed")
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", "-png", str(source), str(tmp_path / "page")],
        check=True,
    )
    return [np.array(Image.open(p).convert("L")) for p in sorted(tmp_path.glob("page-*.png"))]


def decode(image: npt.NDArray[np.uint8]) -> list[zxingcpp.Result]:
    return list(zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode))


@pytest.mark.parametrize("tag", KIT, ids=lambda t: t.text)
def test_every_png_decodes_to_its_tag(tag: KitTag) -> None:
    image = Image.open(io.BytesIO(png_bytes(tag)))
    assert image.size == (25 * PNG_PX_PER_MODULE, 25 * PNG_PX_PER_MODULE)
    (result,) = decode(np.array(image.convert("L")))
    assert result.text == tag.text
    assert parse_tag(result.text) == tag
    assert result.ec_level == "M"
    assert result.extra["Version"] == "1"


@pytest.mark.parametrize("tag", [*KIT, *kit_tags("Z9", 1)], ids=lambda t: t.text)
def test_every_code_is_version_1_alphanumeric_at_error_correction_m(tag: KitTag) -> None:
    symbol = tag_symbol(tag)
    assert (symbol.version, symbol.error, symbol.mode) == (1, "M", "alphanumeric")


def test_modules_carry_a_two_module_quiet_zone_around_the_code() -> None:
    tag = KIT[0]
    modules = tag_modules(tag)
    assert modules.shape == (25, 25) and modules.dtype == np.bool_
    q = QUIET_ZONE_MODULES
    assert not modules[:q].any() and not modules[-q:].any()
    assert not modules[:, :q].any() and not modules[:, -q:].any()
    inner = np.array(tag_symbol(tag).matrix, dtype=bool)
    assert inner.shape == (MODULES, MODULES)
    assert (modules[q:-q, q:-q] == inner).all()
    finder = modules[q : q + 7, q : q + 7]
    assert finder[0].all() and finder[6].all() and finder[2:5, 2:5].all()
    assert not finder[1, 1:6].any()


def test_modules_are_cached_and_read_only() -> None:
    tag = KIT[5]
    assert tag_modules(tag) is tag_modules(KitTag(tag.kit, tag.role, slot=tag.slot))
    with pytest.raises(ValueError, match="read-only"):
        tag_modules(tag)[0, 0] = True


def test_png_is_black_modules_on_white_with_the_quiet_zone() -> None:
    tag = KIT[20]
    pixels = np.array(Image.open(io.BytesIO(png_bytes(tag))).convert("L"))
    assert set(np.unique(pixels)) == {0, 255}
    zone = QUIET_ZONE_MODULES * PNG_PX_PER_MODULE
    assert (pixels[:zone] == 255).all() and (pixels[:, -zone:] == 255).all()
    small = pixels[::PNG_PX_PER_MODULE, ::PNG_PX_PER_MODULE]
    assert ((small == 0) == tag_modules(tag)).all()


@pytest.mark.parametrize(
    ("tag", "file_name", "label"),
    [
        (KitTag("AB", Role.VOTE, colour="red", index=1), "vote-red-1.png", "red vote 1"),
        (KitTag("AB", Role.OWNER, colour="red", index=2), "owner-red-2.png", "red owner 2"),
        (KitTag("AB", Role.SLOT, slot=3), "slot-03.png", "slot 3"),
        (KitTag("AB", Role.SLOT, slot=12), "slot-12.png", "slot 12"),
        (KitTag("AB", Role.CORNER, corner=2), "corner-2.png", "corner 2"),
        (KitTag("AB", Role.TRAP), "trap.png", "trap"),
    ],
)
def test_file_names_and_labels(tag: KitTag, file_name: str, label: str) -> None:
    printed = PrintedTag(tag, 24.0)
    assert (printed.file_name, printed.label) == (file_name, label)


def test_sizes_come_from_the_layout() -> None:
    sizes = {p.tag: p.size_mm for p in printed_kit("CAFE01", 12, CLASSIC)}
    assert sizes[KitTag("CAFE01", Role.CORNER, corner=3)] == 30
    assert sizes[KitTag("CAFE01", Role.SLOT, slot=8)] == 26
    assert sizes[KitTag("CAFE01", Role.SLOT, slot=12)] == 26, "a slot the layout lacks"
    assert sizes[KitTag("CAFE01", Role.TRAP)] == 24
    assert sizes[KitTag("CAFE01", Role.VOTE, colour="cyan", index=2)] == 24


def test_the_token_size_can_be_overridden_for_tokens_only() -> None:
    printed = printed_kit("CAFE01", 3, MAT, token_mm=30)
    assert {p.size_mm for p in printed if p.tag.is_token} == {30}
    assert {p.size_mm for p in printed if p.tag.role is Role.CORNER} == {32}
    assert {p.size_mm for p in printed if p.tag.role is Role.SLOT} == {28}


@pytest.mark.parametrize("size", [0, MIN_TAG_MM - 0.1, MAX_TAG_MM + 0.1, math.inf, math.nan])
def test_a_token_size_out_of_range_is_refused(size: float) -> None:
    with pytest.raises(TagSizeError, match="tags must be 10 to 100 mm across"):
        printed_kit("CAFE01", 3, MAT, token_mm=size)


def test_the_manifest_has_one_entry_per_tag_with_nulls_where_fields_do_not_apply() -> None:
    entries = manifest(printed_kit("CAFE01", 2, MAT))
    assert [e["text"] for e in entries] == [t.text for t in kit_tags("CAFE01", 2)]
    assert all(
        set(e) == {"text", "role", "player", "index", "slot", "corner", "size_mm", "file"}
        for e in entries
    )
    by_file = {e["file"]: e for e in entries}
    assert by_file["corner-1.png"] == {
        "text": KitTag("CAFE01", Role.CORNER, corner=1).text,
        "role": "corner",
        "player": None,
        "index": None,
        "slot": None,
        "corner": 1,
        "size_mm": 32.0,
        "file": "corner-1.png",
    }
    slot = by_file["slot-07.png"]
    assert (slot["role"], slot["slot"], slot["player"], slot["corner"]) == ("slot", 7, None, None)
    vote = by_file["vote-blue-2.png"]
    assert (vote["role"], vote["player"], vote["index"], vote["slot"]) == ("vote", "blue", 2, None)
    assert by_file["owner-red-1.png"]["role"] == "owner"
    trap = by_file["trap.png"]
    assert (trap["player"], trap["index"], trap["size_mm"]) == (None, None, 26.0)


@given(players=st.integers(1, 12), token_mm=st.floats(MIN_TAG_MM, MAX_TAG_MM))
def test_sheet_pieces_stay_on_the_page_apart_and_in_kit_order(
    players: int, token_mm: float
) -> None:
    printed = printed_kit("CAFE01", players, MAT, token_mm)
    pages = plan_sheet(printed)
    assert [piece.printed for page in pages for piece in page] == list(printed)
    for page in pages:
        assert page, "no empty page"
        for piece in page:
            x0, y0, x1, y1 = piece.box
            assert MARGIN_MM <= x0 < x1 <= A4_MM[0] - MARGIN_MM + 1e-6
            assert MARGIN_MM + HEADER_MM <= y0 < y1 <= A4_MM[1] - MARGIN_MM + 1e-6
            cx0, cy0, cx1, cy1 = piece.code_box
            border = FRAME_MM + CLEAR_MM - 1e-6
            assert cx0 - x0 >= border and x1 - cx1 >= border and cy0 - y0 >= border
            assert y1 - cy1 >= border + 5, "room for the label under the code"
        for i, piece in enumerate(page):
            assert all(_apart(piece.box, other.box) for other in page[i + 1 :])


def _apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize(("players", "pages"), [(1, 1), (4, 2), (12, 3)])
def test_the_kit_sheet_is_a4_pages_as_many_as_needed(players: int, pages: int) -> None:
    printed = printed_kit("CAFE01", players, MAT)
    sizes = page_sizes(kit_sheet(printed))
    assert len(sizes) == pages == len(plan_sheet(printed))
    assert all(
        w == pytest.approx(210 * PT_PER_MM, abs=0.01)
        and h == pytest.approx(297 * PT_PER_MM, abs=0.01)
        for w, h in sizes
    )


@pytest.mark.parametrize("name", ["mat-a1-12", "classic-8", "odyssey-12"])
def test_the_mat_is_one_page_of_the_boards_size(name: str) -> None:
    layout = load_layout(name)
    ((width, height),) = page_sizes(mat_sheet(layout, "CAFE01"))
    assert width == pytest.approx(layout.board_mm[0] * PT_PER_MM, abs=0.01)
    assert height == pytest.approx(layout.board_mm[1] * PT_PER_MM, abs=0.01)


def test_the_a1_mat_is_a1() -> None:
    assert page_sizes(mat_sheet(MAT, "CAFE01")) == [(2383.94, 1683.78)]


def test_every_code_on_the_rendered_kit_sheet_decodes_at_its_true_size(tmp_path: Path) -> None:
    dpi = 150
    printed = {p.tag.text: p for p in printed_kit("CAFE01", 12, CLASSIC, token_mm=20)}
    seen = []
    for page in render(kit_sheet(list(printed.values())), tmp_path, dpi):
        for result in decode(page):
            tag = printed[result.text]
            p = result.position
            across = math.dist((p.top_left.x, p.top_left.y), (p.top_right.x, p.top_right.y))
            expected = tag.size_mm * MODULES / 25 / 25.4 * dpi
            assert across == pytest.approx(expected, rel=0.025), tag.label
            seen.append(result.text)
    assert sorted(seen) == sorted(printed)


def test_the_rendered_mat_holds_every_fixed_tag_where_the_layout_puts_it(tmp_path: Path) -> None:
    dpi = 100
    (page,) = render(mat_sheet(CLASSIC, "CAFE01"), tmp_path, dpi)
    places = CLASSIC.anchors()
    found = {}
    for result in decode(page):
        tag = parse_tag(result.text)
        p = result.position
        corners = [p.top_left, p.top_right, p.bottom_right, p.bottom_left]
        centre_px = (sum(c.x for c in corners) / 4, sum(c.y for c in corners) / 4)
        key = ("corner", tag.corner) if tag.role is Role.CORNER else ("slot", tag.slot)
        found[key] = tuple(v / dpi * 25.4 for v in centre_px)
    assert found.keys() == places.keys()
    for key, (x, y) in found.items():
        assert math.dist((x, y), places[key]) < 1.0, key


def test_printing_refuses_the_tag_sizes_a_layout_refuses() -> None:
    assert printed_kit("CAFE01", 3, MAT, token_mm=TAG_MM[1])
    with pytest.raises(TagSizeError, match=f"tags must be 10 to {TAG_MM[1]:g} mm across"):
        printed_kit("CAFE01", 3, MAT, token_mm=TAG_MM[1] + 1)
