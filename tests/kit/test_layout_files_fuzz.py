"""Damaged layout files: a `LayoutError` naming the file, or a layout fit to use.

tests/kit/test_layouts.py gives `parse_layout` random JSON values; here `load_layout`
reads files: the shipped layouts damaged in their structure (tests/mutations.py) and
in their bytes. A layout it accepts must hold only finite numbers and read back the
same from its own JSON, so that the board mapper never meets an infinite board.
"""

import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import LayoutError
from companion.kit.layouts import SHIPPED_LAYOUTS, Layout, layout_names, load_layout, parse_layout
from tests.mutations import damaged_files

SHIPPED = {name: load_layout(name).to_json() for name in layout_names()}


def numbers(value: object) -> list[float]:
    """Every number in a JSON document."""
    if isinstance(value, dict):
        return [n for v in value.values() for n in numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in numbers(v)]
    return [value] if isinstance(value, int | float) else []


def load(path: Path) -> Layout | None:
    """The layout in the file, or None when refused with a `LayoutError` naming it."""
    try:
        return load_layout(str(path))
    except LayoutError as err:
        assert str(err).startswith(f"layout {path}")
        assert "\n" not in str(err)
        return None


@pytest.fixture(scope="module")
def layout_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("layouts") / "board.json"


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(sorted(SHIPPED)).flatmap(lambda name: damaged_files(SHIPPED[name])))
def test_a_damaged_layout_file_is_refused_or_fit_to_use(layout_path: Path, data: bytes) -> None:
    layout_path.write_bytes(data)
    layout = load(layout_path)
    if layout is not None:
        doc = layout.to_json()
        assert all(math.isfinite(n) for n in numbers(doc))
        assert parse_layout(doc, "again") == layout


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("token_size_mm", "Infinity"),
        ("token_size_mm", "1" + "0" * 400),
        ("token_size_mm", "9" * 5000),
        ("board_mm", "[1e999, 1e999]"),
    ],
)
def test_regression_infinite_and_overlong_numbers_are_refused(
    layout_path: Path, field: str, value: str
) -> None:
    text = (SHIPPED_LAYOUTS / "classic-8.json").read_text(encoding="utf-8")
    start = text.index(f'"{field}": ') + len(f'"{field}": ')
    end = text.index(",\n", start)
    layout_path.write_text(text[:start] + value + text[end:])
    with pytest.raises(LayoutError, match=f"^layout {re.escape(str(layout_path))}: "):
        load_layout(str(layout_path))


@pytest.mark.parametrize("name", ["missing.json", "folder.json"])
def test_a_missing_file_or_a_folder_is_a_layout_error(tmp_path: Path, name: str) -> None:
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(
        LayoutError, match=f"^layout {re.escape(str(tmp_path / name))}: cannot be read"
    ):
        load_layout(str(tmp_path / name))
