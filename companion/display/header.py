"""The top of every screen: the title and small print on one line, the headline
large beneath them, and the auto-confirm countdown as a ring at the right. The
headline is of the seat's tier of type, the title and small print details; small
print that does not fit whole beside the title is left out (the phone page shows it),
and on a small screen the whole title line is (`SMALL_SCREEN_LINES`).
"""

import math

import pygame

from companion.display import cache, fonts, paint, theme, typescale
from companion.display.theme import Scale
from companion.display.typescale import Tier
from companion.display.view import ScreenView

COUNTDOWN_FULL = 10.0
"""Seconds shown as a full ring; longer countdowns start with a full ring."""


SMALL_SCREEN_LINES = 13
"""A screen fewer than this many lines of the seat's size high (the 7" screen) leaves
out the title line on the playing screens: the edition, round and piles are details,
on the phone page, and the headline says the round."""
LARGE_HEADLINE_PX = 54
"""The design size of the headline."""
LARGE_HEADLINE_LINES = 3
"""A headline is drawn at the largest size from its design size down to the seat's at
which it takes no more than this many lines; else at the seat's size."""
MOST_HEADLINE_LINES = 5
"""The header grows to hold a headline of up to this many lines at the seat's size
(a problem that blocks scoring is the headline, whole)."""


def seated(view: ScreenView) -> bool:
    """Whether the header of `view` is read from the seats (the playing and winner
    screens), its headline then of the seat's tier of type; the setup steps and the
    round editor are read close by, at the sizes of their design."""
    return view.setup is None and view.editor is None


def height(s: Scale, headline: str = "", width: int = 0, seat_sized: bool = True) -> int:
    """The header's height: the title's line, and room for the headline at the seat's
    size on as many lines as it takes in `width` (one when no width is given); not
    `seat_sized`, the design's fixed height."""
    if not seat_sized:
        return fonts.line_height(s(26)) + s(4) + s(62)
    px, lines = headline_size(s, headline, width)
    room = lines * fonts.line_height(px) + s(4)
    if not titled(s):
        return room
    return fonts.line_height(s.at_least(26, Tier.DETAIL)) + s(4) + max(s(62), room)


def headline_size(s: Scale, headline: str, width: int) -> tuple[int, int]:
    """The size the headline is drawn at and its lines in `width`: the largest size,
    from the design's down to the seat's, on up to `LARGE_HEADLINE_LINES` lines, else
    the seat's size on up to `MOST_HEADLINE_LINES` (one line when no width is given)."""
    seat = s.least(Tier.SEAT)
    large = max(s(LARGE_HEADLINE_PX), seat)
    if not headline or width <= 0:
        return large, 1
    for px in range(large, seat - 1, -max(1, large // 12)):
        lines = len(fonts.wrap(headline, width, px))
        if lines <= LARGE_HEADLINE_LINES:
            return px, max(lines, 1)
    return seat, min(len(fonts.wrap(headline, width, seat)), MOST_HEADLINE_LINES)


def titled(s: Scale) -> bool:
    """Whether the playing screens show the title line (see `SMALL_SCREEN_LINES`)."""
    seat = fonts.line_height(s.least(Tier.SEAT))
    return seat * SMALL_SCREEN_LINES <= s(theme.DESIGN_HEIGHT)


def draw(surface: pygame.Surface, area: pygame.Rect, view: ScreenView, s: Scale) -> None:
    """The header in `area`."""
    body = area
    if view.countdown is not None:
        side = min(area.height, height(s, seat_sized=seated(view)))
        dial = pygame.Rect(area.right - side, area.y, side, side)
        _countdown(surface, dial, view.countdown, s)
        body = pygame.Rect(area.x, area.y, area.width - side - s(12), area.height)
    if not seated(view):
        cache.draw(surface, body, _close_by, view.title, view.headline, view.footer, s)
        return
    cache.draw(surface, body, _words, view.title, view.headline, view.footer, s)


def _close_by(
    surface: pygame.Surface, body: pygame.Rect, title: str, headline: str, footer: str, s: Scale
) -> None:
    """The title and small print on one line, the headline large beneath, at the
    design's sizes."""
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


def _words(
    surface: pygame.Surface, body: pygame.Rect, title: str, headline: str, footer: str, s: Scale
) -> None:
    """The title and small print on one line, the headline large beneath (the headline
    alone on a small screen)."""
    seat = s.least(Tier.SEAT)
    if not titled(s):
        large = max(s(LARGE_HEADLINE_PX), seat)
        with typescale.tier(Tier.SEAT):
            paint.paragraphs(surface, (headline,), body, large, seat, theme.TEXT)
        return
    small = s.at_least(26, Tier.DETAIL)
    least = s.least(Tier.DETAIL)
    top = pygame.Rect(body.x, body.y, body.width, fonts.line_height(small))
    footer_width = 0
    room = body.width - fonts.width(title, least) - s(16)
    if footer and fonts.width(footer, least) <= min(room, body.width // 2):
        corner = pygame.Rect(body.centerx, top.y, body.width // 2, top.height)
        px = s.at_least(22, Tier.DETAIL)
        footer_width = paint.line(surface, footer, corner, px, theme.MUTED, "right", least)
    line = pygame.Rect(body.x, top.y, body.width - footer_width - s(16), top.height)
    paint.line(surface, title, line, small, theme.MUTED, "left", least)
    below = pygame.Rect(body.x, top.bottom + s(4), body.width, body.bottom - top.bottom - s(4))
    with typescale.tier(Tier.SEAT):
        paint.paragraphs(
            surface,
            (headline,),
            below,
            max(s(LARGE_HEADLINE_PX), seat),
            seat,
            theme.TEXT,
            centre_vertically=True,
        )


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
