"""The list of what the table waits for and what is wrong: problems in red first,
then what is still missing in amber, then information in grey. When they do not
all fit, the most urgent are shown and a last line says how many more there are.

Problems and what the table waits for are of the seat's tier of type and never cut
short (they wrap); information is a detail.
"""

import pygame

from companion.display import cache, fonts, paint, theme, typescale
from companion.display.theme import Scale
from companion.display.typescale import Tier
from companion.display.view import Level, Notice, ScreenView

LINES_PER_NOTICE = 2
"""Information longer than this many lines is cut short; problems and what the table
waits for wrap to as many lines as they take."""
LARGEST_PX = 26
LEAST_PX = 18
"""Design sizes of the notices: they shrink from the first towards the second before
some are left out."""


def ordered(notices: tuple[Notice, ...]) -> tuple[Notice, ...]:
    """`notices` most urgent first, keeping the given order within a level."""
    return tuple(sorted(notices, key=lambda n: theme.LEVEL_ORDER[n.level]))


def _lines(notice: Notice, text_width: int, px: int) -> tuple[str, ...]:
    lines = fonts.wrap(notice.text, text_width, px)
    if len(lines) > LINES_PER_NOTICE and notice.level is Level.INFO:
        cut = fonts.ellipsize(lines[LINES_PER_NOTICE - 1] + fonts.ELLIPSIS, text_width, px)
        lines = (*lines[: LINES_PER_NOTICE - 1], cut)
    return lines


def _shown(notices: tuple[Notice, ...], text_width: int, height: int, px: int, gap: int) -> int:
    """How many notices fit, leaving a line for "+N more" when not all do."""
    step = fonts.line_height(px)
    used = 0
    for count, notice in enumerate(notices):
        used += len(_lines(notice, text_width, px)) * step + gap
        room = height if count == len(notices) - 1 else height - step
        if used > room:
            return count
    return len(notices)


def _largest(s: Scale) -> int:
    return s.at_least(LARGEST_PX, Tier.SEAT)


def _least(s: Scale) -> int:
    return s.at_least(LEAST_PX, Tier.SEAT)


def needed_height(notices: tuple[Notice, ...], width: int, s: Scale) -> int:
    """The height that shows all `notices` at full size in a panel `width` wide."""
    px = _largest(s)
    text_width = width - 2 * s(10) - s(12) - s(10)
    step = fonts.line_height(px)
    lines = sum(len(_lines(n, text_width, px)) * step + s(6) for n in notices)
    return lines + 2 * s(8)


def all_shown(notices: tuple[Notice, ...], size: tuple[int, int], s: Scale) -> bool:
    """Whether a panel of `size` shows every one of `notices`, at the least size."""
    width, height = size
    inner_height = height - 2 * s(8)
    text_width = width - 2 * s(10) - s(12) - s(10)
    shown = _shown(ordered(notices), text_width, inner_height, _least(s), s(6))
    return shown == len(notices)


def draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    notices: tuple[Notice, ...],
    s: Scale,
    more: str = ScreenView.more_notices,
) -> None:
    """The notices in `area`, in a panel; `more` is the view's last line for those left
    out (its `more_notices`)."""
    cache.draw(surface, area, _draw, notices, s, more)


def _draw(
    surface: pygame.Surface,
    area: pygame.Rect,
    notices: tuple[Notice, ...],
    s: Scale,
    more: str,
) -> None:
    paint.panel(surface, area)
    if not notices:
        return
    inner = area.inflate(-2 * s(10), -2 * s(8))
    urgent = ordered(notices)
    gap = s(6)
    px = _largest(s)
    marker = s(12)
    text_width = inner.width - marker - s(10)
    while px > _least(s) and _shown(urgent, text_width, inner.height, px, gap) < len(urgent):
        px -= max(1, px // 10)
    shown = max(1, _shown(urgent, text_width, inner.height, px, gap))
    step = fonts.line_height(px)
    y = inner.y
    for notice in urgent[:shown]:
        colour = theme.LEVEL_COLOURS[notice.level]
        lines = _lines(notice, text_width, px)
        dot = pygame.Rect(inner.x, y + (step - marker) // 2, marker, marker)
        if notice.level is Level.PROBLEM:
            pygame.draw.rect(surface, colour, dot)
        else:
            pygame.draw.circle(surface, colour, dot.center, marker // 2)
        for words in lines:
            row = pygame.Rect(dot.right + s(10), y, text_width, step)
            if row.bottom > inner.bottom:
                break
            with typescale.tier(Tier.DETAIL if notice.level is Level.INFO else Tier.SEAT):
                paint.line(surface, words, row, px, colour)
            y += step
        y += gap
    hidden = len(urgent) - shown
    if hidden > 0:
        line = pygame.Rect(inner.x, min(y, inner.bottom - step), inner.width, step)
        with typescale.tier(Tier.SEAT):
            paint.line(surface, more.format(n=hidden), line, px, theme.TEXT)
