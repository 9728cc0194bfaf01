"""Board layouts: the shipped ones are sound, and a broken file is refused clearly."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import LayoutError, UnknownLayoutError
from companion.kit.layouts import layout_names, load_layout, parse_layout


def test_shipped_layouts_include_8_and_12_slots_and_a_mat() -> None:
    names = layout_names()
    assert {"classic-8", "odyssey-12", "mat-a1-12"} <= set(names)
    assert len(load_layout("classic-8").slots) == 8
    assert len(load_layout("odyssey-12").slots) == 12


@pytest.mark.parametrize("name", layout_names())
def test_a_token_belongs_to_the_slot_whose_card_area_holds_its_centre(name: str) -> None:
    layout = load_layout(name)
    for spec in layout.slots:
        x0, y0, x1, y1 = spec.card_mm
        assert layout.slot_at(((x0 + x1) / 2, (y0 + y1) / 2)) == spec.slot
        assert layout.slot_at((x0, y0)) == spec.slot
        assert layout.slot_at(spec.tag_center_mm) is None


def test_a_layout_round_trips_through_json() -> None:
    layout = load_layout("odyssey-12")
    assert parse_layout(json.loads(json.dumps(layout.to_json())), "copy") == layout


def test_a_layout_file_by_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(load_layout("classic-8").to_json() | {"name": "mine"}))
    assert load_layout(str(path)).name == "mine"


def test_unknown_layout() -> None:
    with pytest.raises(UnknownLayoutError, match="unknown layout 'chess'; shipped layouts are"):
        load_layout("chess")


def broken(**changes: object) -> dict[str, object]:
    return load_layout("classic-8").to_json() | changes


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (broken(board_mm=[0, 400]), "board_mm must be 100 to 2000 mm each way"),
        (broken(corners=[]), "needs exactly the corners 1 to 4, once each"),
        (broken(slots=[]), "slots must be distinct numbers from 1 to 12"),
        (broken(name=None), "expected a name, got None"),
        (broken(board_mm="big"), "expected a list, got 'big'"),
    ],
)
def test_broken_layouts_are_refused(doc: dict[str, object], message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        parse_layout(doc, "test")


def test_overlapping_card_areas_are_refused() -> None:
    doc = load_layout("classic-8").to_json()
    doc["slots"][1]["card_mm"] = doc["slots"][0]["card_mm"]
    with pytest.raises(LayoutError, match="slots 1 and 2: card areas overlap"):
        parse_layout(doc, "test")


def test_a_slot_tag_under_a_card_is_refused() -> None:
    doc = load_layout("classic-8").to_json()
    x0, y0, x1, y1 = doc["slots"][0]["card_mm"]
    doc["slots"][1]["tag_center_mm"] = [(x0 + x1) / 2, (y0 + y1) / 2]
    with pytest.raises(LayoutError, match="slot 2: the tag lies in the card area of slot 1"):
        parse_layout(doc, "test")


def test_a_corrupt_layout_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\x00{not json")
    with pytest.raises(LayoutError, match="cannot be read as JSON"):
        load_layout(str(path))


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
        ),
        max_leaves=25,
    )
)
def test_any_document_is_a_layout_or_a_layout_error(doc: object) -> None:
    try:
        parse_layout(doc, "fuzz")
    except LayoutError as err:
        assert str(err).startswith("layout fuzz: ")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"board_mm": [1e308, 508]}, "board_mm must be 100 to 2000 mm each way"),
        ({"board_mm": [568, 50]}, "board_mm must be 100 to 2000 mm each way"),
        ({"token_size_mm": 0.0001}, "token_size_mm must be 10 to 100 mm"),
        ({"token_size_mm": 1e9}, "token_size_mm must be 10 to 100 mm"),
    ],
)
def test_a_layout_of_no_physical_size_is_refused(change: dict[str, object], message: str) -> None:
    doc = {**load_layout("classic-8").to_json(), **change}
    with pytest.raises(LayoutError, match=f"^layout cafe: {message}"):
        parse_layout(doc, "cafe")


@pytest.mark.parametrize("field", ["corners", "slots"])
def test_a_board_tag_of_no_physical_size_is_refused(field: str) -> None:
    doc = load_layout("classic-8").to_json()
    key = "size_mm" if field == "corners" else "tag_size_mm"
    doc[field][0][key] = 0.0001
    with pytest.raises(LayoutError, match="must be 10 to 100 mm"):
        parse_layout(doc, "cafe")


@pytest.mark.parametrize("name", layout_names())
def test_every_shipped_layout_says_which_board_it_is(name: str) -> None:
    board = load_layout(name).board
    assert board is not None and board.strip() == board and "\n" not in board
    assert ("Dixit" in board) or ("mat" in board)


def test_a_cafes_own_layout_may_leave_the_board_unsaid_and_it_round_trips() -> None:
    doc = load_layout("classic-8").to_json()
    del doc["board"]
    layout = parse_layout(doc, "cafe")
    assert layout.board is None
    assert layout.to_json() == doc
    described = parse_layout(doc | {"board": "our oak table"}, "cafe")
    assert described.board == "our oak table"
    assert parse_layout(described.to_json(), "copy") == described


@pytest.mark.parametrize(
    ("board", "message"),
    [
        (42, "'board' must be words describing the board, got 42"),
        ("", "'board' must be one line of up to 200 characters"),
        ("   ", "'board' must be one line of up to 200 characters"),
        ("two\nlines", "'board' must be one line .*; it holds a control character"),
        ("x" * 201, "'board' must be one line of up to 200 characters"),
    ],
)
def test_a_board_description_that_is_not_one_line_of_words_is_refused(
    board: object, message: str
) -> None:
    with pytest.raises(LayoutError, match=f"^layout cafe: {message}"):
        parse_layout(broken(board=board), "cafe")
