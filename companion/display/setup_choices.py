"""The setup screen's choices: touchable rows in the step's columns, each with a mark
on those picked, the colour's swatch, the label with its detail beneath (or beside,
in wide rows) and the badge at the right end; the row Confirm acts on is framed in
gold.

Rows stay at least a finger high on the 7" screen: columns are added before rows
get lower. The labels of a step share one size where they can, each wrapped whole;
the details then take the largest size at which every one of them fits whole, under
their labels or, failing that, beside them.
"""

import math
from dataclasses import dataclass, replace

import pygame

from companion.colours import RGB
from companion.display import fonts, paint, theme
from companion.display.setup_words import Words, paint_tick, paint_words, same_baseline
from companion.display.theme import Scale
from companion.display.view import Choice

SMALLEST_ROW = 60
"""Design height of a choice row: 40 pixels on the 7" screen, a fingertip."""
MOST_COLUMNS = 4
"""Columns added to keep rows a fingertip high stop at this many."""
LARGEST_ROW = 84
"""Rows of short lists grow no taller than this."""
ROW_GAP = 6
"""Design space between rows."""
LABEL_PX = 28
LABEL_MIN_PX = 18
DETAIL_PX = 22
DETAIL_MIN_PX = 16
BADGE_PX = 22
BADGE_MIN_PX = 16
"""Design sizes of a row's words: largest, and smallest before they are cut short."""
LABEL_MARGIN = 6
"""Design space a label wrapped onto two lines keeps from its row's edges (but in a
column of labels beside details, where the rows are low and the lines short)."""
LABEL_LIST_PX = 22
"""The labels of a step are drawn at one size down to this; a label too long even
then shrinks alone, down to `LABEL_MIN_PX`."""
BESIDE_WIDTH = 560
"""Design width of a row's words from which long details may go beside the labels."""


@dataclass(frozen=True)
class Row:
    """Where the parts of one choice's row go."""

    rect: pygame.Rect
    """The whole row, which a touch picks."""
    mark: pygame.Rect | None
    """The picked mark's box: when any choice of the step is picked, on every choice
    like the others (a gold disc when picked, an empty ring when not)."""
    swatch: pygame.Rect | None
    """The colour chip's box, when the choice has colours."""
    label: Words
    detail: Words | None
    badge: Words | None


def rows(
    area: pygame.Rect, choices: tuple[Choice, ...], columns: int, s: Scale, gap: int
) -> tuple[Row, ...]:
    """The choices in `columns` columns (more when rows would be lower than a
    fingertip), filled top to bottom then left to right."""
    if not choices:
        return ()
    between = s(ROW_GAP)
    columns = min(columns, len(choices))
    while True:
        per_column = math.ceil(len(choices) / columns)
        height = min(s(LARGEST_ROW), (area.height - between * (per_column - 1)) // per_column)
        if height >= s(SMALLEST_ROW) or columns >= min(len(choices), MOST_COLUMNS):
            break
        columns += 1
    width = (area.width - gap * (columns - 1)) // columns
    rects = [
        pygame.Rect(
            area.x + (i // per_column) * (width + gap),
            area.y + (i % per_column) * (height + between),
            width,
            height,
        )
        for i in range(len(choices))
    ]
    marked = any(c.picked for c in choices)
    coloured = any(c.colours for c in choices)
    shapes = [
        _shape(r.inflate(-2 * s(12), -2 * s(5)), c, marked, coloured, s)
        for r, c in zip(rects, choices, strict=True)
    ]
    texts = [text for _, _, text in shapes]
    sizes = _sizes(choices, texts, s)
    parts = [_parts(c, text, sizes, s) for c, text in zip(choices, texts, strict=True)]
    fit = (
        _stacked(choices, parts, sizes, s)
        or _beside(choices, parts, sizes, s)
        or Fit(False, sizes.label_px, s(DETAIL_MIN_PX), 0)
    )
    return tuple(
        Row(rect, mark, swatch, *_words(choice, part, fit, s))
        for rect, choice, (mark, swatch, _), part in zip(rects, choices, shapes, parts, strict=True)
    )


def _shape(
    inner: pygame.Rect, choice: Choice, marked: bool, coloured: bool, s: Scale
) -> tuple[pygame.Rect | None, pygame.Rect | None, pygame.Rect]:
    """The mark's, the swatch's and the text's boxes in a row's inner box. A step
    with picks keeps a column for the mark; a line unlike the others (Done among
    colours) gets no empty mark, as it cannot be picked like them."""
    x = inner.x
    mark = swatch = None
    if marked:
        side = min(inner.height, s(30))
        if choice.picked or bool(choice.colours) == coloured:
            mark = pygame.Rect(x, inner.centery - side // 2, side, side)
        x += side + s(10)
    if coloured:
        side = min(inner.height, s(40))
        if choice.colours:
            swatch = pygame.Rect(x + 2, inner.centery - side // 2, side, side)
        x += side + 4 + s(12)
    return mark, swatch, pygame.Rect(x, inner.y, max(0, inner.right - x), inner.height)


@dataclass(frozen=True)
class Sizes:
    """The sizes every row of a step shares."""

    label_px: int
    badge_px: int


def _sizes(choices: tuple[Choice, ...], texts: list[pygame.Rect], s: Scale) -> Sizes:
    """The largest label size at which every label fits whole (wrapped where the row
    has the height), down to `LABEL_LIST_PX`; and the largest badge size at which
    every badge fits on one line beside its label, down to `BADGE_MIN_PX` (large
    labels take larger badges)."""
    detail_line = fonts.line_height(s(DETAIL_MIN_PX))
    height = texts[0].height
    start = (
        max(s(LABEL_MIN_PX), min(s(LABEL_PX), height * 3 // 5, height - detail_line))
        if any(c.detail for c in choices)
        else max(s(LABEL_MIN_PX), min(s(LABEL_PX + 6), height * 3 // 5))
    )
    boxes = [
        (
            (c.label,),
            (
                _label_room(c, text, s),
                text.height - (detail_line if c.detail else 0),
            ),
        )
        for c, text in zip(choices, texts, strict=True)
    ]
    found = fonts.largest_size(boxes, start, s(LABEL_LIST_PX), s(LABEL_MARGIN))
    label_px = found or s(LABEL_LIST_PX)
    largest = max(s(BADGE_PX), label_px * 4 // 5)
    badge_px = min(
        (
            fonts.fitting_size(c.badge, _badge_room(c, text, label_px, s), largest, s(BADGE_MIN_PX))
            for c, text in zip(choices, texts, strict=True)
            if c.badge
        ),
        default=s(BADGE_PX),
    )
    return Sizes(label_px, badge_px)


def _label_room(choice: Choice, text: pygame.Rect, s: Scale) -> int:
    """The width the label may take: all the text's, less the badge at its smallest
    (or, when even that is long, two fifths, where it wraps)."""
    if not choice.badge:
        return text.width
    badge = min(fonts.width(choice.badge, s(BADGE_MIN_PX)), text.width * 2 // 5)
    return max(0, text.width - badge - s(10))


def _badge_room(choice: Choice, text: pygame.Rect, label_px: int, s: Scale) -> int:
    """The width left beside the label's widest line for the badge."""
    room = _label_room(choice, text, s)
    lines = fonts.wrap(choice.label, room, label_px) or ("",)
    label = min(max(fonts.width(line, label_px) for line in lines), room)
    return max(0, text.width - label - s(10))


@dataclass(frozen=True)
class Parts:
    """A row's text box cut for its badge."""

    words: pygame.Rect
    """Where the label and detail go."""
    badge: pygame.Rect | None
    """The badge's column when it wraps beside them, None when it stays on the
    label's first line (or there is none)."""
    inline_badge: int
    """The width of a badge on the label's line, 0 when there is none."""
    badge_px: int


def _parts(choice: Choice, text: pygame.Rect, sizes: Sizes, s: Scale) -> Parts:
    """The badge on the label's line when it fits there, else in a column of its own."""
    if not choice.badge:
        return Parts(text, None, 0, sizes.badge_px)
    room = _badge_room(choice, text, sizes.label_px, s)
    width = fonts.width(choice.badge, sizes.badge_px)
    if width <= room:
        return Parts(text, None, width, sizes.badge_px)
    column = max(room, text.width - _label_room(choice, text, s) - s(10))
    words = pygame.Rect(text.x, text.y, text.width - column - s(10), text.height)
    badge = pygame.Rect(words.right + s(10), text.y, column, text.height)
    return Parts(words, badge, 0, sizes.badge_px)


@dataclass(frozen=True)
class Fit:
    """How the rows of a step place their details, all alike."""

    beside: bool
    """Whether the details stand in a column right of the labels (else under them)."""
    label_px: int
    detail_px: int
    label_width: int
    """Beside: the label column's width."""


def _detail_px(label_px: int, s: Scale) -> int:
    """The largest size of a detail: smaller than its label, which reads first."""
    return max(s(DETAIL_MIN_PX), min(s(DETAIL_PX), label_px * 4 // 5))


def _stacked(choices: tuple[Choice, ...], parts: list[Parts], sizes: Sizes, s: Scale) -> Fit | None:
    """Details under one-line labels, when every detail fits there whole (or when
    there are none)."""
    label_height = fonts.line_height(sizes.label_px)
    texts = [
        ((c.detail,), (p.words.width, p.words.height - label_height))
        for c, p in zip(choices, parts, strict=True)
        if c.detail
    ]
    px = fonts.largest_size(texts, _detail_px(sizes.label_px, s), s(DETAIL_MIN_PX))
    return None if px is None else Fit(False, sizes.label_px, px, 0)


def _beside(choices: tuple[Choice, ...], parts: list[Parts], sizes: Sizes, s: Scale) -> Fit | None:
    """Labels in a column of their own (wrapped when long) and the details beside
    them, when the rows are wide enough and everything then fits whole."""
    narrowest = min(p.words.width for p in parts)
    if narrowest < s(BESIDE_WIDTH) or not any(c.detail for c in choices):
        return None
    widest = max(fonts.width(c.label, sizes.label_px) for c in choices)
    column = min(widest, narrowest * 2 // 5)
    height = parts[0].words.height
    boxes = [((c.label,), (column, height)) for c in choices]
    label_px = fonts.largest_size(boxes, sizes.label_px, s(LABEL_MIN_PX))
    if label_px is None:
        return None
    fit = Fit(True, label_px, _detail_px(label_px, s), column)
    texts = [
        ((c.detail,), _detail_beside(p, fit, s).size)
        for c, p in zip(choices, parts, strict=True)
        if c.detail
    ]
    detail_px = fonts.largest_size(texts, _detail_px(label_px, s), s(DETAIL_MIN_PX))
    return None if detail_px is None else Fit(True, label_px, detail_px, column)


def _detail_beside(parts: Parts, fit: Fit, s: Scale) -> pygame.Rect:
    """The detail's box right of the label column, left of a badge."""
    box = parts.words
    x = box.x + fit.label_width + s(16)
    right = box.right - (parts.inline_badge + s(10) if parts.inline_badge else 0)
    return pygame.Rect(x, box.y, max(0, right - x), box.height)


def _words(
    choice: Choice, parts: Parts, fit: Fit, s: Scale
) -> tuple[Words, Words | None, Words | None]:
    """A row's label, detail and badge, placed as `fit` says."""
    box = parts.words
    detail = None
    if fit.beside:
        column = pygame.Rect(box.x, box.y, fit.label_width, box.height)
        label = _label(choice.label, column, fit.label_px, s, margin=0)
        if choice.detail:
            room = _detail_beside(parts, fit, s)
            detail = _block((choice.detail,), room, fit.detail_px, fit.detail_px, theme.MUTED)
        line = fonts.line_height(label.px)
        first = pygame.Rect(box.x, box.centery - line // 2, box.width, line)
    else:
        width = box.width - (parts.inline_badge + s(10) if parts.inline_badge else 0)
        lines: tuple[str, ...] = ()
        below = box.height - fonts.line_height(fit.label_px)
        if choice.detail and below >= fonts.line_height(fit.detail_px):
            size = (box.width, below)
            lines = fonts.block((choice.detail,), size, fit.detail_px, fit.detail_px).lines
        used = len(lines) * fonts.line_height(fit.detail_px)
        above = pygame.Rect(box.x, box.y, width, box.height - used)
        label = _label(choice.label, above, fit.label_px, s)
        top = box.centery - (label.rect.height + used) // 2
        label = replace(label, rect=label.rect.move(0, top - label.rect.y))
        if lines:
            rect = pygame.Rect(box.x, label.rect.bottom, box.width, used)
            detail = Words(rect, fit.detail_px, lines, theme.MUTED)
        first = pygame.Rect(label.rect.topleft, (box.width, fonts.line_height(label.px)))
    badge = None
    if parts.badge is not None:
        badge = _block(
            (choice.badge,), parts.badge, parts.badge_px, s(BADGE_MIN_PX), theme.GOLD, "right"
        )
    elif parts.inline_badge:
        top = same_baseline(first, label.px, parts.badge_px)
        rect = pygame.Rect(
            box.right - parts.inline_badge,
            top,
            parts.inline_badge,
            fonts.line_height(parts.badge_px),
        )
        badge = Words(rect, parts.badge_px, (choice.badge,), theme.GOLD, "right")
    return label, detail, badge


def _label(text: str, room: pygame.Rect, px: int, s: Scale, margin: int = LABEL_MARGIN) -> Words:
    """A label at `px`, wrapped when the room has the height (and `margin` to spare);
    a label too long even so shrinks, down to `LABEL_MIN_PX`, and is then cut short.
    Centred vertically."""
    margin_px = s(margin) if margin else 0
    size = fonts.largest_size([((text,), room.size)], px, s(LABEL_MIN_PX), margin_px)
    if size is None:
        laid = fonts.block((text,), room.size, s(LABEL_MIN_PX), s(LABEL_MIN_PX))
        size, lines = laid.px, laid.lines
    else:
        lines = fonts.wrap(text, room.width, size)
    height = len(lines) * fonts.line_height(size)
    rect = pygame.Rect(room.x, room.centery - height // 2, room.width, height)
    return Words(rect, size, lines, theme.TEXT)


def _block(
    texts: tuple[str, ...],
    room: pygame.Rect,
    px: int,
    min_px: int,
    colour: RGB,
    align: paint.Align = "left",
) -> Words:
    """`texts` wrapped in `room` at the largest size that fits, centred vertically."""
    laid = fonts.block(texts, room.size, px, min_px)
    used = min(room.height, len(laid.lines) * fonts.line_height(laid.px))
    rect = pygame.Rect(room.x, room.centery - used // 2, room.width, used)
    return Words(rect, laid.px, laid.lines, colour, align)


# Drawing


def paint_row(surface: pygame.Surface, row: Row, choice: Choice) -> None:
    """A choice's row: framed in gold under the cursor, lighter when picked, with its
    mark, swatch and words."""
    radius = max(4, row.rect.height // 6)
    if choice.selected:
        paint.panel(
            surface, row.rect, theme.HIGHLIGHT, theme.GOLD, max(3, row.rect.height // 14), radius
        )
    elif choice.picked:
        paint.panel(surface, row.rect, theme.CELL, theme.PANEL_EDGE, 1, radius)
    else:
        paint.panel(surface, row.rect, theme.PANEL, theme.PANEL_EDGE, 1, radius)
    if row.mark is not None:
        _mark(surface, row.mark, choice.picked)
    if row.swatch is not None and choice.colours:
        paint.swatch(surface, row.swatch, choice.colours)
    paint_words(surface, row.label, row.rect)
    if row.detail is not None:
        paint_words(surface, row.detail, row.rect)
    if row.badge is not None:
        paint_words(surface, row.badge, row.rect)


def _mark(surface: pygame.Surface, rect: pygame.Rect, picked: bool) -> None:
    """A gold disc with a tick on a picked choice, an empty ring on the others."""
    radius = rect.width // 2
    if picked:
        pygame.draw.circle(surface, theme.GOLD, rect.center, radius)
        inner = rect.inflate(-rect.width // 2, -rect.height // 2)
        paint_tick(surface, inner, theme.INK)
    else:
        pygame.draw.circle(
            surface, theme.PANEL_EDGE, rect.center, radius, width=max(2, radius // 6)
        )
