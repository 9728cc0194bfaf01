"""The setup screen: one step of setting up a game (language, edition, seats, names,
options, first storyteller), drawn from a `StepView`.

Across the top run the steps, the current one in gold and those done dimmed. Below,
the choices are touchable rows in the view's columns: a mark on those picked, the
colour's swatch, the label with its detail beneath, and the badge at the right end;
the row Confirm acts on is framed in gold. A panel at the right holds the game as
set up so far, the teams, what stops the step (in red) and, at its foot, how to
choose. Rows stay at least a finger high on the 7" screen; the panel's text gives way
first, by shrinking, then by cutting the hint short.

Every word comes from the view: this module only decides where the words go.
"""

import functools
import math
from dataclasses import dataclass, replace

import pygame

from companion.actions import Action, Press
from companion.colours import RGB
from companion.display import cache, fonts, layout, paint, theme
from companion.display.hitmap import Box, box
from companion.display.theme import Scale
from companion.display.view import Choice, Group, StepView

SMALLEST_ROW = 60
"""Design height of a choice row: 40 pixels on the 7" screen, a fingertip."""
MOST_COLUMNS = 4
"""Columns added to keep rows a fingertip high stop at this many."""
LARGEST_ROW = 84
"""Rows of short lists grow no taller than this."""
ROW_GAP = 6
"""Design space between rows."""
PANEL_SHARE = 0.27
"""The side panel's share of the body's width."""
PROGRESS_PX = 24
"""Design size of the step names across the top."""
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
PANEL_SHRINK = (1.0, 0.92, 0.85, 0.78, 0.72)
"""The factors the side panel's sizes are tried at, until everything fits."""


@dataclass(frozen=True)
class Words:
    """Lines of text placed in a box."""

    rect: pygame.Rect
    """The box; every line fits its width, and the lines fit its height."""
    px: int
    lines: tuple[str, ...]
    colour: RGB
    align: paint.Align = "left"


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


@dataclass(frozen=True)
class Chip:
    """A colour chip beside a team member's name in the side panel."""

    rect: pygame.Rect
    colour: RGB


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
    rows = _rows(left, step.choices, max(1, step.columns), s, gap)
    words, chips = _panel(panel.inflate(-2 * s(14), -2 * s(12)), step, s)
    return Plan(pills, progress_px, rows, panel, words, chips)


# Layout


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


def _rows(
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
            c.label,
            (
                _label_room(c, text, s),
                text.height - (detail_line if c.detail else 0),
            ),
        )
        for c, text in zip(choices, texts, strict=True)
    ]
    label_px = _largest(boxes, start, s(LABEL_LIST_PX), s(LABEL_MARGIN)) or s(LABEL_LIST_PX)
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


def _fits(text: str, box: tuple[int, int], px: int, margin: int = 0) -> bool:
    """Whether `text` wraps into `box` at `px` without breaking a word; wrapped onto
    more than one line, with `margin` to spare."""
    width, height = box
    lines = fonts.wrap(text, width, px)
    spare = margin if len(lines) > 1 else 0
    return len(lines) * fonts.line_height(px) + spare <= height and all(
        fonts.width(word, px) <= width for word in fonts.breakable_words(text)
    )


def _largest(
    texts: list[tuple[str, tuple[int, int]]], px: int, min_px: int, margin: int = 0
) -> int | None:
    """The largest size from `px` down to `min_px` at which every text fits its box."""
    for size in range(px, min_px - 1, -1):
        if all(_fits(text, box, size, margin) for text, box in texts):
            return size
    return None


def _detail_px(label_px: int, s: Scale) -> int:
    """The largest size of a detail: smaller than its label, which reads first."""
    return max(s(DETAIL_MIN_PX), min(s(DETAIL_PX), label_px * 4 // 5))


def _stacked(choices: tuple[Choice, ...], parts: list[Parts], sizes: Sizes, s: Scale) -> Fit | None:
    """Details under one-line labels, when every detail fits there whole (or when
    there are none)."""
    label_height = fonts.line_height(sizes.label_px)
    texts = [
        (c.detail, (p.words.width, p.words.height - label_height))
        for c, p in zip(choices, parts, strict=True)
        if c.detail
    ]
    px = _largest(texts, _detail_px(sizes.label_px, s), s(DETAIL_MIN_PX))
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
    boxes = [(c.label, (column, height)) for c in choices]
    label_px = _largest(boxes, sizes.label_px, s(LABEL_MIN_PX))
    if label_px is None:
        return None
    fit = Fit(True, label_px, _detail_px(label_px, s), column)
    texts = [
        (c.detail, _detail_beside(p, fit, s).size)
        for c, p in zip(choices, parts, strict=True)
        if c.detail
    ]
    detail_px = _largest(texts, _detail_px(label_px, s), s(DETAIL_MIN_PX))
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
        top = _same_baseline(first, label.px, parts.badge_px)
        rect = pygame.Rect(
            box.right - parts.inline_badge,
            top,
            parts.inline_badge,
            fonts.line_height(parts.badge_px),
        )
        badge = Words(rect, parts.badge_px, (choice.badge,), theme.GOLD, "right")
    return label, detail, badge


def _same_baseline(line: pygame.Rect, px: int, other_px: int) -> int:
    """The top of a line of size `other_px` whose words stand on the same baseline as
    those of `line`, of size `px` (as `_line` draws them)."""
    big, small = fonts.font(px), fonts.font(other_px)
    baseline = line.centery - big.get_height() // 2 + big.get_ascent()
    height = fonts.line_height(other_px)
    return baseline - small.get_ascent() + small.get_height() // 2 - height // 2


def _label(text: str, room: pygame.Rect, px: int, s: Scale, margin: int = LABEL_MARGIN) -> Words:
    """A label at `px`, wrapped when the room has the height (and `margin` to spare);
    a label too long even so shrinks, down to `LABEL_MIN_PX`, and is then cut short.
    Centred vertically."""
    size = _largest([(text, room.size)], px, s(LABEL_MIN_PX), s(margin) if margin else 0)
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


def _panel(
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


# Drawing


def _paint(surface: pygame.Surface, area: pygame.Rect, step: StepView, s: Scale, gap: int) -> None:
    """Everything of `step` on a surface the size of the body."""
    made = plan(area.size, step, s, gap)
    _paint_progress(surface, made, step, s)
    for row, choice in zip(made.rows, step.choices, strict=True):
        _paint_row(surface, row, choice)
    paint.panel(surface, made.panel, theme.PANEL, theme.PANEL_EDGE, 1, radius=10)
    for chip in made.chips:
        paint.swatch(surface, chip.rect, (chip.colour,))
    for words in made.panel_words:
        _paint_words(surface, words)


def _paint_progress(surface: pygame.Surface, made: Plan, step: StepView, s: Scale) -> None:
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
            _tick(surface, pygame.Rect(x, pill.centery - side // 2, side, side), colour)
        text = pygame.Rect(x + tick, pill.y, pill.right - x - tick, pill.height)
        _line(surface, shown, px, colour, text, "left", pill)


def _paint_row(surface: pygame.Surface, row: Row, choice: Choice) -> None:
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
    _paint_words(surface, row.label, row.rect)
    if row.detail is not None:
        _paint_words(surface, row.detail, row.rect)
    if row.badge is not None:
        _paint_words(surface, row.badge, row.rect)


def _paint_words(surface: pygame.Surface, words: Words, within: pygame.Rect | None = None) -> None:
    """Each line at its place; accents reaching above a line may use the room up to
    `within` (the row), never beyond it."""
    step = fonts.line_height(words.px)
    for i, text in enumerate(words.lines):
        line = pygame.Rect(words.rect.x, words.rect.y + i * step, words.rect.width, step)
        room = line.inflate(0, step // 2)
        room = room.clip(within) if within is not None else room
        _line(surface, text, words.px, words.colour, line, words.align, room)


def _line(
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


def _mark(surface: pygame.Surface, rect: pygame.Rect, picked: bool) -> None:
    """A gold disc with a tick on a picked choice, an empty ring on the others."""
    radius = rect.width // 2
    if picked:
        pygame.draw.circle(surface, theme.GOLD, rect.center, radius)
        inner = rect.inflate(-rect.width // 2, -rect.height // 2)
        _tick(surface, inner, theme.INK)
    else:
        pygame.draw.circle(
            surface, theme.PANEL_EDGE, rect.center, radius, width=max(2, radius // 6)
        )


def _tick(surface: pygame.Surface, rect: pygame.Rect, colour: RGB) -> None:
    """A tick filling `rect`."""
    points = [
        (rect.x, rect.y + rect.height * 11 // 20),
        (rect.x + rect.width * 2 // 5, rect.bottom),
        (rect.right, rect.y),
    ]
    pygame.draw.lines(surface, colour, False, points, max(2, rect.width // 4))
