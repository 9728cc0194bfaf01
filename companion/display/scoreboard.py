"""The scoreboard: every scorer's colour, name and total, the storyteller marked
with a book. Rows share the height they are given, so twelve players fit; when rows
would get small and there is room, the list runs on in a second column. All names
are drawn at one size, and only names too long even at the smallest are cut short.
"""

import math
from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import cache, fonts, paint, theme
from companion.display.theme import Scale
from companion.display.view import Rabbit

LARGEST_ROW = 48
COMFORTABLE_ROW = 34
"""Design row heights: rows never grow past the first, and a second column is
used when they would be lower than the second."""
WIDEST_COLUMN = 560
"""Design width past which a column does not grow: totals stay near their names."""


@dataclass(frozen=True)
class Standing:
    """What the scoreboard shows of a scorer: everything but where the rabbit is
    while it moves, so the board is not redrawn for every step."""

    name: str
    colours: tuple[RGB, ...]
    total: int
    storyteller: bool


def standings(rabbits: tuple[Rabbit, ...]) -> tuple[Standing, ...]:
    """The scoreboard's rows for `rabbits`."""
    return tuple(Standing(r.name, r.colours, r.total, r.storyteller) for r in rabbits)


def draw(surface: pygame.Surface, area: pygame.Rect, rabbits: tuple[Rabbit, ...], s: Scale) -> None:
    """The scoreboard in `area`."""
    cache.draw(surface, area, _draw, standings(rabbits), s)


def _draw(
    surface: pygame.Surface, area: pygame.Rect, rabbits: tuple[Standing, ...], s: Scale
) -> None:
    paint.panel(surface, area)
    inner = area.inflate(-2 * s(10), -2 * s(8))
    if not rabbits or inner.height <= 0:
        return
    gap = s(24)
    two = inner.height // len(rabbits) < s(COMFORTABLE_ROW) and inner.width >= 2 * s(240)
    columns = 2 if two else 1
    per_column = math.ceil(len(rabbits) / columns)
    row_height = min(s(LARGEST_ROW), inner.height // per_column)
    width = min(s(WIDEST_COLUMN), (inner.width - gap * (columns - 1)) // columns)
    px = max(s(12), round(row_height * 0.8))
    chip = max(6, round(row_height * 0.6))
    total_width = fonts.width("88", px) + s(4)
    mark_width = chip * 4 // 3 + s(8) if any(r.storyteller for r in rabbits) else 0
    name_width = width - chip - s(12) - mark_width - total_width - s(8)
    names = tuple(r.name for r in rabbits)
    name_px = fonts.common_size(names, name_width, px, max(s(12), px * 3 // 4))
    for i, scorer in enumerate(rabbits):
        column, place = i // per_column, i % per_column
        row = pygame.Rect(
            inner.x + column * (width + gap), inner.y + place * row_height, width, row_height
        )
        if scorer.storyteller:
            paint.panel(surface, row.inflate(s(8), 0), theme.HIGHLIGHT, radius=s(6))
        swatch = pygame.Rect(row.x + 2, row.centery - chip // 2, chip, chip)
        paint.swatch(surface, swatch, scorer.colours)
        name = pygame.Rect(swatch.right + s(12), row.y, name_width, row.height)
        paint.line(surface, scorer.name, name, name_px, theme.TEXT, "left", name_px)
        total = pygame.Rect(row.right - total_width, row.y, total_width, row.height)
        paint.line(surface, str(scorer.total), total, px, theme.TEXT, "right", px // 2)
        if scorer.storyteller:
            mark = pygame.Rect(0, 0, chip * 4 // 3, chip)
            mark.midright = (total.x - s(8), row.centery)
            paint.book(surface, mark)
