"""A round's points as a table: colour, name, points, and the reasons behind them.

The reasons are why the table trusts a proposal, so they are never cut short: each
reason starts on its own line and may wrap to a second, rows are as high as their
reasons (a storyteller's one line beside a finder's three), and with many scorers
the rows run on in a second column, split where the two columns come out even.
`plan` looks for the largest size at which every reason is drawn whole, down to
`LEAST_REASON` (11 pixels on the 7" screen). Names and points are drawn a little
larger than the reasons, at one size for the whole table; the names' column narrows
(a long name then wraps to a second line) before the reasons get smaller, since a
name is known at a glance and a reason has to be read.

When even the least size cannot hold every reason, the "0 ..." reasons said on more
than one row (a dozen "0 did not find the storyteller's card") are kept on their
first row only: the 0 beside each name still says that nothing was scored, and the
reasons behind points are kept whole. Only when that is not enough either are rows
cut short, with an ellipsis; `Plan.whole` says whether either happened, so that the
screen around the table can give it more room first.

Given the rabbits, the table also shows each scorer's total and the storyteller's
book: it then stands in for the scoreboard, which leaves room to draw twelve
scorers large.
"""

import functools
from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import cache, fonts, paint, theme
from companion.display.hitmap import Box
from companion.display.scoreboard import Standing, name_lines, standings
from companion.display.theme import Scale
from companion.display.view import Breakdown, Rabbit, ScoreLine

LARGEST_REASON = 22
"""Design size of the reasons when there is room."""
LEAST_REASON = 17
"""Design size below which reasons are not drawn: 11 pixels on the 7" screen, about
the least that reads from across a table."""
LINES_PER_REASON = 2
"""A reason wraps to at most this many lines."""
LINES_PER_NAME = 2
"""A name wraps to at most this many lines; a longer one is cut short."""
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
class _Sizes:
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


@dataclass(frozen=True)
class _Layout:
    """One way to lay out the rows in columns of a given width, and the height it needs."""

    sizes: _Sizes
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


def draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    table: Breakdown,
    s: Scale,
    edge: RGB | None = None,
    rabbits: tuple[Rabbit, ...] = (),
) -> None:
    """`table` in a panel filling `area`; with `rabbits`, their totals too."""
    cache.draw(surface, area, _draw, table, s, edge, standings(rabbits))


def plan(
    size: tuple[int, int], table: Breakdown, s: Scale, rabbits: tuple[Standing, ...] = ()
) -> Plan:
    """How `table` is drawn in a panel of `size`, with the totals of `rabbits`."""
    return _plan(size, table, s, rabbits)


def _body(area: pygame.Rect, s: Scale) -> tuple[pygame.Rect, pygame.Rect]:
    """The title's line and the rows' room in a panel filling `area`."""
    inner = area.inflate(-2 * s(12), -2 * s(8))
    title = pygame.Rect(inner.x, inner.y, inner.width, fonts.line_height(s(TITLE_PX)))
    top = title.bottom + s(4)
    return title, pygame.Rect(inner.x, top, inner.width, max(0, inner.bottom - top))


@functools.lru_cache(maxsize=64)
def _plan(size: tuple[int, int], table: Breakdown, s: Scale, rabbits: tuple[Standing, ...]) -> Plan:
    _, body = _body(pygame.Rect((0, 0), size), s)
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
        for px in range(s(LARGEST_REASON), s(LEAST_REASON) - 1, -1):
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


def _sizes(
    width: int, table: Breakdown, px: int, share: float, s: Scale, rabbits: tuple[Standing, ...]
) -> _Sizes:
    """The sizes and widths for reasons at `px` in rows `width` wide, the names taking
    at most `share` of it."""
    points_px = px * 4 // 3
    names = tuple(line.name for line in table.lines)
    widest = max((fonts.width(name, points_px) for name in names), default=0) + s(6)
    name_width = max(1, min(widest, round(width * share)))
    name_px, lines, names_cut = _names(names, name_width - s(6), points_px, px)
    teller = {r.name for r in rabbits if r.storyteller}
    mark_width = points_px + s(6) if teller & set(names) else 0
    total_width = fonts.width("88", points_px) + s(8) if rabbits else 0
    points_width = fonts.width("+8", points_px) + s(8)
    left = _swatch_room(points_px, s) + name_width + mark_width + total_width + points_width
    left += s(12)
    return _Sizes(
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


def _swatch_room(points_px: int, s: Scale) -> int:
    return _chip(fonts.line_height(points_px)) + s(12)


def _chip(first_line: int) -> int:
    return max(6, round(first_line * 0.55))


def _row_height(sizes: _Sizes, name_lines: int, reason_lines: int, s: Scale) -> int:
    first = fonts.line_height(sizes.points_px)
    name = first + max(0, name_lines - 1) * fonts.line_height(sizes.name_px)
    return max(name, reason_lines * fonts.line_height(sizes.reason_px)) + s(6)


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
    sizes = _sizes(column_width, table, px, share, s, rabbits)
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
        _row_height(sizes, len(name), len(lines), s)
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


def _made(sizes: _Sizes, rows: tuple[Row, ...], dropped: bool, cut: bool) -> Plan:
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
    px = s(LEAST_REASON)
    columns = max(1, min(MOST_COLUMNS, len(table.lines)))
    gap = s(24)
    width = max(1, (body.width - gap * (columns - 1)) // columns)
    sizes = _sizes(width, table, px, NAME_SHARES[-1], s, rabbits)
    reason_width = max(1, sizes.reason_width)
    wrapped = [
        tuple(line for reason in reasons for line in fonts.wrap(reason, reason_width, px))
        for reasons in shown
    ]
    wanted = tuple(
        _row_height(sizes, len(name), len(lines), s)
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


def _draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    table: Breakdown,
    s: Scale,
    edge: RGB | None,
    rabbits: tuple[Standing, ...],
) -> None:
    paint.panel(surface, area, edge=edge, edge_width=s(3))
    title, body = _body(area, s)
    paint.line(surface, table.title, title, s(TITLE_PX), theme.GOLD, "left", s(18))
    if not table.lines or body.height <= 0:
        return
    laid = _plan(area.size, table, s, rabbits)
    standing = {r.name: r for r in rabbits}
    place = 0
    for scored, row in zip(table.lines, laid.rows, strict=True):
        box = pygame.Rect(row.box).move(area.x, area.y)
        place = 0 if box.y == body.y else place + 1
        if place % 2 == 1:
            paint.panel(surface, box.inflate(s(8), 0), theme.CELL, radius=s(4))
        _row(surface, box, scored, row, laid, s, standing.get(scored.name))


def _row(
    surface: pygame.Surface,
    box: pygame.Rect,
    scored: ScoreLine,
    row: Row,
    laid: Plan,
    s: Scale,
    rabbit: Standing | None,
) -> None:
    inside = box.inflate(0, -s(6))
    first = pygame.Rect(inside.x, inside.y, inside.width, fonts.line_height(laid.points_px))
    chip = _chip(first.height)
    swatch = pygame.Rect(box.x + 2, first.centery - chip // 2, chip, chip)
    paint.swatch(surface, swatch, scored.colours)
    x = box.x + _swatch_room(laid.points_px, s)
    name = pygame.Rect(x, first.y, laid.name_width - s(6), first.height)
    for words in row.name:
        paint.line(surface, words, name, laid.name_px, theme.TEXT, "left", laid.name_px)
        name = pygame.Rect(x, name.bottom, name.width, fonts.line_height(laid.name_px))
    x += laid.name_width
    if rabbit is not None and rabbit.storyteller and laid.mark_width:
        mark = pygame.Rect(0, 0, chip * 4 // 3, chip)
        mark.center = (x + laid.mark_width // 2, first.centery)
        paint.book(surface, mark)
    x += laid.mark_width
    if rabbit is not None and laid.total_width:
        total = pygame.Rect(x, first.y, laid.total_width, first.height)
        paint.line(surface, str(rabbit.total), total, laid.points_px, theme.TEXT, "right")
    x += laid.total_width
    points = pygame.Rect(x, first.y, laid.points_width, first.height)
    colour = theme.GOLD if scored.points > 0 else theme.MUTED
    shown = f"+{scored.points}" if scored.points > 0 else str(scored.points)
    paint.line(surface, shown, points, laid.points_px, colour, "right", laid.points_px // 2)
    step = fonts.line_height(laid.reason_px)
    used = len(row.lines) * step
    y = inside.y + max(0, (first.height - used) // 2)
    left = box.x + laid.reasons_left
    for words in row.lines:
        line = pygame.Rect(left, y, max(0, box.right - left), step)
        if line.bottom > box.bottom:
            break
        paint.line(surface, words, line, laid.reason_px, theme.MUTED, "left", laid.reason_px)
        y += step
