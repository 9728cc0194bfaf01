"""The on-screen buttons along the bottom: large enough for a finger, coloured by
what they do, greyed out (and not touchable) when disabled.
"""

import pygame

from companion.actions import Action, Press
from companion.colours import RGB
from companion.display import paint, theme
from companion.display.hitmap import Box, box
from companion.display.theme import Scale
from companion.display.view import OnScreenButton

FILLS: dict[Action, RGB] = {
    Action.CONFIRM: (28, 128, 64),
    Action.UNDO: (150, 84, 20),
    Action.BACK: (90, 96, 112),
    Action.QUIT: (120, 40, 48),
}
"""Button colours by action; the rest are blue."""
PLAIN: RGB = (44, 88, 170)
DISABLED_FILL: RGB = (40, 44, 54)
WIDEST = 340
"""Design width above which buttons stop growing, so two buttons are not a wall."""


def draw(
    surface: pygame.Surface, area: pygame.Rect, buttons: tuple[OnScreenButton, ...], s: Scale
) -> list[tuple[Box, Press]]:
    """The buttons in `area`, left to right; returns the enabled ones' areas."""
    if not buttons:
        return []
    gap = s(12)
    width = min(s(WIDEST), (area.width - gap * (len(buttons) - 1)) // len(buttons))
    x = area.centerx - (width * len(buttons) + gap * (len(buttons) - 1)) // 2
    hits: list[tuple[Box, Press]] = []
    for button in buttons:
        rect = pygame.Rect(x, area.y, width, area.height)
        if button.enabled:
            fill = FILLS.get(button.action, PLAIN)
            paint.panel(surface, rect, fill, theme.CHALK, s(2), radius=s(12))
            colour = theme.TEXT
            hits.append((box(rect), Press(button.action)))
        else:
            paint.panel(surface, rect, DISABLED_FILL, theme.PANEL_EDGE, 1, radius=s(12))
            colour = theme.DIM
        label = rect.inflate(-2 * s(10), 0)
        paint.line(surface, button.label, label, s(34), colour, "center", s(16))
        x += width + gap
    return hits
