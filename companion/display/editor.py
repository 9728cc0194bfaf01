"""The round editor: rows of what the round holds (round, cards, votes, trap), the
selected one highlighted with arrows for the left and right keys; beside them what
is wrong in red and the score the round would get. Touching a row selects it.

Rows are as large as the screen allows, in two columns when there are many; only
when even that does not fit does the list show a window around the selected row.
"""

import math

import pygame

from companion.actions import Action, Press
from companion.display import breakdown, fonts, layout, paint, theme
from companion.display.hitmap import Box, box
from companion.display.theme import Scale
from companion.display.view import EditorRow, EditorView

LARGEST_ROW = 44
SMALLEST_ROW = 28
"""Design heights of an editor row."""


def draw(
    surface: pygame.Surface, body: pygame.Rect, editor: EditorView, s: Scale, gap: int
) -> list[tuple[Box, Press]]:
    """The editor in `body`; returns the visible rows as picks."""
    left, right = layout.split_columns(body, (0.62, 0.38), gap)
    title = pygame.Rect(left.x, left.y, left.width, fonts.line_height(s(32)))
    paint.line(surface, editor.title, title, s(32), theme.GOLD, "left", s(18))
    rows = pygame.Rect(left.x, title.bottom + s(6), left.width, left.bottom - title.bottom - s(6))
    hits = _rows(surface, rows, editor.rows, s, gap)
    _verdict(surface, right, editor, s, gap)
    return hits


def window(count: int, selected: int, capacity: int) -> range:
    """The rows shown: all when they fit, else `capacity` rows around `selected`."""
    if count <= capacity:
        return range(count)
    start = min(max(selected - capacity // 2, 0), count - capacity)
    return range(start, start + capacity)


def _rows(
    surface: pygame.Surface,
    area: pygame.Rect,
    rows: tuple[EditorRow, ...],
    s: Scale,
    gap: int,
) -> list[tuple[Box, Press]]:
    paint.panel(surface, area)
    inner = area.inflate(-2 * s(8), -2 * s(8))
    if not rows or inner.height <= 0:
        return []
    columns = 1 if len(rows) * s(SMALLEST_ROW + 4) <= inner.height else 2
    per_column = math.ceil(len(rows) / columns)
    row_height = max(s(SMALLEST_ROW), min(s(LARGEST_ROW), inner.height // per_column))
    fits = max(1, inner.height // row_height)
    selected = next((i for i, row in enumerate(rows) if row.selected), 0)
    shown = window(len(rows), selected, fits * columns)
    per_column = math.ceil(len(shown) / columns)
    width = (inner.width - gap * (columns - 1)) // columns
    px = max(s(12), round(row_height * 0.72))
    label_width = (width - 2 * s(10)) * 55 // 100 - s(8)
    value_width = (width - 2 * s(10)) * 45 // 100 - 2 * (max(6, px // 2) + s(4))
    sizes = (
        fonts.common_size(tuple(rows[i].label for i in shown), label_width, px, px * 4 // 5),
        fonts.common_size(tuple(rows[i].value for i in shown), value_width, px, px * 4 // 5),
    )
    hits: list[tuple[Box, Press]] = []
    for k, index in enumerate(shown):
        column, place = k // per_column, k % per_column
        rect = pygame.Rect(
            inner.x + column * (width + gap), inner.y + place * row_height, width, row_height
        )
        _row(surface, rect, rows[index], sizes, s)
        hits.append((box(rect), Press(Action.PICK, index)))
    return hits


def _row(
    surface: pygame.Surface, rect: pygame.Rect, row: EditorRow, sizes: tuple[int, int], s: Scale
) -> None:
    label_px, value_px = sizes
    if row.selected:
        paint.panel(surface, rect, theme.HIGHLIGHT, theme.GOLD, s(3), radius=s(6))
    inner = rect.inflate(-2 * s(10), 0)
    value_width = inner.width * 45 // 100
    value = pygame.Rect(inner.right - value_width, inner.y, value_width, inner.height)
    label = pygame.Rect(inner.x, inner.y, value.x - inner.x - s(8), inner.height)
    colour = theme.TEXT if row.selected else theme.MUTED
    paint.line(surface, row.label, label, label_px, colour, "left", label_px // 2)
    arrow = max(6, max(label_px, value_px) // 2)
    if row.selected:
        _arrow(surface, (value.x + arrow // 2, value.centery), arrow, -1)
        _arrow(surface, (value.right - arrow // 2, value.centery), arrow, 1)
    value = value.inflate(-2 * (arrow + s(4)), 0)
    paint.line(surface, row.value, value, value_px, theme.TEXT, "center", value_px // 2)


def _arrow(surface: pygame.Surface, centre: tuple[int, int], size: int, pointing: int) -> None:
    x, y = centre
    half = size // 2
    tip = (x + pointing * half, y)
    pygame.draw.polygon(
        surface,
        theme.GOLD,
        [tip, (x - pointing * half, y - size * 2 // 3), (x - pointing * half, y + size * 2 // 3)],
    )


def _verdict(
    surface: pygame.Surface, area: pygame.Rect, editor: EditorView, s: Scale, gap: int
) -> None:
    rest = area
    if editor.problems:
        wanted = len(editor.problems) * fonts.line_height(s(24)) + s(24)
        box_height = min(wanted, area.height // 2 if editor.preview else area.height)
        problems, rest = layout.split_top(area, box_height, gap)
        paint.panel(surface, problems, theme.ALARM_FILL, theme.RED, s(3))
        inner = problems.inflate(-2 * s(12), -2 * s(8))
        paint.paragraphs(surface, editor.problems, inner, s(24), s(15), theme.TEXT)
    if editor.preview is not None and rest.height > 0:
        breakdown.draw(surface, rest, editor.preview, s)
    elif not editor.problems:
        paint.panel(surface, area)
