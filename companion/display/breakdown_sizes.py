"""The columns of a table of points: how wide the colour, the name, the storyteller's
book, the total and the points are in a row of a given width, and so where the
reasons start; the names' size and lines (one each, two for a long name, cut short
only when even two lines cannot hold it); and how high a row is.
"""

import functools
from dataclasses import dataclass

from companion.display import fonts
from companion.display.scoreboard import Standing, name_lines
from companion.display.theme import Scale
from companion.display.typescale import Tier
from companion.display.view import Breakdown

LINES_PER_NAME = 2
"""A name wraps to at most this many lines; a longer one is cut short."""


@dataclass(frozen=True)
class Sizes:
    """The sizes and widths of one layout, shared by every row."""

    name_px: int
    points_px: int
    reason_px: int
    name_width: int
    mark_width: int
    total_width: int
    points_width: int
    reasons_left: int
    reason_width: int
    names: tuple[tuple[str, ...], ...]
    """Every name's lines."""
    names_cut: bool


@functools.lru_cache(maxsize=64)
def _names(
    names: tuple[str, ...], width: int, largest: int, least: int
) -> tuple[int, tuple[tuple[str, ...], ...], bool]:
    """The size, lines and whether any is cut short, of `names` in `width`: on one line
    each if they fit down to three quarters of `largest`, else on up to two lines each
    down to `least`, else at `least` with the longest cut short."""
    one_line = fonts.common_size(names, width, largest, max(least, largest * 3 // 4))
    if all(fonts.width(name, one_line) <= width for name in names):
        return one_line, tuple((name,) for name in names), False
    for px in range(largest, least - 1, -1):
        laid = [name_lines(name, width, px, LINES_PER_NAME) for name in names]
        if all(lines is not None for lines in laid):
            return px, tuple(lines or () for lines in laid), False
    cut = tuple(
        name_lines(name, width, least, LINES_PER_NAME) or _cut_name(name, width, least)
        for name in names
    )
    return least, cut, True


def _cut_name(name: str, width: int, px: int) -> tuple[str, ...]:
    """A name too long for two lines: the words that fit on the first line, the rest
    cut short on the second; or one line cut short when not even a word fits."""
    words = fonts.breakable_words(name)
    first = ""
    for count, word in enumerate(words):
        longer = f"{first} {word}" if first else word
        if fonts.width(longer, px) > width:
            if not first:
                return (fonts.ellipsize(name, width, px),)
            return first, fonts.ellipsize(" ".join(words[count:]), width, px)
        first = longer
    return (first,)


def sizes_for(
    width: int, table: Breakdown, px: int, share: float, s: Scale, rabbits: tuple[Standing, ...]
) -> Sizes:
    """The sizes and widths for reasons at `px` in rows `width` wide, the names taking
    at most `share` of it."""
    points_px = max(px * 4 // 3, s.least(Tier.SEAT))
    names = tuple(line.name for line in table.lines)
    widest = max((fonts.width(name, points_px) for name in names), default=0) + s(6)
    name_width = max(1, min(widest, round(width * share)))
    least = s.least(Tier.SEAT)
    name_px, lines, names_cut = _names(names, name_width - s(6), points_px, least)
    teller = {r.name for r in rabbits if r.storyteller}
    mark_width = points_px + s(6) if teller & set(names) else 0
    total_width = fonts.width("88", points_px) + s(8) if rabbits else 0
    points_width = fonts.width("+8", points_px) + s(8)
    left = swatch_room(points_px, s) + name_width + mark_width + total_width + points_width
    left += s(12)
    return Sizes(
        name_px,
        points_px,
        px,
        name_width,
        mark_width,
        total_width,
        points_width,
        left,
        width - left,
        lines,
        names_cut,
    )


def swatch_room(points_px: int, s: Scale) -> int:
    """Room for the colour chip at a row's left, with the space after it."""
    return chip_side(fonts.line_height(points_px)) + s(12)


def chip_side(first_line: int) -> int:
    """The colour chip's side, beside a first line `first_line` high."""
    return max(6, round(first_line * 0.55))


def row_height(sizes: Sizes, name_lines: int, reason_lines: int, s: Scale) -> int:
    """A row's height: its name's lines beside its reasons' lines, whichever is higher."""
    first = fonts.line_height(sizes.points_px)
    name = first + max(0, name_lines - 1) * fonts.line_height(sizes.name_px)
    return max(name, reason_lines * fonts.line_height(sizes.reason_px)) + s(6)
