"""The setup screen's side panel: the game as set up so far, the teams (each member
with their colour), what stops the step (in red) and, at its foot, how to choose.

The panel's words are laid out at the largest of a few sizes at which all of them
fit; failing that, at the smallest, cut short where they do not fit (the hint first).
"""

from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import fonts, paint, theme
from companion.display.setup_words import Words, paint_words
from companion.display.theme import Scale
from companion.display.view import Group, StepView

PANEL_SHRINK = (1.0, 0.92, 0.85, 0.78, 0.72)
"""The factors the side panel's sizes are tried at, until everything fits."""


@dataclass(frozen=True)
class Chip:
    """A colour chip beside a team member's name in the side panel."""

    rect: pygame.Rect
    colour: RGB


def lay_out(
    inner: pygame.Rect, step: StepView, s: Scale
) -> tuple[tuple[Words, ...], tuple[Chip, ...]]:
    """The side panel's words at the largest sizes at which all of them fit; failing
    that, at the smallest, with the hint cut short."""
    for factor in PANEL_SHRINK:
        placed = _panel_at(inner, step, s, factor, squeeze=False)
        if placed is not None:
            return placed
    squeezed = _panel_at(inner, step, s, PANEL_SHRINK[-1], squeeze=True)
    assert squeezed is not None
    return squeezed


def _panel_at(
    inner: pygame.Rect, step: StepView, s: Scale, factor: float, squeeze: bool
) -> tuple[tuple[Words, ...], tuple[Chip, ...]] | None:
    """The panel at sizes times `factor`, or None when it does not fit; squeezed, what
    does not fit is cut short (the hint first) instead."""
    summary_px, text_px, hint_px = s(26 * factor), s(24 * factor), s(22 * factor)
    between = s(14 * factor)
    words: list[Words] = []
    chips: list[Chip] = []
    y = inner.y
    bottom = inner.bottom
    hint_lines = fonts.wrap(step.hint, inner.width, hint_px) if step.hint else ()
    hint_height = len(hint_lines) * fonts.line_height(hint_px)
    if not squeeze:
        bottom -= hint_height + (between if hint_lines else 0)
    if step.summary:
        after = _paragraph(words, step.summary, inner, y, bottom, summary_px, theme.GOLD, squeeze)
        if after is None:
            return None
        y = after + between
    if step.groups:
        placed = _groups(step.groups, pygame.Rect(inner.x, y, inner.width, bottom - y), text_px, s)
        if placed is None and not squeeze:
            return None
        if placed is not None:
            words += placed[0]
            chips += placed[1]
            y = placed[2] + between
    for problem in step.problems:
        after = _paragraph(words, problem, inner, y, bottom, text_px, theme.RED, squeeze)
        if after is None:
            return None
        y = after + s(6 * factor)
    if step.hint:
        if squeeze:
            room = pygame.Rect(inner.x, y, inner.width, max(0, inner.bottom - y))
            if room.height >= fonts.line_height(hint_px):
                laid = fonts.block((step.hint,), room.size, hint_px, hint_px)
                height = len(laid.lines) * fonts.line_height(laid.px)
                rect = pygame.Rect(inner.x, inner.bottom - height, inner.width, height)
                words.append(Words(rect, laid.px, laid.lines, theme.MUTED))
        else:
            rect = pygame.Rect(inner.x, inner.bottom - hint_height, inner.width, hint_height)
            words.append(Words(rect, hint_px, hint_lines, theme.MUTED))
    return tuple(words), tuple(chips)


def _paragraph(
    words: list[Words],
    text: str,
    inner: pygame.Rect,
    y: int,
    bottom: int,
    px: int,
    colour: RGB,
    squeeze: bool,
) -> int | None:
    """`text` wrapped below `y` (appended to `words`); the new `y`, or None when it
    does not reach above `bottom` and may not be cut short."""
    step = fonts.line_height(px)
    lines = fonts.wrap(text, inner.width, px)
    if y + len(lines) * step > bottom:
        if not squeeze:
            return None
        fits = max(0, (bottom - y) // step)
        if fits == 0:
            return y
        laid = fonts.block((text,), (inner.width, fits * step), px, px)
        lines = laid.lines
    rect = pygame.Rect(inner.x, y, inner.width, len(lines) * step)
    words.append(Words(rect, px, lines, colour))
    return rect.bottom


def _groups(
    groups: tuple[Group, ...], area: pygame.Rect, px: int, s: Scale
) -> tuple[list[Words], list[Chip], int] | None:
    """Each group's label, and beside it its members one to a line with their colour;
    None when they do not all fit in `area`."""
    step = fonts.line_height(px)
    lines = sum(max(1, len(g.members)) for g in groups)
    between = s(6)
    if lines * step + between * (len(groups) - 1) > area.height:
        return None
    label_width = min(area.width * 2 // 5, max(fonts.width(g.label, px) for g in groups) + s(10))
    side = step * 3 // 5
    names_x = area.x + label_width + side + s(8)
    words: list[Words] = []
    chips: list[Chip] = []
    y = area.y
    for group in groups:
        label = pygame.Rect(area.x, y, label_width - s(10), step)
        words.append(
            Words(label, px, (fonts.ellipsize(group.label, label.width, px),), theme.MUTED)
        )
        for name, colour in group.members:
            chip = pygame.Rect(area.x + label_width, y + (step - side) // 2, side, side)
            chips.append(Chip(chip, colour))
            room = pygame.Rect(names_x, y, area.right - names_x, step)
            words.append(Words(room, px, (fonts.ellipsize(name, room.width, px),), theme.TEXT))
            y += step
        y = max(y, label.bottom) + between
    return words, chips, y - between


def paint_panel(
    surface: pygame.Surface, rect: pygame.Rect, words: tuple[Words, ...], chips: tuple[Chip, ...]
) -> None:
    """The panel filling `rect`, with its chips and words."""
    paint.panel(surface, rect, theme.PANEL, theme.PANEL_EDGE, 1, radius=10)
    for chip in chips:
        paint.swatch(surface, chip.rect, (chip.colour,))
    for placed in words:
        paint_words(surface, placed)
