"""Where a round's points go in a table: each scorer's row, the reasons wrapped whole.

The reasons are why the table trusts a proposal, so they are never cut short: each
reason starts on its own line and may wrap to a second, rows are as high as their
reasons (a storyteller's one line beside a finder's three), and with many scorers
the rows run on in a second column, split where the two columns come out even.
`plan` looks for the largest size at which every reason is drawn whole, down to
`LEAST_REASON`, and never below the details' tier of type (`typescale`: capitals 2 mm
high on the screen's glass). Names and points, of the seat's tier, are drawn a little
larger than the reasons, at one size for the whole table; the names' column narrows
(a long name then wraps to a second line) before the reasons get smaller, since a
name is known at a glance and a reason has to be read (the columns' widths and the
names' lines: `breakdown_sizes`).

When even the least size cannot hold every reason, the "0 ..." reasons said on more
than one row (a dozen "0 did not find the storyteller's card") are kept on their
first row only: the 0 beside each name still says that nothing was scored, and the
reasons behind points are kept whole. Only when that is not enough either are rows
cut short, with an ellipsis; `Plan.whole` says whether either happened, so that the
screen around the table can give it more room first.
"""

import functools
from dataclasses import dataclass

import pygame

from companion.display import fonts
from companion.display.breakdown_sizes import Sizes, row_height, sizes_for
from companion.display.hitmap import Box
from companion.display.scoreboard import Standing
from companion.display.theme import Scale
from companion.display.typescale import Tier
from companion.display.view import Breakdown

LARGEST_REASON = 22
"""Design size of the reasons when there is room."""
LEAST_REASON = 17
"""Design size below which reasons are not drawn (the details' tier of type is larger
on every listed screen)."""
LINES_PER_REASON = 2
"""A reason wraps to at most this many lines."""
NAME_SHARES = (0.34, 0.27, 0.2)
"""Of a column, the most the names take, widest first: the rest is for the points
and the reasons."""
BARE_NAME_SHARE = 0.6
"""Of a column, the most the names take in a table without reasons."""
MOST_COLUMNS = 2
"""Rows run on in at most this many columns."""
TITLE_PX = 28
"""Design size of the table's title."""
ZERO = "0 "
"""How a reason for no points starts: the rules print each reason after its points."""


@dataclass(frozen=True)
class Row:
    """Where one scorer's row goes and what it shows."""

    box: Box
    """The row, relative to the table's area."""
    name: tuple[str, ...]
    """The name's lines: one, or two for a long name."""
    reasons: tuple[str, ...]
    """The reasons drawn, each whole; fewer than the scorer's when some were left out."""
    lines: tuple[str, ...]
    """The reasons as drawn, wrapped to the reasons' column; the last ends in an
    ellipsis when the row was cut short."""


@dataclass(frozen=True)
class Plan:
    """How a table of points is laid out in an area of a given size."""

    name_px: int
    points_px: int
    """The size of the points and totals."""
    reason_px: int
    """The size of the reasons: the smallest text in the table."""
    name_width: int
    mark_width: int
    """Room for the storyteller's book, 0 when no book is shown."""
    total_width: int
    """Room for the total, 0 without totals."""
    points_width: int
    reasons_left: int
    """Where the reasons start, from a row's left edge."""
    reason_width: int
    rows: tuple[Row, ...]
    """One per scorer, in the table's order."""
    dropped: bool
    """Whether repeated "0 ..." reasons were left out."""
    cut: bool
    """Whether some row's reasons are cut short."""
    names_cut: bool
    """Whether some name is cut short (a name too long even on two lines)."""

    @property
    def whole(self) -> bool:
        """Whether every reason is drawn, each in full."""
        return not self.dropped and not self.cut


@dataclass(frozen=True)
class _Layout:
    """One way to lay out the rows in columns of a given width, and the height it needs."""

    sizes: Sizes
    columns: int
    column_width: int
    shown: tuple[tuple[str, ...], ...]
    """Each row's reasons."""
    wrapped: tuple[tuple[str, ...], ...]
    """Each row's reasons as lines."""
    heights: tuple[int, ...]
    """Each row's height."""
    split: tuple[int, ...]
    """The first row of each column after the first."""
    needed: int
    """The height of the highest column."""
    dropped: bool


def plan(
    size: tuple[int, int], table: Breakdown, s: Scale, rabbits: tuple[Standing, ...] = ()
) -> Plan:
    """How `table` is drawn in a panel of `size`, with the totals of `rabbits`."""
    return _plan(size, table, s, rabbits)


def title_and_rows(area: pygame.Rect, s: Scale) -> tuple[pygame.Rect, pygame.Rect]:
    """The title's line and the rows' room in a panel filling `area`."""
    inner = area.inflate(-2 * s(12), -2 * s(8))
    title_height = fonts.line_height(s.at_least(TITLE_PX, Tier.DETAIL))
    title = pygame.Rect(inner.x, inner.y, inner.width, title_height)
    top = title.bottom + s(4)
    return title, pygame.Rect(inner.x, top, inner.width, max(0, inner.bottom - top))


@functools.lru_cache(maxsize=64)
def _plan(size: tuple[int, int], table: Breakdown, s: Scale, rabbits: tuple[Standing, ...]) -> Plan:
    _, body = title_and_rows(pygame.Rect((0, 0), size), s)
    for layout in _layouts(body.width, table, s, rabbits):
        if layout.needed <= body.height:
            return _placed(body, layout, s)
    return _cut(body, table, s, rabbits)


@functools.lru_cache(maxsize=16)
def _layouts(
    width: int, table: Breakdown, s: Scale, rabbits: tuple[Standing, ...]
) -> tuple[_Layout, ...]:
    """Every layout with each reason whole in rows `width` wide, the preferred first
    (see `_preference`): no reason left out, names whole, the largest reasons, fewest
    columns, widest names. Only the height they need is left to compare, so the
    screen around the table can try several heights at one width cheaply."""
    shown = tuple(line.reasons for line in table.lines)
    fewer = _without_repeated_zeros(shown)
    choices = ((shown, False), (fewer, True)) if fewer != shown else ((shown, False),)
    shares = NAME_SHARES if any(shown) else (BARE_NAME_SHARE,)
    found = []
    for reasons, dropped in choices:
        least = s.at_least(LEAST_REASON, Tier.DETAIL)
        for px in range(max(s(LARGEST_REASON), least), least - 1, -1):
            for columns in range(1, min(MOST_COLUMNS, len(table.lines)) + 1):
                for share in shares:
                    layout = _layout(width, table, reasons, px, columns, share, s, rabbits, dropped)
                    if layout is not None:
                        found.append(layout)
    return tuple(sorted(found, key=_preference))


def _preference(layout: _Layout) -> tuple[bool, bool, int]:
    """How `_layouts` sorts, after the order they were made in: every reason first, then
    every name whole, then, when names are cut anyway, the widest names."""
    cut = layout.sizes.names_cut
    return layout.dropped, cut, -layout.sizes.name_width if cut else 0


def _without_repeated_zeros(shown: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Every row's reasons, a "0 ..." reason kept only on the first row that says it."""
    said: set[str] = set()
    kept = []
    for reasons in shown:
        row = []
        for reason in reasons:
            if reason.startswith(ZERO) and reason in said:
                continue
            said.add(reason)
            row.append(reason)
        kept.append(tuple(row))
    return tuple(kept)


@functools.lru_cache(maxsize=fonts.TEXT_CACHE)
def _wrapped(text: str, width: int, px: int, most: int) -> tuple[str, ...] | None:
    """`text` in lines `width` wide, or None when a word does not fit or it takes more
    than `most` lines."""
    if width <= 0 or any(fonts.width(w, px) > width for w in fonts.breakable_words(text)):
        return None
    lines = fonts.wrap(text, width, px)
    return lines if len(lines) <= most else None


def _layout(
    width: int,
    table: Breakdown,
    shown: tuple[tuple[str, ...], ...],
    px: int,
    columns: int,
    share: float,
    s: Scale,
    rabbits: tuple[Standing, ...],
    dropped: bool,
) -> _Layout | None:
    """The rows in `columns` columns with reasons at `px`, or None when a reason does
    not fit its column in `LINES_PER_REASON` lines."""
    gap = s(24)
    column_width = (width - gap * (columns - 1)) // columns
    if column_width <= 0:
        return None
    sizes = sizes_for(column_width, table, px, share, s, rabbits)
    wrapped: list[tuple[str, ...]] = []
    for reasons in shown:
        lines: list[str] = []
        for reason in reasons:
            laid = _wrapped(reason, sizes.reason_width, px, LINES_PER_REASON)
            if laid is None:
                return None
            lines += laid
        wrapped.append(tuple(lines))
    heights = tuple(
        row_height(sizes, len(name), len(lines), s)
        for name, lines in zip(sizes.names, wrapped, strict=True)
    )
    split, needed = _columns(heights, columns)
    return _Layout(
        sizes, columns, column_width, shown, tuple(wrapped), heights, split, needed, dropped
    )


def _columns(heights: tuple[int, ...], columns: int) -> tuple[tuple[int, ...], int]:
    """Where the rows are split into `columns` (the first row of each column after the
    first) so that the highest column is as low as can be, and its height."""
    if columns == 1:
        return (), sum(heights)
    best = (len(heights), sum(heights))
    for split in range(1, len(heights)):
        tallest = max(sum(heights[:split]), sum(heights[split:]))
        if tallest < best[1]:
            best = (split, tallest)
    return (best[0],), best[1]


def _boxes(
    body: pygame.Rect, heights: tuple[int, ...], split: tuple[int, ...], width: int, gap: int
) -> tuple[Box, ...]:
    boxes = []
    column, y = 0, body.y
    for i, height in enumerate(heights):
        if column < len(split) and i == split[column]:
            column, y = column + 1, body.y
        boxes.append((body.x + column * (width + gap), y, width, height))
        y += height
    return tuple(boxes)


def _placed(body: pygame.Rect, layout: _Layout, s: Scale) -> Plan:
    boxes = _boxes(body, layout.heights, layout.split, layout.column_width, s(24))
    rows = tuple(
        Row(box, name, reasons, lines)
        for box, name, reasons, lines in zip(
            boxes, layout.sizes.names, layout.shown, layout.wrapped, strict=True
        )
    )
    return _made(layout.sizes, rows, layout.dropped, cut=False)


def _made(sizes: Sizes, rows: tuple[Row, ...], dropped: bool, cut: bool) -> Plan:
    return Plan(
        sizes.name_px,
        sizes.points_px,
        sizes.reason_px,
        sizes.name_width,
        sizes.mark_width,
        sizes.total_width,
        sizes.points_width,
        sizes.reasons_left,
        sizes.reason_width,
        rows,
        dropped,
        cut,
        sizes.names_cut,
    )


def _cut(body: pygame.Rect, table: Breakdown, s: Scale, rabbits: tuple[Standing, ...]) -> Plan:
    """The last resort: the least size in as many columns as allowed, the narrowest
    names, repeated "0 ..." reasons left out, and each row given a share of the
    height as large as its reasons' and cut short to it."""
    shown = _without_repeated_zeros(tuple(line.reasons for line in table.lines))
    px = s.at_least(LEAST_REASON, Tier.DETAIL)
    columns = max(1, min(MOST_COLUMNS, len(table.lines)))
    gap = s(24)
    width = max(1, (body.width - gap * (columns - 1)) // columns)
    sizes = sizes_for(width, table, px, NAME_SHARES[-1], s, rabbits)
    reason_width = max(1, sizes.reason_width)
    wrapped = [
        tuple(line for reason in reasons for line in fonts.wrap(reason, reason_width, px))
        if all(
            fonts.width(w, px) <= reason_width for r in reasons for w in fonts.breakable_words(r)
        )
        else ()  # no word is broken to fit: too narrow a column shows no reasons
        for reasons in shown
    ]
    wanted = tuple(
        row_height(sizes, len(name), len(lines), s)
        for name, lines in zip(sizes.names, wrapped, strict=True)
    )
    split = () if columns == 1 else ((len(wanted) + 1) // 2,)
    heights: list[int] = []
    for start, end in zip((0, *split), (*split, len(wanted)), strict=True):
        part = wanted[start:end]
        total = max(1, sum(part))
        heights += [max(1, h * body.height // total) if total > body.height else h for h in part]
    boxes = _boxes(body, tuple(heights), split, width, gap)
    step = fonts.line_height(px)
    rows = []
    for box, name, reasons, lines in zip(boxes, sizes.names, shown, wrapped, strict=True):
        room = max(0, (box[3] - s(6)) // step)
        if len(lines) > room:
            kept = lines[:room]
            if kept:
                kept = (*kept[:-1], fonts.ellipsize(kept[-1] + fonts.ELLIPSIS, reason_width, px))
            lines = kept
        rows.append(Row(box, name, reasons, lines))
    dropped = shown != tuple(line.reasons for line in table.lines)
    return _made(sizes, tuple(rows), dropped, cut=True)
