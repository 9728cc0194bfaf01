"""Board layouts: where the corner and slot tags are and which card area is whose.

A layout is data in board millimetres (x to the right, y down, origin at the top left
of the board), kept as JSON; the shipped boards are files of the package
(`companion/kit/boards/`), read through `importlib.resources` so that they are found
wherever the package is installed:

```json
{"name": "odyssey-12", "board": "the board of Dixit Odyssey: ...",
 "board_mm": [812, 508], "token_size_mm": 24,
 "corners": [{"corner": 1, "center_mm": [18, 18], "size_mm": 30}, ...],
 "slots": [{"slot": 1, "tag_center_mm": [75, 190], "tag_size_mm": 26,
            "card_mm": [20, 20, 130, 165]}, ...]}
```

`card_mm` is the area of a slot's card, with room for the tokens that spill over its
edge; a token belongs to the slot whose area holds the token's centre. `board` says
in words which physical board the layout describes (an edition's board, a printed
mat), so that a café can choose; a café's own file may leave it out. A café can add
its own file; `load_layout` takes a shipped name or a path.
"""

import json
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from companion.errors import LayoutError, UnknownLayoutError
from companion.jsonfile import finite_number
from companion.kit.tags import CORNERS, SLOTS
from companion.names import text_fault

SHIPPED_LAYOUTS: Traversable = resources.files("companion.kit") / "boards"
"""The shipped layouts, one JSON file each, inside the installed package."""
DEFAULT_TOKEN_SIZE_MM = 24.0
"""Printed size of vote dial, owner token and trap tags, quiet zone included."""

BOARD_MM = (100.0, 2000.0)
"""Smallest and largest board side: a board narrower than 100 mm holds no card (a
Dixit card is 80 x 120 mm), and no café table is wider than 2 m; anything outside is
a typo or a unit mistake, and would print a page no printer or PDF reader takes."""
TAG_MM = (10.0, 100.0)
"""Smallest and largest printed tag, quiet zone included, for layouts and printed kits
alike: below 10 mm a QR module is under half a millimetre, which neither an office
printer keeps sharp nor a camera above a table reads; above 100 mm a token covers the
card it lies on (a Dixit card is 80 mm wide). A page could hold 150 mm, but a tag that
size has no place on any board."""

BOARD_WORDS_MAX = 200
"""The longest `board` description: one line of a listing, not a manual."""

Point = tuple[float, float]
"""A position: x, y (board millimetres here; frame pixels in the vision records)."""
Rect = tuple[float, float, float, float]
"""A rectangle: x0, y0, x1, y1."""


@dataclass(frozen=True)
class CornerSpec:
    """A corner tag of the board."""

    corner: int
    """1..4, clockwise from the top left."""
    center_mm: Point
    """Centre of the tag on the board."""
    size_mm: float
    """Printed size of the tag, quiet zone included."""


@dataclass(frozen=True)
class SlotSpec:
    """A numbered card slot: its tag and its card area."""

    slot: int
    """The slot number players vote with."""
    tag_center_mm: Point
    """Centre of the slot tag, beside the card, never under it."""
    tag_size_mm: float
    """Printed size of the slot tag, quiet zone included."""
    card_mm: Rect
    """The card area: x0, y0, x1, y1."""

    def holds(self, point: Point) -> bool:
        """Whether a point on the board lies in this slot's card area."""
        x0, y0, x1, y1 = self.card_mm
        return x0 <= point[0] < x1 and y0 <= point[1] < y1


@dataclass(frozen=True)
class Layout:
    """A board: its size, corner tags and slots."""

    name: str
    """The layout's name."""
    board_mm: tuple[float, float]
    """Width and height of the board."""
    corners: tuple[CornerSpec, ...]
    """The corner tags, by corner number."""
    slots: tuple[SlotSpec, ...]
    """The slots, by slot number."""
    token_size_mm: float = DEFAULT_TOKEN_SIZE_MM
    """Printed size of token tags for this board."""
    board: str | None = None
    """Which physical board this is, in words ("the board of Dixit Odyssey: ..."), or
    None for a café's own layout that does not say."""

    def slot_at(self, point: Point) -> int | None:
        """The slot whose card area holds the point, or None."""
        for spec in self.slots:
            if spec.holds(point):
                return spec.slot
        return None

    def anchors(self) -> dict[tuple[str, int], Point]:
        """Board positions of the fixed tags: ("corner", n) and ("slot", n)."""
        points = {("corner", c.corner): c.center_mm for c in self.corners}
        points.update({("slot", s.slot): s.tag_center_mm for s in self.slots})
        return points

    def to_json(self) -> dict[str, Any]:
        """The layout as its JSON document."""
        described = {} if self.board is None else {"board": self.board}
        return {
            "name": self.name,
            **described,
            "board_mm": list(self.board_mm),
            "token_size_mm": self.token_size_mm,
            "corners": [
                {"corner": c.corner, "center_mm": list(c.center_mm), "size_mm": c.size_mm}
                for c in self.corners
            ],
            "slots": [
                {
                    "slot": s.slot,
                    "tag_center_mm": list(s.tag_center_mm),
                    "tag_size_mm": s.tag_size_mm,
                    "card_mm": list(s.card_mm),
                }
                for s in self.slots
            ],
        }


def layout_names() -> list[str]:
    """The shipped layouts, by name."""
    return sorted(_shipped())


def load_layout(name_or_path: str) -> Layout:
    """A shipped layout by name, or a café's own layout file by path (anything with a
    suffix, such as `boards/my-table.json`)."""
    file: Traversable = Path(name_or_path)
    if not Path(name_or_path).suffix:
        shipped = _shipped().get(name_or_path)
        if shipped is None:
            raise UnknownLayoutError(
                f"unknown layout {name_or_path!r}; shipped layouts are {', '.join(layout_names())}"
            )
        file = shipped
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as err:  # not UTF-8, not JSON, too long a number
        raise LayoutError(f"layout {name_or_path}: cannot be read as JSON ({err})") from None
    return parse_layout(doc, name_or_path)


def _shipped() -> dict[str, Traversable]:
    """The shipped layout files by name."""
    return {
        file.name.removesuffix(".json"): file
        for file in SHIPPED_LAYOUTS.iterdir()
        if file.name.endswith(".json")
    }


def parse_layout(doc: object, source: str) -> Layout:
    """A layout from its JSON document, checked; `LayoutError` names what is wrong."""
    try:
        layout = Layout(
            name=_str(_get(doc, "name")),
            board=_board(_get(doc, "board", None)),
            board_mm=_pair(_get(doc, "board_mm")),
            token_size_mm=_num(_get(doc, "token_size_mm", DEFAULT_TOKEN_SIZE_MM)),
            corners=tuple(
                CornerSpec(
                    corner=_int(_get(c, "corner")),
                    center_mm=_pair(_get(c, "center_mm")),
                    size_mm=_num(_get(c, "size_mm")),
                )
                for c in _list(_get(doc, "corners"))
            ),
            slots=tuple(
                SlotSpec(
                    slot=_int(_get(s, "slot")),
                    tag_center_mm=_pair(_get(s, "tag_center_mm")),
                    tag_size_mm=_num(_get(s, "tag_size_mm")),
                    card_mm=_rect(_get(s, "card_mm")),
                )
                for s in _list(_get(doc, "slots"))
            ),
        )
    except _Shape as err:
        raise LayoutError(f"layout {source}: {err}") from None
    _check(layout, source)
    return layout


def _check(layout: Layout, source: str) -> None:
    def fail(message: str) -> LayoutError:
        return LayoutError(f"layout {source}: {message}")

    width, height = layout.board_mm
    if not (BOARD_MM[0] <= width <= BOARD_MM[1] and BOARD_MM[0] <= height <= BOARD_MM[1]):
        raise fail(f"board_mm must be {BOARD_MM[0]:g} to {BOARD_MM[1]:g} mm each way")
    if sorted(c.corner for c in layout.corners) != list(range(1, CORNERS + 1)):
        raise fail(f"needs exactly the corners 1 to {CORNERS}, once each")
    numbers = [s.slot for s in layout.slots]
    if (
        not numbers
        or len(set(numbers)) != len(numbers)
        or not set(numbers) <= set(range(1, SLOTS + 1))
    ):
        raise fail(f"slots must be distinct numbers from 1 to {SLOTS}")
    sizes = f"must be {TAG_MM[0]:g} to {TAG_MM[1]:g} mm"
    if not _tag_size(layout.token_size_mm):
        raise fail(f"token_size_mm {sizes}")

    def inside(point: Point, size: float) -> bool:
        half = size / 2
        return half <= point[0] <= width - half and half <= point[1] <= height - half

    for corner in layout.corners:
        if not _tag_size(corner.size_mm):
            raise fail(f"corner {corner.corner}: size_mm {sizes}")
        if not inside(corner.center_mm, corner.size_mm):
            raise fail(f"corner {corner.corner} must lie on the board")
    for spec in layout.slots:
        x0, y0, x1, y1 = spec.card_mm
        if not (0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height):
            raise fail(f"slot {spec.slot}: card_mm must be a rectangle on the board")
        if not _tag_size(spec.tag_size_mm):
            raise fail(f"slot {spec.slot}: tag_size_mm {sizes}")
        if not inside(spec.tag_center_mm, spec.tag_size_mm):
            raise fail(f"slot {spec.slot}: the tag must lie on the board")
        for other in layout.slots:
            if other.holds(spec.tag_center_mm):
                raise fail(f"slot {spec.slot}: the tag lies in the card area of slot {other.slot}")
            if other.slot > spec.slot and _overlap(spec.card_mm, other.card_mm):
                raise fail(f"slots {spec.slot} and {other.slot}: card areas overlap")


def _tag_size(size: float) -> bool:
    return TAG_MM[0] <= size <= TAG_MM[1]


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Shape(Exception):
    """A field of the wrong type; turned into a `LayoutError` with the file's name."""


_MISSING = object()


def _get(doc: object, key: str, default: object = _MISSING) -> object:
    if not isinstance(doc, dict):
        raise _Shape(f"expected an object holding {key!r}")
    if key not in doc:
        if default is _MISSING:
            raise _Shape(f"{key!r} is missing")
        return default
    return doc[key]


def _str(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise _Shape(f"expected a name, got {value!r}")
    return value


def _board(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Shape(f"'board' must be words describing the board, got {value!r}")
    fault = text_fault(value)
    if fault is not None or not value.strip() or len(value) > BOARD_WORDS_MAX:
        raise _Shape(
            f"'board' must be one line of up to {BOARD_WORDS_MAX} characters describing "
            f"the board{'' if fault is None else f'; it {fault}'}"
        )
    return value


def _num(value: object) -> float:
    number = finite_number(value)
    if number is None:
        raise _Shape(f"expected a finite number, got {value!r}")
    return number


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Shape(f"expected a whole number, got {value!r}")
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise _Shape(f"expected a list, got {value!r}")
    return value


def _pair(value: object) -> Point:
    items = _list(value)
    if len(items) != 2:
        raise _Shape(f"expected [x, y], got {value!r}")
    return (_num(items[0]), _num(items[1]))


def _rect(value: object) -> Rect:
    items = _list(value)
    if len(items) != 4:
        raise _Shape(f"expected [x0, y0, x1, y1], got {value!r}")
    x0, y0, x1, y1 = (_num(v) for v in items)
    return (x0, y0, x1, y1)
