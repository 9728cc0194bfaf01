"""The setup screen: one step of setting up a game (language, edition, seats, names,
options, first storyteller), drawn from a `StepView`.

Across the top run the steps, the current one in gold and those done dimmed and
ticked. Below, the choices are touchable rows in the view's columns
(`setup_choices`); a panel at the right holds the game as set up so far, the teams,
what stops the step and how to choose (`setup_panel`). Rows stay at least a finger
high on the 7" screen; the panel's text gives way first, by shrinking, then by
cutting the hint short.

Every word comes from the view: these modules only decide where the words go.
"""

import functools
from dataclasses import dataclass

import pygame

from companion.actions import Action, Press
from companion.display import cache, fonts, layout, paint, setup_choices, setup_panel, theme
from companion.display.hitmap import Box, box
from companion.display.setup_choices import Row
from companion.display.setup_panel import Chip
from companion.display.setup_words import Words, paint_line, paint_tick
from companion.display.theme import Scale
from companion.display.view import StepView

PANEL_SHARE = 0.27
"""The side panel's share of the body's width."""
PROGRESS_PX = 24
"""Design size of the step names across the top."""


@dataclass(frozen=True)
class Plan:
    """Where everything of a step goes, relative to the body's top left corner."""

    progress: tuple[pygame.Rect, ...]
    """One pill per step."""
    progress_px: int
    rows: tuple[Row, ...]
    """One per choice, in the view's order."""
    panel: pygame.Rect
    panel_words: tuple[Words, ...]
    """The summary, team labels and names, problems and hint."""
    chips: tuple[Chip, ...]
    """The team members' colours."""


def draw(
    surface: pygame.Surface, body: pygame.Rect, step: StepView, s: Scale, gap: int
) -> list[tuple[Box, Press]]:
    """The step in `body`; returns every choice's row as a pick of its index."""
    made = plan(body.size, step, s, gap)
    cache.draw(surface, body, _paint, step, s, gap)
    return [
        (box(row.rect.move(body.topleft)), Press(Action.PICK, i)) for i, row in enumerate(made.rows)
    ]


@functools.lru_cache(maxsize=16)
def plan(size: tuple[int, int], step: StepView, s: Scale, gap: int) -> Plan:
    """Where everything of `step` goes in a body of `size`."""
    area = pygame.Rect((0, 0), size)
    band_height = fonts.line_height(s(PROGRESS_PX)) + 2 * s(6)
    band, below = layout.split_top(area, band_height, gap)
    pills, progress_px = _progress(band, step.steps, s)
    left, panel = layout.split_columns(below, (1 - PANEL_SHARE, PANEL_SHARE), gap)
    rows = setup_choices.rows(left, step.choices, max(1, step.columns), s, gap)
    words, chips = setup_panel.lay_out(panel.inflate(-2 * s(14), -2 * s(12)), step, s)
    return Plan(pills, progress_px, rows, panel, words, chips)


# The steps across the top


def _progress(
    band: pygame.Rect, steps: tuple[str, ...], s: Scale
) -> tuple[tuple[pygame.Rect, ...], int]:
    """Equal pills across the band, and the one size all step names fit at."""
    if not steps:
        return (), s(PROGRESS_PX)
    between = s(6)
    width = (band.width - between * (len(steps) - 1)) // len(steps)
    pills = tuple(
        pygame.Rect(band.x + i * (width + between), band.y, width, band.height)
        for i in range(len(steps))
    )
    room = width - 2 * s(10) - _tick_width(band.height, s)
    return pills, fonts.common_size(steps, room, s(PROGRESS_PX), s(14))


def _tick_side(height: int) -> int:
    """The size of the tick before a done step's name, in a pill `height` high."""
    return height * 2 // 5


def _tick_width(height: int, s: Scale) -> int:
    """Room for the tick before a done step's name, with the space after it."""
    return _tick_side(height) + s(6)


# Drawing


def _paint(surface: pygame.Surface, area: pygame.Rect, step: StepView, s: Scale, gap: int) -> None:
    """Everything of `step` on a surface the size of the body."""
    made = plan(area.size, step, s, gap)
    _paint_progress(surface, made, step, s)
    for row, choice in zip(made.rows, step.choices, strict=True):
        setup_choices.paint_row(surface, row, choice)
    setup_panel.paint_panel(surface, made.panel, made.panel_words, made.chips)


def _paint_progress(surface: pygame.Surface, made: Plan, step: StepView, s: Scale) -> None:
    """The steps' pills: the current one in gold, those done dimmed and ticked."""
    px = made.progress_px
    for i, (pill, name) in enumerate(zip(made.progress, step.steps, strict=True)):
        radius = pill.height // 2
        if i == step.step:
            paint.panel(surface, pill, theme.GOLD, radius=radius)
            colour = theme.INK
        elif i < step.step:
            paint.panel(surface, pill, theme.PANEL, radius=radius)
            colour = theme.DIM
        else:
            paint.panel(surface, pill, theme.PANEL, theme.PANEL_EDGE, 1, radius=radius)
            colour = theme.MUTED
        done = i < step.step
        tick = _tick_width(pill.height, s) if done else 0
        shown = fonts.ellipsize(name, pill.width - 2 * s(10) - tick, px)
        x = pill.centerx - (fonts.width(shown, px) + tick) // 2
        if done:
            side = _tick_side(pill.height)
            paint_tick(surface, pygame.Rect(x, pill.centery - side // 2, side, side), colour)
        text = pygame.Rect(x + tick, pill.y, pill.right - x - tick, pill.height)
        paint_line(surface, shown, px, colour, text, "left", pill)
