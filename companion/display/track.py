"""The scoring track: spaces 0 to 30 as a two-row snake, like the board's own path,
with the rabbits standing on it.

The first row runs 0 to 15 left to right and the second comes back 16 to 30, so a
moving rabbit never jumps across the screen. A rabbit past the finish stays on it,
with a gold ring round its head and its total in a gold tag beneath (the winner is
seen at the finish, not back at the start). Each rabbit carries a label no other
rabbit at the table has (`rabbit.labels`). Rabbits sharing a space are
laid out side by side and row by row inside it, each keeping its colour and
initials, and a crowded space is drawn wider (its neighbours narrower), so all
twelve on space 0 can still be told apart.

The empty track depends only on its size, the target and the column widths, so it
is drawn once and reused until a rabbit moves.
"""

import functools
import math
from collections import defaultdict
from dataclasses import dataclass

import pygame

from companion.display import fonts, paint, rabbit, theme, typescale
from companion.display.hitmap import Box, box
from companion.display.typescale import Tier
from companion.display.view import Rabbit
from companion.track import TRACK_LENGTH, lapped

COLUMNS = TRACK_LENGTH // 2 + 1
"""Spaces per row: 0 to 15 on the first row, 16 to 30 back on the second."""


START_UPPER_HALF = 0.8
"""Rabbits on the start space keep to its upper half while that leaves them at least
this share of the size the whole height would give."""


def crowd_width(rabbits: float) -> float:
    """The width of a space holding this many rabbits, in plain spaces' widths: it
    grows with the square root of the crowd, so a crowd gets room to stand side by
    side instead of shrinking to dots, while the other spaces stay readable."""
    return max(1.0, math.sqrt(max(rabbits, 0.0)))


def column_of(space: int) -> tuple[int, int]:
    """The row and column of `space` in the snake."""
    return (0, space) if space < COLUMNS else (1, TRACK_LENGTH + 1 - space)


@dataclass(frozen=True)
class Track:
    """Where each space of the track is drawn."""

    area: Box
    """The whole track."""
    edges: tuple[int, ...]
    """The left edge of every column, and the right edge of the last."""

    def cell(self, space: int) -> pygame.Rect:
        """The rectangle of `space` (0 to 30). Space 0, the start, is as high as both
        rows: the second row ends one column short of it, and the whole field
        stands there at the start of a game."""
        _, y, _, height = self.area
        gap = max(2, height // 60)
        row, column = column_of(space)
        row_height = (height - gap) // 2
        left, right = self.edges[column], self.edges[column + 1]
        tall = space == 0
        return pygame.Rect(
            left,
            y + row * (row_height + gap),
            right - left - gap,
            2 * row_height + gap if tall else row_height,
        )


def place(area: pygame.Rect, positions: tuple[float, ...]) -> Track:
    """The track in `area`, its columns widened where rabbits crowd together; the
    widths follow the rabbits smoothly while they move."""
    crowd = [0.0] * (TRACK_LENGTH + 1)
    for position in positions:
        where = lapped(position)[1]
        low = min(int(where), TRACK_LENGTH)
        share = where - low
        crowd[low] += 1.0 - share
        crowd[min(low + 1, TRACK_LENGTH)] += share
    weights = [1.0] * COLUMNS
    for space, count in enumerate(crowd):
        column = column_of(space)[1]
        room = 2.0 if space == 0 else 1.0
        weights[column] = max(weights[column], crowd_width(count / room))
    total = sum(weights)
    edges = [area.x]
    running = 0.0
    for weight in weights:
        running += weight
        edges.append(area.x + round(area.width * running / total))
    return Track(box(area), tuple(edges))


def _number_px(area: pygame.Rect) -> int:
    return max(8, min(area.height // 9, area.width // COLUMNS // 2))


def _footing(space_rect: pygame.Rect, number_px: int) -> pygame.Rect:
    """Where rabbits stand in a space: below its number (number_px 0: no number)."""
    top = fonts.line_height(number_px) if number_px else 2
    inner = space_rect.inflate(-4, -4)
    return pygame.Rect(inner.x, space_rect.y + top, inner.width, space_rect.height - top - 2)


@functools.lru_cache(maxsize=4)
def _empty_track(
    size: tuple[int, int], target: int | None, edges: tuple[int, ...], numbered: bool = True
) -> pygame.Surface:
    """The track without rabbits, drawn at (0, 0); `edges` are relative to it; the
    spaces' numbers only when `numbered`."""
    area = pygame.Rect((0, 0), size)
    spaces = Track(box(area), edges)
    surface = pygame.Surface(size)
    surface.fill(theme.BACKGROUND)
    px = _number_px(area) if numbered else 0
    joint = spaces.cell(COLUMNS - 1).union(spaces.cell(COLUMNS))
    pygame.draw.rect(surface, theme.CELL, joint.inflate(-joint.width // 3, 0), border_radius=6)
    goal = None if target is None else lapped(target)
    for space in range(TRACK_LENGTH + 1):
        rect = spaces.cell(space)
        fill = theme.CELL_ALT if space % 5 == 0 else theme.CELL
        paint.panel(surface, rect, fill, radius=max(3, min(rect.width, rect.height) // 10))
        colour = theme.TEXT if space % 5 == 0 else theme.MUTED
        mark = px or max(8, rect.width // 3)
        number = pygame.Rect(rect.x + 4, rect.y + 1, rect.width - 8, fonts.line_height(mark))
        if goal is not None and round(goal[1]) == space:
            pygame.draw.rect(surface, theme.GOLD, rect, width=max(2, mark // 6), border_radius=6)
            number.width -= _goal_mark(surface, rect, mark, target if goal[0] else None)
            colour = theme.GOLD
        if px:
            paint.line(surface, str(space), number, px, colour, "left", px // 2)
    return surface


def _goal_mark(surface: pygame.Surface, rect: pygame.Rect, px: int, laps: int | None) -> int:
    """The winning score's mark at the top right of its space: a flag, or for a
    target past 30 a gold tag with the target on it; returns the width it takes."""
    if laps is None:
        flag_box = pygame.Rect(0, 0, px, px)
        flag_box.topright = (rect.right - 4, rect.y + 3)
        paint.flag(surface, flag_box)
        return px + 4
    words = fonts.fit(str(laps), rect.width // 2, px * 4 // 5, theme.INK, px // 2)
    tag = words.get_rect().inflate(px // 3, 2)
    tag.topright = (rect.right - 4, rect.y + 3)
    paint.panel(surface, tag, theme.GOLD, radius=tag.height // 3)
    surface.blit(words, words.get_rect(center=tag.center))
    return tag.width + 4


def shown_at(position: float) -> float:
    """Where a rabbit at `position` stands on the screen's track: where it is, or the
    finish for a rabbit past it."""
    return min(max(position, 0.0), float(TRACK_LENGTH))


def draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    rabbits: tuple[Rabbit, ...],
    target: int | None,
    least: int = 0,
) -> None:
    """The track in `area` with every rabbit on it; the spaces' numbers are details,
    left out when the track is too small to draw them at `least` or larger (every
    fifth space is shaded, as on the board, and the scoreboard gives the totals)."""
    spaces = place(area, tuple(shown_at(r.position) for r in rabbits))
    relative = tuple(edge - area.x for edge in spaces.edges)
    numbered = _number_px(area) >= least
    empty = _empty_track.__wrapped__ if typescale.is_recording() else _empty_track
    with typescale.tier(Tier.DETAIL):
        surface.blit(empty(area.size, target, relative, numbered), area.topleft)
    px = _number_px(area) if numbered else 0
    named = rabbit.labels(tuple(r.name for r in rabbits))
    groups: dict[int, list[tuple[Rabbit, str]]] = defaultdict(list)
    for scorer, label in zip(rabbits, named, strict=True):
        groups[round(shown_at(scorer.position))].append((scorer, label))
    with typescale.tier(Tier.SEAT):
        for space in sorted(groups):
            _draw_group(surface, spaces, space, groups[space], px)


@functools.lru_cache(maxsize=64)
def _grid(count: int, room: tuple[int, int]) -> tuple[int, int, int]:
    """Columns and rows that give `count` rabbits in `room` the largest size, and
    that size (the head radius)."""
    best = (1, count, -1)
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        look = rabbit.look_for((room[0] // columns, room[1] // rows), (), "")
        if look.radius > best[2]:
            best = (columns, rows, look.radius)
    return best


def _standing_room(spaces: Track, space: int, count: int, px: int, below: int = 0) -> pygame.Rect:
    """Where `count` rabbits stand on `space`: below its number (and above a badge
    `below` high at its foot); on the tall start space in its upper half (beside
    space 1, away from 30) unless the crowd needs the whole height to stay large."""
    footing = _footing(spaces.cell(space), px)
    home = pygame.Rect(footing.x, footing.y, footing.width, max(1, footing.height - below))
    if space != 0:
        return home
    upper = pygame.Rect(home.x, home.y, home.width, spaces.cell(1).bottom - home.y)
    if _grid(count, upper.size)[2] >= START_UPPER_HALF * _grid(count, home.size)[2]:
        return upper
    return home


def _draw_group(
    surface: pygame.Surface,
    spaces: Track,
    space: int,
    members: list[tuple[Rabbit, str]],
    px: int,
) -> None:
    """The rabbits on one space, each with its label; a rabbit past the finish stands
    on it with a gold ring round its head and its total in a gold tag beneath."""
    here = spaces.cell(space)
    past = any(scorer.position > TRACK_LENGTH for scorer, _ in members)
    tag_px = px or max(8, here.height // 5)
    below = fonts.line_height(tag_px) + 2 if past else 0
    home = _standing_room(spaces, space, len(members), px, below)
    columns, rows, _ = _grid(len(members), home.size)
    box_w, box_h = home.width // columns, home.height // rows
    for k, (scorer, label) in enumerate(members):
        where = shown_at(scorer.position)
        shift = where - space
        step = spaces.cell(min(max(space + (1 if shift >= 0 else -1), 0), TRACK_LENGTH))
        dx = (step.centerx - here.centerx) * abs(shift)
        dy = (step.centery - here.centery) * abs(shift)
        column, row = k % columns, k // columns
        in_row = min(columns, len(members) - row * columns)
        left = home.x + (home.width - in_row * box_w) // 2 + column * box_w
        top = home.y + (home.height - rows * box_h) // 2 + row * box_h
        slot = pygame.Rect(left + round(dx), top + round(dy), box_w, box_h)
        look = rabbit.look_for(slot.size, scorer.colours, scorer.name, label)
        picture = rabbit.sprite(look)
        spot = picture.get_rect(center=slot.center)
        surface.blit(picture, spot)
        typescale.report(label, label, rabbit.label_px(look), False)
        if scorer.position > TRACK_LENGTH:
            ring = rabbit.outline_width(look.radius)
            head = (spot.centerx, spot.bottom - 2 * ring - look.radius)
            width = max(2, look.radius // 5)
            pygame.draw.circle(surface, theme.GOLD, head, look.radius + 2 * ring, width=width)
            _total_tag(surface, spot.centerx, here, scorer.total, tag_px, box_w)


def _total_tag(
    surface: pygame.Surface, centre: int, cell: pygame.Rect, total: int, px: int, room: int
) -> None:
    """The total of a rabbit past the finish, in a gold tag at the foot of the space."""
    words = str(total)
    tag = pygame.Rect(0, 0, min(room, fonts.width(words, px) + px // 3), fonts.line_height(px))
    tag.midbottom = (centre, cell.bottom - 2)
    paint.panel(surface, tag, theme.GOLD, theme.INK, 1, radius=tag.height // 2)
    paint.line(surface, words, tag, px, theme.INK, "center", px)
