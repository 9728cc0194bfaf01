"""Parts of the screen kept drawn from one frame to the next.

The loop builds a new view every frame, but the header, the scoreboard, the points
and the notices stay the same for seconds at a time. Each is drawn once onto its
own opaque surface, keyed by everything it shows and its size, and afterwards only
copied: a frame then costs a few blits, which keeps the Pi well within its budget.
"""

import functools
from collections.abc import Callable, Hashable

import pygame

from companion.display import theme, typescale

Painter = Callable[..., None]
"""Draws into (surface, rect, *what it shows)."""
PARTS_KEPT = 12
"""Drawn parts kept: a screen has about five, and going back and forth between two
screens finds both kept."""


@functools.lru_cache(maxsize=PARTS_KEPT)
def _drawn(painter: Painter, size: tuple[int, int], shown: tuple[Hashable, ...]) -> pygame.Surface:
    surface = pygame.Surface(size)
    surface.fill(theme.BACKGROUND)
    painter(surface, pygame.Rect((0, 0), size), *shown)
    return surface


def draw(surface: pygame.Surface, area: pygame.Rect, painter: Painter, *shown: Hashable) -> None:
    """What `painter` draws of `shown` in `area`, drawn only when not kept already;
    `painter` must depend on nothing but its arguments. While a
    `typescale.recording` is open, it is drawn anew so that its text is reported."""
    if area.width <= 0 or area.height <= 0:
        return
    if typescale.is_recording():
        surface.blit(_drawn.__wrapped__(painter, area.size, shown), area.topleft)
        return
    surface.blit(_drawn(painter, area.size, shown), area.topleft)
