"""The phone page's address as a QR code on the table's screen, so that players follow
the game on their phones by pointing the camera at it.

A code is scanned from a chair across the table, so it is drawn to read well whatever
the theme: dark modules on white, a quiet zone of at least four modules (what the
standard asks for), and every module a whole number of pixels, so that no edge is
blurred. It comes in two sizes: large, with a line saying what it is for and the
address in letters (for a phone that cannot scan), where players have time for it
(setting up a game, the winner); small and bare in a corner while a round is played.

The modules come from segno once per address, and each code or block is drawn once
per address and size and afterwards only copied (see `cache`): a frame with a code
costs a blit more, never a drawing.
"""

import functools

import numpy as np
import numpy.typing as npt
import pygame
import segno

from companion.colours import RGB
from companion.display import cache, fonts, paint, theme
from companion.display.theme import Scale

QUIET_MODULES = 4
"""Light modules around the code on every side, as the standard asks."""
DARK: RGB = (0, 0, 0)
LIGHT: RGB = (255, 255, 255)
"""Dark on white even in the dark theme: phones look for dark modules on light."""
LARGE_SIDE = 200
"""Design side of the large code (200 pixels on the television, 133 on the 7" screen):
scanned from a chair across the table."""
LARGE_LEAST_MODULE = 3
"""The least pixels per module of the large code."""
SMALL_SIDE = 104
"""Design side of the small code in a corner while playing."""
SMALL_LEAST_SIDE = 80
"""The small code's least side in pixels: on the 7" screen it would be too small to
scan at `SMALL_SIDE`."""
SMALL_LEAST_MODULE = 2
"""The least pixels per module of the small code; a code that cannot have as many is
not drawn."""
PADDING = 12
"""Design space inside the large code's panel."""
CAPTION_PX = 22
CAPTION_MIN_PX = 16
ADDRESS_PX = 20
ADDRESS_MIN_PX = 16
"""Design sizes of the words under the large code, and the least they shrink to."""
CAPTION_LINES = 3
"""The most lines the words under the large code take."""


@functools.lru_cache(maxsize=8)
def modules(address: str) -> npt.NDArray[np.bool_]:
    """The code's modules, rows by columns, True where dark, without the quiet zone
    (read-only: it is shared)."""
    code = segno.make(address, error="m", micro=False)
    matrix = np.array([list(row) for row in code.matrix], dtype=np.bool_)
    matrix.flags.writeable = False
    return matrix


def _count(address: str) -> int:
    """Modules across the code with its quiet zone."""
    return len(modules(address)) + 2 * QUIET_MODULES


def _side(address: str, target: int, least_module: int) -> int:
    """`target`, or more when the address needs more modules than `target` holds at
    `least_module` pixels each."""
    return max(target, _count(address) * least_module)


def large_side(address: str, s: Scale) -> int:
    """The side of the large code (setting up, the winner)."""
    return _side(address, s(LARGE_SIDE), LARGE_LEAST_MODULE)


def small_side(address: str, s: Scale) -> int:
    """The side of the small code (while playing)."""
    return _side(address, max(SMALL_LEAST_SIDE, s(SMALL_SIDE)), SMALL_LEAST_MODULE)


def block_width(address: str, s: Scale) -> int:
    """The width of the large code's panel: the code and the panel's padding."""
    return large_side(address, s) + 2 * s(PADDING)


def draw_code(surface: pygame.Surface, area: pygame.Rect, address: str, least_module: int) -> None:
    """The code as a white square filling `area` (the quiet zone takes what the whole
    modules leave); nothing when `area` cannot hold modules of `least_module` pixels."""
    side = min(area.width, area.height)
    if side < _count(address) * least_module:
        return
    square = pygame.Rect(area.x, area.y, side, side)
    cache.draw(surface, square, _paint_code, address)


def draw_block(
    surface: pygame.Surface,
    area: pygame.Rect,
    address: str,
    caption: str,
    s: Scale,
    panel: bool = True,
) -> None:
    """The large code with `caption` under it and the address beneath, centred in
    `area` (on a panel filling it, when `panel`); the caption gives way when the code
    would not fit, and the address too when even then it would not."""
    cache.draw(surface, area, _paint_block, address, caption, s, panel)


def _paint_code(surface: pygame.Surface, square: pygame.Rect, address: str) -> None:
    """The code in `square`, white, every module as many whole pixels as fit."""
    surface.fill(LIGHT, square)
    dark = modules(address)
    count = len(dark)
    pixels = min(square.width, square.height) // _count(address)
    if pixels < 1:
        return
    grey = np.where(dark.T, 0, 255).astype(np.uint8)
    small = pygame.surfarray.make_surface(np.repeat(grey[:, :, np.newaxis], 3, axis=2))
    drawn = pygame.transform.scale(small, (count * pixels, count * pixels))
    at = (
        square.centerx - drawn.get_width() // 2,
        square.centery - drawn.get_height() // 2,
    )
    surface.blit(drawn, at)


def _paint_block(
    surface: pygame.Surface,
    area: pygame.Rect,
    address: str,
    caption: str,
    s: Scale,
    panel: bool,
) -> None:
    """What `draw_block` draws, on a surface the size of `area`."""
    inner = area
    if panel:
        paint.panel(surface, area, theme.PANEL, theme.PANEL_EDGE, 1, radius=10)
        inner = area.inflate(-2 * s(PADDING), -2 * s(PADDING))
    between = s(10)
    least = _count(address) * LARGE_LEAST_MODULE
    for words in ((caption, address), (address,), ()):
        lines = _words(words, inner.width, s)
        text_height = sum(len(laid.lines) * fonts.line_height(laid.px) for laid, _ in lines)
        text_height += s(4) * max(0, len(lines) - 1)
        room = inner.height - text_height - (between if lines else 0)
        side = min(large_side(address, s), inner.width, room)
        if side >= least:
            break
    else:
        return
    top = inner.centery - (side + (between + text_height if lines else 0)) // 2
    square = pygame.Rect(inner.centerx - side // 2, top, side, side)
    _paint_code(surface, square, address)
    y = square.bottom + between
    for laid, colour in lines:
        step = fonts.line_height(laid.px)
        for text in laid.lines:
            row = pygame.Rect(inner.x, y, inner.width, step)
            paint.line(surface, text, row, laid.px, colour, "center", laid.px)
            y += step
        y += s(4)


def _words(words: tuple[str, ...], width: int, s: Scale) -> list[tuple[fonts.Block, RGB]]:
    """The caption wrapped (at most `CAPTION_LINES`) and the address whole (see
    `_address`)."""
    laid: list[tuple[fonts.Block, RGB]] = []
    for text in words[:-1]:
        height = CAPTION_LINES * fonts.line_height(s(CAPTION_MIN_PX))
        block = fonts.block((text,), (width, height), s(CAPTION_PX), s(CAPTION_MIN_PX))
        laid.append((block, theme.TEXT))
    if words:
        laid.append((_address(words[-1], width, s), theme.GOLD))
    return laid


def _address(address: str, width: int, s: Scale) -> fonts.Block:
    """The address on one line, shrunk to fit down to a size still read easily; too
    long even then, on two, broken after its "//" (and never cut short: an address
    with a piece missing is no address)."""
    px = fonts.fitting_size(address, width, s(ADDRESS_PX), s(ADDRESS_MIN_PX))
    if fonts.width(address, px) <= width:
        return fonts.Block(px, (address,))
    scheme, separator, rest = address.partition("//")
    if separator and fonts.width(rest, px) <= width:
        return fonts.Block(px, (scheme + separator, rest))
    return fonts.Block(px, fonts.wrap(address, width, px))
