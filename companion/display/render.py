"""Drawing a `ScreenView` onto any surface, and saying where it can be touched.

`render` is pure drawing: it reads the view and the surface size and nothing else,
so the same call serves the Pi's screen, a desktop window, tests and screenshots.
"""

import dataclasses

import pygame

from companion.actions import Press
from companion.display import (
    buttons,
    editor,
    header,
    layout,
    panels,
    setup_screen,
    table,
    theme,
    winner,
)
from companion.display.hitmap import Box, HitMap
from companion.display.view import ScreenView

__all__ = ["HitMap", "render"]


def render(view: ScreenView, surface: pygame.Surface) -> HitMap:
    """Draw `view` over the whole of `surface`; returns the touchable areas."""
    screen = surface.get_abs_parent().get_size()
    s = dataclasses.replace(
        theme.scale_for(surface.get_height()), mm_per_px=panels.panel_for(screen).mm_per_px
    )
    surface.fill(theme.BACKGROUND)
    seated = header.seated(view)
    s = dataclasses.replace(s, seated=seated)
    parts = layout.frame(surface.get_size(), s, bool(view.buttons), view.headline, seated)
    header.draw(surface, parts.header, view, s)
    hits: list[tuple[Box, Press]] = []
    if view.setup is not None:
        hits += setup_screen.draw(surface, parts.body, view.setup, s, parts.gap)
    elif view.editor is not None:
        hits += editor.draw(surface, parts.body, view.editor, s, parts.gap)
    elif view.winner is not None:
        winner.draw(surface, parts.body, view, s, parts.gap)
    else:
        table.draw(surface, parts.body, view, s, parts.gap)
    if parts.buttons is not None:
        hits += buttons.draw(surface, parts.buttons, view.buttons, s)
    return HitMap(tuple(hits))
