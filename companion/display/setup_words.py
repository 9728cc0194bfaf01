"""The setup screen's words and marks: lines of text placed in a box (`Words`), how
they are drawn so that lines with and without accents share one baseline, and the
tick of a done step or a picked choice.
"""

from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import fonts, paint


@dataclass(frozen=True)
class Words:
    """Lines of text placed in a box."""

    rect: pygame.Rect
    """The box; every line fits its width, and the lines fit its height."""
    px: int
    lines: tuple[str, ...]
    colour: RGB
    align: paint.Align = "left"


def paint_words(surface: pygame.Surface, words: Words, within: pygame.Rect | None = None) -> None:
    """Each line at its place; accents reaching above a line may use the room up to
    `within` (the row), never beyond it."""
    step = fonts.line_height(words.px)
    for i, text in enumerate(words.lines):
        line = pygame.Rect(words.rect.x, words.rect.y + i * step, words.rect.width, step)
        room = line.inflate(0, step // 2)
        room = room.clip(within) if within is not None else room
        paint_line(surface, text, words.px, words.colour, line, words.align, room)


def paint_line(
    surface: pygame.Surface,
    text: str,
    px: int,
    colour: RGB,
    line: pygame.Rect,
    align: paint.Align,
    room: pygame.Rect,
) -> None:
    """`text` at size `px` in `line` (cut short to its width), centred vertically and
    clipped to `room`. An accent on a capital makes the drawn text taller at its top;
    it is drawn that much higher, so that lines with and without accents share one
    baseline."""
    shown = fonts.ellipsize(text, line.width, px)
    drawn = fonts.text(shown, px, colour)
    if align == "right":
        x = line.right - drawn.get_width()
    elif align == "center":
        x = line.centerx - drawn.get_width() // 2
    else:
        x = line.x
    top = line.centery - fonts.font(px).get_height() // 2 - fonts.rise(shown, px)
    previous = surface.get_clip()
    surface.set_clip(room.clip(previous))
    surface.blit(drawn, (x, top))
    surface.set_clip(previous)


def same_baseline(line: pygame.Rect, px: int, other_px: int) -> int:
    """The top of a line of size `other_px` whose words stand on the same baseline as
    those of `line`, of size `px` (as `paint_line` draws them)."""
    big, small = fonts.font(px), fonts.font(other_px)
    baseline = line.centery - big.get_height() // 2 + big.get_ascent()
    height = fonts.line_height(other_px)
    return baseline - small.get_ascent() + small.get_height() // 2 - height // 2


def paint_tick(surface: pygame.Surface, rect: pygame.Rect, colour: RGB) -> None:
    """A tick filling `rect`."""
    points = [
        (rect.x, rect.y + rect.height * 11 // 20),
        (rect.x + rect.width * 2 // 5, rect.bottom),
        (rect.right, rect.y),
    ]
    pygame.draw.lines(surface, colour, False, points, max(2, rect.width // 4))
