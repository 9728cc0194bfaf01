"""Text that fits its box: sized, shrunk, wrapped or ellipsized, and cached.

The screen is redrawn every frame with mostly the same words, so rendered text is
kept in bounded LRU caches keyed by (string, size, colour). The typeface is
Atkinson Hyperlegible Bold (the Braille Institute's, under the SIL Open Font Licence,
shipped in `companion/display/typeface/` with its licence): drawn for low vision, its
letters that look alike elsewhere (I l 1, O 0, rn m) differ, it spaces letters evenly
at every size, and it has every accent and sign French needs. This module is the one
place fonts are loaded.

Sizes are line heights in surface pixels, not font points, so layouts can add them up.
The largest size at which texts fit their boxes, wrapped but no word broken, is
searched for here only (`largest_size`), for a block of paragraphs and for the setup
screen's rows alike.

Laying text out must never hold the loop up, whatever the text (a name an older
journal kept, a library's message): only the first `MAX_TEXT_CHARS` characters of
any text are measured or drawn (more could never show on a screen), and a word too
long for its line is broken with a search whose cost grows with the line, not with
the word.
"""

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources

import pygame

from companion.colours import RGB

TYPEFACE = "AtkinsonHyperlegible-Bold.ttf"
"""The font file, in the package's `typeface` folder."""
LINE_PER_POINT = 1.24
"""The typeface is this many pixels of line height per point size."""
ELLIPSIS = "\u2026"
TEXT_CACHE = 4096
"""Measured and wrapped strings kept."""
MAX_TEXT_CHARS = 600
"""The most characters of one text that are measured, laid out or drawn; the rest is
left out, with an ellipsis. The longest message the companion words is about 300
characters; a full 1280-pixel line at the smallest type holds about 200."""
NAME_WIDTH = 16.0
"""The widest name, in line heights of the size it is drawn at: as wide as
"Alexandrina Montgomery-Smythe", the widest name the screens are drawn and tested
with (`name_fits`)."""
SURFACES_KEPT = 768
"""Rendered strings kept: a busy screen shows about two hundred, and each costs
memory, which the Pi has little of."""


@functools.lru_cache(maxsize=1)
def typeface_file() -> str:
    """The path of the font file inside the installed package."""
    return str(resources.files("companion.display").joinpath("typeface", TYPEFACE))


@functools.lru_cache(maxsize=128)
def font(px: int) -> pygame.font.Font:
    """The typeface with a line height of about `px` pixels."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(typeface_file(), max(1, round(px / LINE_PER_POINT)))


@functools.lru_cache(maxsize=256)
def cap_height(px: int) -> int:
    """How many pixels high a capital ("H") is drawn at size `px`."""
    metrics = font(px).metrics("H")[0]
    return metrics[3] if metrics is not None else 0


def line_height(px: int) -> int:
    """The actual line height of `font(px)`."""
    return font(px).get_linesize()


@functools.lru_cache(maxsize=TEXT_CACHE)
def clean(text: str) -> str:
    """`text` with what no font can draw removed: control characters become spaces
    (a null character would stop pygame), lone surrogates become a replacement mark;
    cut at `MAX_TEXT_CHARS` characters, with an ellipsis."""
    out = []
    if len(text) > MAX_TEXT_CHARS:
        text = text[: MAX_TEXT_CHARS - 1] + ELLIPSIS
    for char in text:
        category = unicodedata.category(char)
        if category == "Cc":
            out.append(" ")
        elif category == "Cs":
            out.append("\ufffd")
        else:
            out.append(char)
    return "".join(out)


def width(text: str, px: int) -> int:
    """How wide `text` is drawn at size `px` (its first `MAX_TEXT_CHARS` characters)."""
    return font(px).size(text[:MAX_TEXT_CHARS])[0]


def name_fits(name: str) -> bool:
    """Whether a player's name is no wider than `NAME_WIDTH` line heights: what the
    screens show whole, on one line or two (a name of wide letters or signs may be
    short and still not fit)."""
    px = 100
    return width(clean(name), px) <= NAME_WIDTH * px


@functools.lru_cache(maxsize=TEXT_CACHE)
def rise(words: str, px: int) -> int:
    """How many pixels `words` drawn at `px` reach above the font's usual top (the
    accent of a capital: "É"); the drawn surface is that much taller at its top, so
    lines with and without accents keep one baseline when drawn that much higher."""
    drawn = font(px)
    tops = [m[3] for m in drawn.metrics(clean(words)) if m is not None]
    return max(0, max(tops, default=0) - drawn.get_ascent())


@functools.lru_cache(maxsize=SURFACES_KEPT)
def text(words: str, px: int, colour: RGB) -> pygame.Surface:
    """`words` rendered at size `px` in `colour`, on a transparent background
    (nothing to see, such as a zero-width space, gives an empty surface)."""
    try:
        return font(px).render(clean(words), True, colour)
    except pygame.error:
        return pygame.Surface((0, line_height(px)), pygame.SRCALPHA)


@functools.lru_cache(maxsize=TEXT_CACHE)
def ellipsize(words: str, box_width: int, px: int) -> str:
    """The longest start of `words` that, with an ellipsis, fits `box_width`; `words`
    itself if it fits, and "" if not even the ellipsis does."""
    words = clean(words)
    if width(words, px) <= box_width:
        return words
    low, high = 0, len(words)
    while low < high:
        middle = (low + high + 1) // 2
        if width(words[:middle].rstrip() + ELLIPSIS, px) <= box_width:
            low = middle
        else:
            high = middle - 1
    shortened = words[:low].rstrip() + ELLIPSIS
    return shortened if width(shortened, px) <= box_width else ""


@functools.lru_cache(maxsize=TEXT_CACHE)
def fitting_size(words: str, box_width: int, px: int, min_px: int) -> int:
    """The largest size from `px` down to `min_px` at which `words` fit `box_width`
    (`min_px` when none does)."""
    words = clean(words)
    size = px
    while size > min_px and width(words, size) > box_width:
        drawn = width(words, size)
        size = max(min_px, min(size - 1, size * box_width // max(drawn, 1)))
    return size


@functools.lru_cache(maxsize=TEXT_CACHE)
def common_size(texts: tuple[str, ...], box_width: int, px: int, min_px: int) -> int:
    """The one size, from `px` down to `min_px`, at which all `texts` fit `box_width`,
    so that a list is drawn at one size (entries too long even at `min_px` are then
    cut short)."""
    return min((fitting_size(t, box_width, px, min_px) for t in texts), default=px)


@functools.lru_cache(maxsize=SURFACES_KEPT)
def fit(words: str, box_width: int, px: int, colour: RGB, min_px: int = 0) -> pygame.Surface:
    """`words` rendered no wider than `box_width`: shrunk down to `min_px` (default:
    not shrunk), then cut short with an ellipsis."""
    size = fitting_size(words, max(box_width, 0), px, min(min_px, px) or px)
    drawn = text(ellipsize(words, max(box_width, 0), size), size, colour)
    if drawn.get_width() > box_width:
        return drawn.subsurface((0, 0, max(box_width, 0), drawn.get_height()))
    return drawn


NO_BREAK = re.compile(r"[^\S\u00a0\u2007\u202f]+")
"""Where a line may break: any run of spaces but the no-break ones, which French
puts before : ; ? and ! so that they never start a line."""


def breakable_words(text: str) -> list[str]:
    """`text` cut where a line may break; no-break spaces stay inside the words."""
    return [word for word in NO_BREAK.split(clean(text)) if word.strip()]


@functools.lru_cache(maxsize=TEXT_CACHE)
def wrap(words: str, box_width: int, px: int) -> tuple[str, ...]:
    """`words` broken into lines no wider than `box_width`, between words where
    possible (never at a no-break space) and inside a word only when the word alone
    is too wide."""
    lines: list[str] = []
    current = ""
    for word in breakable_words(words):
        candidate = f"{current} {word}" if current else word
        if width(candidate, px) <= box_width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = word
        while len(current) > 1:
            cut = _longest_start(current, box_width, px)
            if cut >= len(current):
                break
            lines.append(current[: max(1, cut)])
            current = current[max(1, cut) :]
    if current:
        lines.append(current)
    return tuple(lines)


def _longest_start(word: str, box_width: int, px: int) -> int:
    """How many characters of `word`, from its start, fit `box_width`: the starts
    measured double in length until one does not fit, then a binary search between
    the last two, so that a line costs what its own characters cost to measure, however
    long the word it is cut from."""
    low, high = 0, min(len(word), 8)
    while width(word[:high], px) <= box_width:
        if high == len(word):
            return high
        low, high = high, min(len(word), high * 2)
    high -= 1
    while low < high:
        middle = (low + high + 1) // 2
        if width(word[:middle], px) <= box_width:
            low = middle
        else:
            high = middle - 1
    return low


def fits_whole(paragraphs: tuple[str, ...], box: tuple[int, int], px: int, margin: int = 0) -> bool:
    """Whether `paragraphs` (each starting on a new line) wrap into a box of (width,
    height) at size `px` without breaking a word; on more than one line, with `margin`
    to spare below them."""
    box_width, box_height = box
    lines = sum(len(wrap(p, box_width, px)) for p in paragraphs)
    spare = margin if lines > 1 else 0
    if lines * line_height(px) + spare > box_height:
        return False
    words = {word for p in paragraphs for word in breakable_words(p)}
    return all(width(word, px) <= box_width for word in words)


def largest_size(
    texts: Iterable[tuple[tuple[str, ...], tuple[int, int]]],
    px: int,
    min_px: int,
    margin: int = 0,
    coarse: bool = False,
) -> int | None:
    """The largest size from `px` down to `min_px` at which every text, given as its
    paragraphs and its box, `fits_whole` (with `margin`); None when none does. Sizes
    are tried one by one, or, `coarse`, each a twelfth smaller than the last (fewer
    tries: for a long text, each costs its wrapping)."""
    boxes = tuple(texts)
    for size in _sizes_down(px, min_px, coarse):
        if all(fits_whole(paragraphs, box, size, margin) for paragraphs, box in boxes):
            return size
    return None


def _sizes_down(px: int, min_px: int, coarse: bool) -> Iterator[int]:
    """The sizes `largest_size` tries: from `px` down, ending at `min_px` (none when
    `px` is below it)."""
    size = px
    while size > min_px:
        yield size
        size = max(min_px, size - (max(1, size // 12) if coarse else 1))
    if size == min_px:
        yield size


@dataclass(frozen=True)
class Block:
    """Lines of text laid out in a box."""

    px: int
    """The size they are drawn at."""
    lines: tuple[str, ...]
    """The lines, each fitting the box width; the last ends in an ellipsis when
    the text was cut short."""
    cut: bool = False
    """Whether the text was cut short (or its paragraphs run on)."""


@functools.lru_cache(maxsize=TEXT_CACHE)
def block(paragraphs: tuple[str, ...], box: tuple[int, int], max_px: int, min_px: int) -> Block:
    """`paragraphs` (each starting on a new line) in a box of (width, height): the
    largest size from `max_px` to `min_px` at which all lines fit without breaking a
    word (`largest_size`, trying sizes a twelfth apart); at `min_px` the paragraphs
    run on, separated by semicolons, and whatever is left is cut short."""
    box_width, box_height = box
    size = largest_size(((paragraphs, box),), max_px, min_px, coarse=True)
    if size is None:
        size = min(max_px, min_px)
    lines = tuple(line for p in paragraphs for line in wrap(p, box_width, size))
    capacity = max(1, box_height // line_height(size))
    cut = False
    if len(lines) > capacity and len(paragraphs) > 1:
        lines = wrap("; ".join(paragraphs), box_width, size)
    if len(lines) > capacity:
        last = ellipsize(lines[capacity - 1] + ELLIPSIS, box_width, size)
        lines = (*lines[: capacity - 1], last)
        cut = True
    cut = cut or any(
        width(word, size) > box_width for p in paragraphs for word in breakable_words(p)
    )
    return Block(size, lines, cut)
