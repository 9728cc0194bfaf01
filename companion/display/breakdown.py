"""A round's points drawn as a table: colour, name, points, and the reasons behind them.

Where each row goes, and at what sizes, is `breakdown_layout`'s to say: every reason
whole where that can be, the table's `Plan`. Given the rabbits, the table also shows
each scorer's total and the storyteller's book: it then stands in for the
scoreboard, which leaves room to draw twelve scorers large.
"""

import pygame

from companion.colours import RGB
from companion.display import cache, fonts, paint, theme, typescale
from companion.display.breakdown_layout import TITLE_PX, Plan, Row, plan, title_and_rows
from companion.display.breakdown_sizes import chip_side, swatch_room
from companion.display.scoreboard import Standing, standings
from companion.display.theme import Scale
from companion.display.typescale import Tier
from companion.display.view import Breakdown, Rabbit, ScoreLine


def draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    table: Breakdown,
    s: Scale,
    edge: RGB | None = None,
    rabbits: tuple[Rabbit, ...] = (),
    elsewhere: str = "",
) -> None:
    """`table` in a panel filling `area`; with `rabbits`, their totals too; with
    `elsewhere`, a line saying where the reasons left out are read."""
    cache.draw(surface, area, _draw, table, s, edge, standings(rabbits), elsewhere)


def _draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    table: Breakdown,
    s: Scale,
    edge: RGB | None,
    rabbits: tuple[Standing, ...],
    elsewhere: str,
) -> None:
    """The panel, its title (and where the reasons are, when they are not here) and the
    rows as planned, every other row of a column shaded."""
    paint.panel(surface, area, edge=edge, edge_width=s(3))
    title, body = title_and_rows(area, s)
    px = s.at_least(TITLE_PX, Tier.DETAIL)
    least = s.least(Tier.DETAIL)
    if elsewhere:
        title = _elsewhere(surface, title, table.title, elsewhere, px, least, s)
    if title.width > 0:
        paint.line(surface, table.title, title, px, theme.GOLD, "left", least)
    if not table.lines or body.height <= 0:
        return
    laid = plan(area.size, table, s, rabbits)
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
    """One scorer's row: colour, name, the storyteller's book, total, points and the
    reasons beside them."""
    inside = box.inflate(0, -s(6))
    first = pygame.Rect(inside.x, inside.y, inside.width, fonts.line_height(laid.points_px))
    chip = chip_side(first.height)
    swatch = pygame.Rect(box.x + 2, first.centery - chip // 2, chip, chip)
    paint.swatch(surface, swatch, scored.colours)
    x = box.x + swatch_room(laid.points_px, s)
    with typescale.tier(Tier.SEAT):
        _name_and_points(surface, first, x, chip, row, laid, scored, rabbit, s)
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


def _name_and_points(
    surface: pygame.Surface,
    first: pygame.Rect,
    x: int,
    chip: int,
    row: Row,
    laid: Plan,
    scored: ScoreLine,
    rabbit: Standing | None,
    s: Scale,
) -> None:
    """A row's name, book, total and points, on its first line from `x` on."""
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


def _elsewhere(
    surface: pygame.Surface,
    line: pygame.Rect,
    title: str,
    elsewhere: str,
    px: int,
    least: int,
    s: Scale,
) -> pygame.Rect:
    """`elsewhere` at the right of the title's `line`; the room left for the title,
    none when the two do not both fit whole (the headline names the round)."""
    size = fonts.fitting_size(elsewhere, line.width, px, least)
    used = fonts.width(elsewhere, size)
    paint.line(surface, elsewhere, line, size, theme.TEXT, "right", size)
    room = line.width - used - s(16)
    if fonts.width(title, least) > room:
        return pygame.Rect(line.x, line.y, 0, line.height)
    return pygame.Rect(line.x, line.y, room, line.height)
