"""Small drawing steps every part of the screen uses: panels, text in a box, colour
swatches, and the storyteller's book.

Each takes the rectangle it may draw in and never draws outside it, which is what
keeps the parts of the screen from overlapping.
"""

import math
from typing import Literal

import pygame

from companion.colours import RGB
from companion.display import fonts, theme, typescale

Align = Literal["left", "center", "right"]


def panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    fill: RGB = theme.PANEL,
    edge: RGB | None = None,
    edge_width: int = 2,
    radius: int = 8,
) -> None:
    """A rounded box, with an edge when `edge` is given."""
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    if edge is not None:
        pygame.draw.rect(surface, edge, rect, width=edge_width, border_radius=radius)


def line(
    surface: pygame.Surface,
    words: str,
    rect: pygame.Rect,
    px: int,
    colour: RGB,
    align: Align = "left",
    min_px: int = 0,
    *,
    cut: bool = False,
) -> int:
    """One line of text fitted to `rect` (shrunk to `min_px`, then ellipsized),
    centred vertically and clipped to `rect`; returns the width drawn. The line is
    reported to an open `typescale.recording`, with its size and whether it was cut (or, `cut`, that
    it is what is left of a longer text)."""
    wanted = min(px, max(rect.height, 1))
    drawn = fonts.fit(words, rect.width, wanted, colour, min_px)
    if typescale.is_recording():
        _report(words, rect, wanted, min_px, drawn, cut)
    if align == "left":
        x = rect.x
    elif align == "right":
        x = rect.right - drawn.get_width()
    else:
        x = rect.centerx - drawn.get_width() // 2
    previous = surface.get_clip()
    surface.set_clip(rect.clip(previous))
    surface.blit(drawn, (x, rect.centery - drawn.get_height() // 2))
    surface.set_clip(previous)
    return drawn.get_width()


def _report(
    words: str, rect: pygame.Rect, px: int, min_px: int, drawn: pygame.Surface, cut: bool
) -> None:
    """Tell the recording what `line` drew: the size it fitted at, and whether it was
    cut (ellipsized, clipped at the side, or shrunk to fit a lower box)."""
    width = max(rect.width, 0)
    size = fonts.fitting_size(words, width, px, min(min_px, px) or px)
    shown = fonts.ellipsize(words, width, size)
    cut = cut or shown != fonts.clean(words) or drawn.get_width() > width
    cut = cut or fonts.width(shown, size) > width or fonts.line_height(size) > rect.height
    typescale.report(words, shown, size, cut)


def paragraphs(
    surface: pygame.Surface,
    texts: tuple[str, ...],
    rect: pygame.Rect,
    max_px: int,
    min_px: int,
    colour: RGB,
    align: Align = "left",
    centre_vertically: bool = False,
) -> int:
    """Wrapped text in `rect` at the largest size that fits; returns the height used."""
    laid = fonts.block(texts, (rect.width, rect.height), max_px, min(min_px, max_px))
    step = fonts.line_height(laid.px)
    used = min(len(laid.lines) * step, rect.height)
    y = rect.y + (rect.height - used) // 2 if centre_vertically else rect.y
    for k, words in enumerate(laid.lines):
        row = pygame.Rect(rect.x, y, rect.width, step)
        last = k == len(laid.lines) - 1
        line(surface, words, row, laid.px, colour, align, laid.px, cut=laid.cut and last)
        y += step
    return used


def swatch(surface: pygame.Surface, rect: pygame.Rect, colours: tuple[RGB, ...]) -> None:
    """A colour chip: one stripe per colour (a team shows all its members), outlined
    dark and light so white and black chips both show."""
    pygame.draw.rect(surface, theme.CHALK, rect.inflate(4, 4), border_radius=4)
    pygame.draw.rect(surface, theme.INK, rect.inflate(2, 2), border_radius=3)
    shown = colours or (theme.DIM,)
    for i, colour in enumerate(shown):
        left = rect.x + rect.width * i // len(shown)
        right = rect.x + rect.width * (i + 1) // len(shown)
        pygame.draw.rect(surface, colour, (left, rect.y, right - left, rect.height))


def book(surface: pygame.Surface, rect: pygame.Rect, colour: RGB = theme.GOLD) -> None:
    """An open book, the storyteller's mark, filling `rect`."""
    w, h = rect.width, rect.height
    spine_top = (rect.x + w // 2, rect.y + h // 5)
    spine_bottom = (rect.x + w // 2, rect.bottom)
    left = [(rect.x, rect.y), spine_top, spine_bottom, (rect.x, rect.bottom - h // 5)]
    right = [(rect.right, rect.y), spine_top, spine_bottom, (rect.right, rect.bottom - h // 5)]
    for page in (left, right):
        pygame.draw.polygon(surface, colour, page)
        pygame.draw.polygon(surface, theme.INK, page, width=max(1, w // 12))


def flag(surface: pygame.Surface, rect: pygame.Rect, colour: RGB = theme.GOLD) -> None:
    """A pennant on a pole, marking the winning score on the track."""
    pole = max(2, rect.width // 8)
    pygame.draw.rect(surface, theme.INK, (rect.x - 1, rect.y - 1, pole + 2, rect.height + 2))
    pygame.draw.rect(surface, colour, (rect.x, rect.y, pole, rect.height))
    cloth = [
        (rect.x + pole, rect.y),
        (rect.right, rect.y + rect.height // 4),
        (rect.x + pole, rect.y + rect.height // 2),
    ]
    pygame.draw.polygon(surface, colour, cloth)
    pygame.draw.polygon(surface, theme.INK, cloth, width=1)


def ring(
    surface: pygame.Surface,
    centre: tuple[int, int],
    radius: int,
    fraction: float,
    colour: RGB,
    thickness: int,
) -> None:
    """A ring filled clockwise from the top for `fraction` of its turn, over a dim
    full ring: the countdown."""
    pygame.draw.circle(surface, theme.HIGHLIGHT, centre, radius, width=thickness)
    fraction = min(max(fraction, 0.0), 1.0)
    if fraction <= 0.0:
        return
    steps = max(2, int(64 * fraction))
    outer = []
    inner = []
    for i in range(steps + 1):
        angle = -math.pi / 2 + 2 * math.pi * fraction * i / steps
        outer.append((centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)))
        r_in = radius - thickness
        inner.append((centre[0] + r_in * math.cos(angle), centre[1] + r_in * math.sin(angle)))
    pygame.draw.polygon(surface, colour, outer + inner[::-1])
