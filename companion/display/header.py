"""The top of every screen: the title and small print on one line, the headline
large beneath them, and the auto-confirm countdown as a ring at the right.
"""

import math

import pygame

from companion.display import cache, fonts, paint, theme
from companion.display.theme import Scale
from companion.display.view import ScreenView

COUNTDOWN_FULL = 10.0
"""Seconds shown as a full ring; longer countdowns start with a full ring."""


def height(s: Scale) -> int:
    """The header's height."""
    return fonts.line_height(s(26)) + s(4) + s(62)


def draw(surface: pygame.Surface, area: pygame.Rect, view: ScreenView, s: Scale) -> None:
    """The header in `area`."""
    body = area
    if view.countdown is not None:
        side = area.height
        dial = pygame.Rect(area.right - side, area.y, side, side)
        _countdown(surface, dial, view.countdown, s)
        body = pygame.Rect(area.x, area.y, area.width - side - s(12), area.height)
    cache.draw(surface, body, _words, view.title, view.headline, view.footer, s)


def _words(
    surface: pygame.Surface, body: pygame.Rect, title: str, headline: str, footer: str, s: Scale
) -> None:
    """The title and small print on one line, the headline large beneath."""
    small = s(26)
    top = pygame.Rect(body.x, body.y, body.width, fonts.line_height(small))
    footer_width = 0
    if footer:
        corner = pygame.Rect(body.centerx, top.y, body.width // 2, top.height)
        footer_width = paint.line(surface, footer, corner, s(22), theme.MUTED, "right", s(14))
    line = pygame.Rect(body.x, top.y, body.width - footer_width - s(16), top.height)
    paint.line(surface, title, line, small, theme.MUTED, "left", s(16))
    below = pygame.Rect(body.x, top.bottom + s(4), body.width, body.bottom - top.bottom - s(4))
    paint.paragraphs(surface, (headline,), below, s(54), s(26), theme.TEXT, centre_vertically=True)


def _countdown(surface: pygame.Surface, dial: pygame.Rect, seconds: float, s: Scale) -> None:
    radius = dial.width // 2 - s(2)
    fraction = min(seconds, COUNTDOWN_FULL) / COUNTDOWN_FULL
    pygame.draw.circle(surface, theme.PANEL, dial.center, radius)
    paint.ring(surface, dial.center, radius, fraction, theme.GOLD, max(3, radius // 5))
    number = pygame.Rect(0, 0, radius * 3 // 2, radius)
    number.center = dial.center
    paint.line(
        surface, str(math.ceil(max(seconds, 0.0))), number, radius, theme.TEXT, "center", s(12)
    )
