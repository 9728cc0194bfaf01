"""Where on the last drawn frame a click or touch means which press.

Drawing returns the map, so the areas are exactly the ones players saw; nothing is
worked out a second time for input.
"""

from dataclasses import dataclass

import pygame

from companion.actions import Press

Box = tuple[int, int, int, int]
"""x, y, width, height in surface pixels."""


def box(rect: pygame.Rect) -> Box:
    """`rect` as a plain, unchangeable tuple."""
    return (rect.x, rect.y, rect.width, rect.height)


@dataclass(frozen=True)
class HitMap:
    """The touchable areas of a frame, each with the press it makes."""

    areas: tuple[tuple[Box, Press], ...] = ()
    """Areas in drawing order; later ones lie on top."""

    def press_at(self, x: float, y: float) -> Press | None:
        """The press for a touch at (x, y), or None where nothing can be touched."""
        for (left, top, w, h), press in reversed(self.areas):
            if left <= x < left + w and top <= y < top + h:
                return press
        return None

    def presses(self) -> tuple[Press, ...]:
        """Every press the frame offers."""
        return tuple(press for _, press in self.areas)

    def box_of(self, press: Press) -> Box | None:
        """The area that makes `press`, or None when the frame does not offer it."""
        for area, offered in self.areas:
            if offered == press:
                return area
        return None
