"""A round's points as a table: colour, name, points, and the reasons behind them.

Rows share the panel's height. With few scorers each reason gets its own line;
with many, the table runs on in a second column when there is room, and a
scorer's reasons run on and are cut short, so twelve scorers still fit. Names and
reasons are each drawn at one size for the whole table.

Given the rabbits, the table also shows each scorer's total and the storyteller's
book: it then stands in for the scoreboard, which leaves room to draw twelve
scorers large.
"""

import math
from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import cache, fonts, paint, theme
from companion.display.scoreboard import Standing, standings
from companion.display.theme import Scale
from companion.display.view import Breakdown, Rabbit, ScoreLine

MOST_REASON_LINES = 4
"""A row never grows beyond this many lines of reasons."""
COMFORTABLE_ROW = 30
NARROWEST_COLUMN = 400
"""A second column is used when rows would be lower than the first (design pixels)
and both columns can be at least the second wide."""


@dataclass(frozen=True)
class _Columns:
    """Sizes and column widths shared by every row of one table."""

    name_px: int
    points_px: int
    reason_px: int
    name_width: int
    mark_width: int
    """Room for the storyteller's book, 0 when no book is shown."""
    total_width: int
    """Room for the total, 0 without totals."""
    points_width: int

    def reasons_left(self, s: Scale) -> int:
        """Where the reasons start, from the row's left edge."""
        return (
            s(30) + self.name_width + self.mark_width + self.total_width + self.points_width + s(16)
        )


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


def _draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    table: Breakdown,
    s: Scale,
    edge: RGB | None,
    rabbits: tuple[Standing, ...],
) -> None:
    paint.panel(surface, area, edge=edge, edge_width=s(3))
    inner = area.inflate(-2 * s(12), -2 * s(8))
    title_px = s(28)
    title = pygame.Rect(inner.x, inner.y, inner.width, fonts.line_height(title_px))
    paint.line(surface, table.title, title, title_px, theme.GOLD, "left", s(18))
    top = title.bottom + s(4)
    body = pygame.Rect(inner.x, top, inner.width, inner.bottom - top)
    if not table.lines or body.height <= 0:
        return
    gap = s(24)
    count = len(table.lines)
    two = body.height // count < s(COMFORTABLE_ROW) and body.width >= 2 * s(NARROWEST_COLUMN)
    columns = 2 if two else 1
    per_column = math.ceil(count / columns)
    width = (body.width - gap * (columns - 1)) // columns
    most = max(1, min(MOST_REASON_LINES, max(len(line.reasons) for line in table.lines)))
    wanted = most * fonts.line_height(s(22)) + s(8)
    row_height = max(1, min(max(wanted, s(40)), body.height // per_column))
    standing = {r.name: r for r in rabbits}
    layout = _layout(table, width, row_height, s, standing)
    for i, scored in enumerate(table.lines):
        column, place = i // per_column, i % per_column
        row = pygame.Rect(
            body.x + column * (width + gap), body.y + place * row_height, width, row_height
        )
        if place % 2 == 1:
            paint.panel(surface, row.inflate(s(8), 0), theme.CELL, radius=s(4))
        _row(surface, row, scored, layout, s, standing.get(scored.name))


def _layout(
    table: Breakdown, width: int, row_height: int, s: Scale, standing: dict[str, Standing]
) -> _Columns:
    """The largest sizes at which every row's name and reasons fit."""
    points_px = max(min(s(12), row_height), min(s(30), row_height - s(6)))
    names = tuple(line.name for line in table.lines)
    name_width = width * (38 if standing else 30) // 100
    name_px = fonts.common_size(names, name_width, points_px, max(s(12), points_px * 3 // 4))
    books = any(standing[n].storyteller for n in names if n in standing)
    mark_width = points_px + s(6) if books else 0
    total_width = fonts.width("88", points_px) + s(8) if standing else 0
    points_width = fonts.width("+8", points_px) + s(8)
    columns = _Columns(name_px, points_px, 0, name_width, mark_width, total_width, points_width)
    reason_width = width - columns.reasons_left(s)
    smallest, largest = min(s(14), name_px), min(s(22), name_px)
    while smallest < largest:
        middle = (smallest + largest + 1) // 2
        if all(
            _fits(line.reasons, reason_width, row_height - s(4), middle) for line in table.lines
        ):
            smallest = middle
        else:
            largest = middle - 1
    reason_px = smallest
    return _Columns(
        name_px, points_px, reason_px, name_width, mark_width, total_width, points_width
    )


def _fits(reasons: tuple[str, ...], width: int, height: int, px: int) -> bool:
    lines = sum(len(fonts.wrap(reason, width, px)) for reason in reasons)
    return lines * fonts.line_height(px) <= height


def _row(
    surface: pygame.Surface,
    row: pygame.Rect,
    scored: ScoreLine,
    layout: _Columns,
    s: Scale,
    rabbit: Standing | None,
) -> None:
    height = min(row.height, fonts.line_height(layout.points_px) + s(6))
    first = pygame.Rect(
        row.x, row.y + max(0, min(row.height - height, s(4)) // 2), row.width, height
    )
    chip = max(6, round(first.height * 0.55))
    swatch = pygame.Rect(row.x + 2, first.centery - chip // 2, chip, chip)
    paint.swatch(surface, swatch, scored.colours)
    x = row.x + s(30)
    name = pygame.Rect(x, first.y, layout.name_width, first.height)
    paint.line(surface, scored.name, name, layout.name_px, theme.TEXT, "left", layout.name_px)
    x = name.right
    if rabbit is not None and rabbit.storyteller and layout.mark_width:
        mark = pygame.Rect(0, 0, chip * 4 // 3, chip)
        mark.center = (x + layout.mark_width // 2, first.centery)
        paint.book(surface, mark)
    x += layout.mark_width
    if rabbit is not None and layout.total_width:
        total = pygame.Rect(x, first.y, layout.total_width, first.height)
        paint.line(surface, str(rabbit.total), total, layout.points_px, theme.TEXT, "right")
    x += layout.total_width
    points = pygame.Rect(x, first.y, layout.points_width, first.height)
    colour = theme.GOLD if scored.points > 0 else theme.MUTED
    shown = f"+{scored.points}" if scored.points > 0 else str(scored.points)
    paint.line(surface, shown, points, layout.points_px, colour, "right", layout.points_px // 2)
    left = row.x + layout.reasons_left(s)
    reasons = pygame.Rect(left, row.y + s(2), row.right - left, row.height - s(4))
    if scored.reasons and reasons.width > 0 and reasons.height > 0:
        paint.paragraphs(
            surface,
            scored.reasons,
            reasons,
            layout.reason_px,
            layout.reason_px,
            theme.MUTED,
            centre_vertically=len(scored.reasons) == 1 and reasons.height < 2 * first.height,
        )
