"""How the surface is cut up: the header on top, the buttons along the bottom, and
the body between them that each phase divides further.
"""

from dataclasses import dataclass

import pygame

from companion.display import header
from companion.display.theme import Scale

BUTTON_HEIGHT = 74
"""Design height of the button row: about a finger's width on the 7" screen."""
TRACK_HEIGHT = 236
"""Design height of the scoring track's two rows."""
COMPACT_TRACK_HEIGHTS = (168, 120)
"""Lower design heights the track steps down to, in turn, when a round's points need
the room (their table then shows every total): a few fixed steps, so that the track
does not change size with every proposal."""
MARGIN = 12
"""Design space between the screen's edges and what is drawn."""
GAP = 10
"""Design space between parts."""


@dataclass(frozen=True)
class Frame:
    """The parts every screen has."""

    header: pygame.Rect
    body: pygame.Rect
    buttons: pygame.Rect | None
    """None when the screen has no buttons; the body then reaches the bottom."""
    gap: int
    """The space between parts."""


def frame(
    size: tuple[int, int],
    s: Scale,
    has_buttons: bool,
    headline: str = "",
    seat_sized: bool = False,
) -> Frame:
    """The header, body and button row of a surface of `size`; `seat_sized`, the
    header as high as `headline` needs at the seat's size (see `header.height`)."""
    width, height = size
    margin = s(MARGIN)
    gap = s(GAP)
    room = width - 2 * margin - header.height(s, seat_sized=seat_sized) - s(12)
    high = header.height(s, headline, room, seat_sized)
    top = pygame.Rect(margin, margin, width - 2 * margin, high)
    bottom = height - margin
    buttons = None
    if has_buttons:
        buttons = pygame.Rect(
            margin, bottom - s(BUTTON_HEIGHT), width - 2 * margin, s(BUTTON_HEIGHT)
        )
        bottom = buttons.y - gap
    body = pygame.Rect(margin, top.bottom + gap, width - 2 * margin, bottom - top.bottom - gap)
    return Frame(top, body, buttons, gap)


def split_columns(area: pygame.Rect, shares: tuple[float, ...], gap: int) -> list[pygame.Rect]:
    """`area` cut into side-by-side columns with these shares of its width."""
    room = area.width - gap * (len(shares) - 1)
    total = sum(shares)
    columns = []
    x = area.x
    for i, share in enumerate(shares):
        right = area.right if i == len(shares) - 1 else x + round(room * share / total)
        columns.append(pygame.Rect(x, area.y, right - x, area.height))
        x = right + gap
    return columns


def split_top(area: pygame.Rect, height: int, gap: int) -> tuple[pygame.Rect, pygame.Rect]:
    """`area` cut into a band `height` high and what is below it."""
    height = min(height, area.height)
    band = pygame.Rect(area.x, area.y, area.width, height)
    rest_top = band.bottom + gap
    rest = pygame.Rect(area.x, rest_top, area.width, max(0, area.bottom - rest_top))
    return band, rest


def split_right(area: pygame.Rect, width: int, gap: int) -> tuple[pygame.Rect, pygame.Rect]:
    """`area` less a column `width` wide at its right, and that column."""
    width = min(width, area.width)
    column = pygame.Rect(area.right - width, area.y, width, area.height)
    rest = pygame.Rect(area.x, area.y, max(0, column.x - gap - area.x), area.height)
    return rest, column


def strip(size: tuple[int, int], width: int, s: Scale) -> tuple[pygame.Rect, pygame.Rect]:
    """A surface of `size` cut for a strip `width` wide down its right edge: the part
    where the screen is drawn as usual (its own margin is the gap to the strip), and
    the strip, within the surface's margins."""
    full_width, height = size
    margin, gap = s(MARGIN), s(GAP)
    column = pygame.Rect(full_width - margin - width, margin, width, height - 2 * margin)
    rest = pygame.Rect(0, 0, max(0, column.x - gap + margin), height)
    return rest, column
