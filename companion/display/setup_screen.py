"""The setup screen: the players as large tiles in their colours, the one chosen to
tell first marked with the book, and how to choose. Touching a tile picks it.
"""

import math

import pygame

from companion.actions import Action, Press
from companion.colours import RGB
from companion.display import fonts, paint, theme
from companion.display.hitmap import Box, box
from companion.display.theme import Scale
from companion.display.view import SetupView


def _columns(players: int) -> int:
    return 1 if players <= 4 else 2


def draw(
    surface: pygame.Surface, body: pygame.Rect, setup: SetupView, s: Scale, gap: int
) -> list[tuple[Box, Press]]:
    """The setup screen in `body`; returns the players' tiles as picks."""
    ruleset = pygame.Rect(body.x, body.y, body.width, fonts.line_height(s(32)))
    paint.line(surface, setup.ruleset, ruleset, s(32), theme.GOLD, "left", s(18))
    hint_height = 2 * fonts.line_height(s(26))
    hint = pygame.Rect(body.x, body.bottom - hint_height, body.width, hint_height)
    paint.paragraphs(
        surface, (setup.hint,), hint, s(26), s(16), theme.MUTED, centre_vertically=True
    )
    tiles = pygame.Rect(body.x, ruleset.bottom + gap, body.width, hint.y - ruleset.bottom - 2 * gap)
    count = len(setup.players)
    if count == 0 or tiles.height <= 0:
        return []
    columns = _columns(count)
    rows = math.ceil(count / columns)
    tile_height = min(s(96), (tiles.height - gap * (rows - 1)) // rows)
    tile_width = (tiles.width - gap * (columns - 1)) // columns
    top = tiles.y + (tiles.height - rows * tile_height - gap * (rows - 1)) // 2
    inner_height = tile_height - 2 * s(10)
    chip = min(inner_height, s(52))
    name_width = tile_width - 2 * s(12) - chip - s(14)
    px = max(s(14), min(s(48), round(inner_height * 0.8)))
    names = tuple(name for name, _ in setup.players)
    name_px = fonts.common_size(names, name_width, px, max(s(14), px * 3 // 4))
    hits: list[tuple[Box, Press]] = []
    for i, (name, colour) in enumerate(setup.players):
        column, row = i % columns, i // columns
        rect = pygame.Rect(
            tiles.x + column * (tile_width + gap),
            top + row * (tile_height + gap),
            tile_width,
            tile_height,
        )
        _tile(surface, rect, name, colour, i == setup.chosen, name_px, s)
        hits.append((box(rect), Press(Action.PICK, i)))
    return hits


def _tile(
    surface: pygame.Surface,
    rect: pygame.Rect,
    name: str,
    colour: RGB,
    chosen: bool,
    px: int,
    s: Scale,
) -> None:
    """A player's tile; the chosen one is framed in gold, carries the book and, where
    there is room, says it tells first."""
    if chosen:
        paint.panel(surface, rect, theme.HIGHLIGHT, theme.GOLD, s(5), radius=s(10))
    else:
        paint.panel(surface, rect, theme.PANEL, theme.PANEL_EDGE, s(1), radius=s(10))
    inner = rect.inflate(-2 * s(12), -2 * s(10))
    chip = pygame.Rect(inner.x, inner.y, min(inner.height, s(52)), inner.height)
    paint.swatch(surface, chip, (colour,))
    text = pygame.Rect(chip.right + s(14), inner.y, inner.right - chip.right - s(14), inner.height)
    if chosen:
        mark = pygame.Rect(0, 0, chip.width * 4 // 5, chip.width * 3 // 5)
        mark.center = chip.center
        paint.book(surface, mark)
        label_px = min(s(26), px)
        label_width = fonts.width("tells first", label_px)
        if fonts.width(name, px) + label_width + s(16) <= text.width:
            label = pygame.Rect(text.right - label_width, text.y, label_width, text.height)
            paint.line(surface, "tells first", label, label_px, theme.GOLD)
            text.width -= label_width + s(16)
    paint.line(surface, name, text, px, theme.TEXT, "left", px // 2)
