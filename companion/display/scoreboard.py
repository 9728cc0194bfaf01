"""The scoreboard: every scorer's colour, name and total, the storyteller marked
with a book. Rows share the height they are given; when rows would be lower than a
line of the seat's size, the list runs on in a second or third column (`fits` says
whether a panel holds every row so). All names
are drawn at one size, never below the seat's tier of type (`typescale`); a name
too long for its row ("Maximilien-Alexandre + Hélène") wraps to a second line when
the row is high enough, else the names get smaller, and only a name too long even
then is cut short.
"""

import functools
import math
import re
from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import cache, fonts, paint, theme, typescale
from companion.display.theme import Scale
from companion.display.typescale import Tier
from companion.display.view import Rabbit

LARGEST_ROW = 48
"""Design row height: rows never grow past it (unless the seat's size needs more)."""
WIDEST_COLUMN = 560
"""Design width past which a column does not grow: totals stay near their names."""
LEAST_PX = 17
"""Design size below which names and totals are not drawn (the seat's tier of type is
larger on every listed screen)."""
AFTER_HYPHEN = re.compile(r"(?<=-)")
"""Where a name too wide for a line may break inside a word: after a hyphen."""


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
    with typescale.tier(Tier.SEAT):
        cache.draw(surface, area, _draw, standings(rabbits), s)


MOST_COLUMNS = 3
"""Rows run on in at most this many columns."""


@dataclass(frozen=True)
class Board:
    """How the scoreboard is laid out in its panel."""

    columns: int
    per_column: int
    row_height: int
    width: int
    """Of a column."""
    px: int
    """The size of the totals."""
    name_px: int
    lines: tuple[tuple[str, ...], ...]
    """Each name's lines."""
    whole: bool
    """Whether every row is drawn at the seat's size at least, every name whole."""


def fits(rabbits: tuple[Standing, ...], size: tuple[int, int], s: Scale) -> bool:
    """Whether a panel of `size` shows every row at the seat's size, names whole."""
    return _board(rabbits, size, s).whole


@functools.lru_cache(maxsize=64)
def _board(rabbits: tuple[Standing, ...], size: tuple[int, int], s: Scale) -> Board:
    """The fewest columns (up to `MOST_COLUMNS`) whose rows are at least a line of the
    seat's size high and hold every name whole; else the fewest columns whose rows
    come closest to that height, names cut short."""
    inner_width, inner_height = size[0] - 2 * s(10), size[1] - 2 * s(8)
    tried = [_laid(rabbits, inner_width, inner_height, c, s) for c in range(1, MOST_COLUMNS + 1)]
    whole = [board for board in tried if board.whole]
    if whole:
        return whole[0]
    seat = fonts.line_height(s.at_least(LEAST_PX, Tier.SEAT))
    return max(tried, key=lambda board: (min(board.row_height, seat), -board.columns))


def _laid(
    rabbits: tuple[Standing, ...], inner_width: int, inner_height: int, columns: int, s: Scale
) -> Board:
    gap = s(24)
    count = max(1, len(rabbits))
    columns = min(columns, count)
    per_column = math.ceil(count / columns)
    seat = s.at_least(LEAST_PX, Tier.SEAT)
    row_height = max(
        1, min(max(s(LARGEST_ROW), fonts.line_height(seat)), inner_height // per_column)
    )
    width = min(s(WIDEST_COLUMN), (inner_width - gap * (columns - 1)) // columns)
    px = max(seat, min(round(row_height * 0.8), s(LARGEST_ROW)))
    while px > 4 and fonts.line_height(px) > row_height:  # rows too low: drawn smaller
        px -= 1
    chip = max(6, round(min(row_height, fonts.line_height(px)) * 0.6))
    total_width = fonts.width("88", px) + s(4)
    mark_width = chip * 4 // 3 + s(8) if any(r.storyteller for r in rabbits) else 0
    name_width = width - chip - s(12) - mark_width - total_width - s(8)
    names = tuple(r.name for r in rabbits)
    name_px, lines = _names(names, name_width, row_height, px, s)
    high_enough = fonts.line_height(seat) <= row_height
    whole = (
        high_enough
        and name_px >= seat
        and all(fonts.width(line, name_px) <= name_width for name in lines for line in name)
        and all(len(name) * fonts.line_height(name_px) <= row_height for name in lines)
    )
    return Board(columns, per_column, row_height, width, px, name_px, lines, whole)


def _draw(
    surface: pygame.Surface, area: pygame.Rect, rabbits: tuple[Standing, ...], s: Scale
) -> None:
    paint.panel(surface, area)
    inner = area.inflate(-2 * s(10), -2 * s(8))
    if not rabbits or inner.height <= 0:
        return
    board = _board(rabbits, area.size, s)
    gap = s(24)
    px, name_px, lines, width = board.px, board.name_px, board.lines, board.width
    row_height = board.row_height
    chip = max(6, round(min(row_height, fonts.line_height(px)) * 0.6))
    total_width = fonts.width("88", px) + s(4)
    mark_width = chip * 4 // 3 + s(8) if any(r.storyteller for r in rabbits) else 0
    name_width = width - chip - s(12) - mark_width - total_width - s(8)
    for i, scorer in enumerate(rabbits):
        column, place = i // board.per_column, i % board.per_column
        row = pygame.Rect(
            inner.x + column * (width + gap), inner.y + place * row_height, width, row_height
        )
        if scorer.storyteller:
            paint.panel(surface, row.inflate(s(8), 0), theme.HIGHLIGHT, radius=s(6))
        swatch = pygame.Rect(row.x + 2, row.centery - chip // 2, chip, chip)
        paint.swatch(surface, swatch, scorer.colours)
        step = fonts.line_height(name_px)
        top = row.y + (row.height - step * len(lines[i])) // 2
        for k, words in enumerate(lines[i]):
            name = pygame.Rect(swatch.right + s(12), top + k * step, name_width, step)
            paint.line(surface, words, name, name_px, theme.TEXT, "left", name_px)
        total = pygame.Rect(row.right - total_width, row.y, total_width, row.height)
        paint.line(surface, str(scorer.total), total, px, theme.TEXT, "right", px)
        if scorer.storyteller:
            mark = pygame.Rect(0, 0, chip * 4 // 3, chip)
            mark.midright = (total.x - s(8), row.centery)
            paint.book(surface, mark)


@functools.lru_cache(maxsize=fonts.TEXT_CACHE)
def name_lines(name: str, width: int, px: int, most: int) -> tuple[str, ...] | None:
    """`name` in at most `most` lines `width` wide at size `px`, broken between words,
    or after a hyphen inside a name too wide for a line ("Maximilien-" "Alexandre");
    None when it does not fit so."""
    pieces: list[tuple[str, bool]] = []
    """Each piece, and whether it joins the one before without a space."""
    for word in fonts.breakable_words(name):
        parts = [word] if fonts.width(word, px) <= width else AFTER_HYPHEN.split(word)
        pieces += [(part, k > 0) for k, part in enumerate(parts) if part]
    lines: list[str] = []
    current = ""
    for piece, joined in pieces:
        longer = current + piece if joined else f"{current} {piece}".lstrip()
        if current and fonts.width(longer, px) > width:
            lines.append(current)
            current = piece
        else:
            current = longer
    lines.append(current)
    if len(lines) > most or any(fonts.width(line, px) > width for line in lines):
        return None
    return tuple(lines)


def _names(
    names: tuple[str, ...], width: int, row_height: int, px: int, s: Scale
) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """The size of the names and each name's lines: one line each at the largest size
    down to three quarters of `px`; below that, at each size down to the least, one
    line each or else the long names on two lines, if the rows hold two; else one
    line each at the least size, the longest cut short."""
    least = min(px, s.at_least(LEAST_PX, Tier.SEAT))
    size = fonts.common_size(names, width, px, max(least, px * 3 // 4))
    for smaller in range(size, least - 1, -1):
        if all(fonts.width(name, smaller) <= width for name in names):
            return smaller, tuple((name,) for name in names)
        if 2 * fonts.line_height(smaller) <= row_height:
            wrapped = [name_lines(name, width, smaller, 2) for name in names]
            if all(lines is not None for lines in wrapped):
                return smaller, tuple(lines or () for lines in wrapped)
    return least, tuple((name,) for name in names)
