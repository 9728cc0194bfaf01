"""The round editor, one question at a time: the question in large type, its answer
between two arrows (touching one gives the answer before or after), what is wrong
with that answer alone in words, and how far along the questions are ("3 / 24").
After the last question, a short summary: whether the round can be saved, and the
score it would get.

Type is sized by its capital height in millimetres on the screen, as the table is
read from the seats: `SIZES` is the one place the sizes are set.
"""

import functools
import math
from dataclasses import dataclass

import pygame

from companion.actions import Action, Press
from companion.display import fonts, paint, theme
from companion.display.hitmap import Box, box
from companion.display.theme import Scale
from companion.display.view import Breakdown, EditorView

SCREEN_HEIGHT_MM = 480 * 0.193
"""The picture's height on the 7-inch 800x480 display (0.193 mm a pixel). A
1280x720 screen is taken to be the same physical size, so its type is as many
millimetres high in more pixels."""


@dataclass(frozen=True)
class CapHeights:
    """Capital heights in millimetres for each part of the editor's text."""

    question: float = 4.0
    """The question and the summary's verdict: read from the seats, 1.5 m away."""
    answer: float = 5.5
    """The answer between the arrows: the thing that changes with a press."""
    detail: float = 2.0
    """Why the answer is not allowed, the progress, the summary's lines."""


SIZES = CapHeights()
"""The editor's type sizes (to move to a shared type scale, should one come)."""


def cap_px(mm: float, height: int) -> float:
    """`mm` of capital height in pixels of a screen `height` pixels high."""
    return mm * height / SCREEN_HEIGHT_MM


@functools.lru_cache(maxsize=64)
def size_for_cap(mm: float, height: int) -> int:
    """The smallest font size (`fonts` line height) whose capitals are at least `mm`
    high on a screen `height` pixels high."""
    wanted = cap_px(mm, height)
    px = max(4, int(wanted))
    while fonts.font(px).metrics("H")[0][3] < wanted:
        px += 1
    return px


def question_area(body: pygame.Rect, height: int, s: Scale, gap: int) -> pygame.Rect:
    """Where the question (or the summary) goes in the editor's `body`: below the line
    of the title and the progress, inside its panel."""
    top = fonts.line_height(size_for_cap(SIZES.detail, height))
    panel = pygame.Rect(body.x, body.y + top + gap, body.width, body.height - top - gap)
    return panel.inflate(-2 * s(16), -2 * s(10))


def draw(
    surface: pygame.Surface, body: pygame.Rect, editor: EditorView, s: Scale, gap: int
) -> list[tuple[Box, Press]]:
    """The question (or the summary) in `body`; returns the arrows as presses."""
    height = surface.get_height()
    detail = size_for_cap(SIZES.detail, height)
    big = size_for_cap(SIZES.question, height)
    top = pygame.Rect(body.x, body.y, body.width, fonts.line_height(detail))
    paint.line(surface, editor.progress, top, detail, theme.GOLD, "right", detail)
    inner = question_area(body, height, s, gap)
    paint.panel(surface, inner.inflate(2 * s(16), 2 * s(10)))
    if editor.reviewing:
        _summary(surface, inner, editor, big, detail, gap, s)
        return []
    return _question(surface, inner, editor, gap)


@dataclass(frozen=True)
class QuestionLayout:
    """Where a question's parts go, and whether all of it shows whole."""

    question: pygame.Rect
    answer: pygame.Rect
    """The row of the answer and its arrows."""
    problem: pygame.Rect | None
    """Why the answer is not allowed (None when nothing is wrong)."""
    sizes: tuple[int, int, int]
    """The question's, the answer's and the problem's size (`fonts` line heights)."""
    whole: bool
    """Whether every word shows at its size: none cut short, none off the area."""


def lay_out(editor: EditorView, area: pygame.Rect, height: int, gap: int) -> QuestionLayout:
    """The question, the answer and the problem stacked and centred in `area`, on a
    screen `height` pixels high."""
    big = size_for_cap(SIZES.question, height)
    answer_px = size_for_cap(SIZES.answer, height)
    detail = size_for_cap(SIZES.detail, height)
    asked = fonts.wrap(editor.question, area.width, big)
    asked_height = len(asked) * fonts.line_height(big)
    row_height = fonts.line_height(answer_px) + 2 * gap
    said = fonts.wrap(editor.problem, area.width, detail) if editor.problem else ()
    said_height = len(said) * fonts.line_height(detail)
    used = asked_height + gap + row_height + (gap + said_height if said else 0)
    y = area.y + max(0, (area.height - used) // 2)
    question = pygame.Rect(area.x, y, area.width, asked_height)
    row = pygame.Rect(area.x, question.bottom + gap, area.width, row_height)
    problem = pygame.Rect(area.x, row.bottom + gap, area.width, said_height) if said else None
    answer_fits = fonts.width(fonts.clean(editor.answer), answer_px) <= area.width - 6 * answer_px
    whole = (
        used <= area.height
        and answer_fits
        and fonts.fits_whole((editor.question,), (area.width, asked_height), big)
        and (not said or fonts.fits_whole((editor.problem,), (area.width, said_height), detail))
    )
    return QuestionLayout(question, row, problem, (big, answer_px, detail), whole)


def _question(
    surface: pygame.Surface, area: pygame.Rect, editor: EditorView, gap: int
) -> list[tuple[Box, Press]]:
    laid = lay_out(editor, area, surface.get_height(), gap)
    big, answer_px, detail = laid.sizes
    paint.paragraphs(surface, (editor.question,), laid.question, big, big, theme.TEXT, "center")
    hits = _answer(surface, laid.answer, editor.answer, answer_px)
    if laid.problem is not None:
        colour = theme.AMBER if editor.unanswered else theme.RED
        paint.paragraphs(surface, (editor.problem,), laid.problem, detail, detail, colour, "center")
    return hits


def _answer(
    surface: pygame.Surface, row: pygame.Rect, words: str, px: int
) -> list[tuple[Box, Press]]:
    """The answer between its two arrows, each arrow half of the row to touch."""
    arrow = px
    value_width = max(fonts.width(fonts.clean(words), px), 3 * px)
    value = pygame.Rect(0, row.y, min(value_width + px, row.width - 4 * arrow), row.height)
    value.centerx = row.centerx
    paint.panel(surface, value, theme.HIGHLIGHT, theme.GOLD, max(2, px // 12), radius=px // 4)
    paint.line(surface, words, value.inflate(-px // 2, 0), px, theme.TEXT, "center", px // 2)
    _arrow(surface, (value.x - arrow, row.centery), arrow, -1)
    _arrow(surface, (value.right + arrow, row.centery), arrow, 1)
    left = pygame.Rect(row.x, row.y, row.centerx - row.x, row.height)
    right = pygame.Rect(row.centerx, row.y, row.right - row.centerx, row.height)
    return [(box(left), Press(Action.LEFT)), (box(right), Press(Action.RIGHT))]


def _arrow(surface: pygame.Surface, centre: tuple[int, int], size: int, pointing: int) -> None:
    x, y = centre
    half = size // 2
    tip = (x + pointing * half, y)
    pygame.draw.polygon(
        surface,
        theme.GOLD,
        [tip, (x - pointing * half, y - size * 2 // 3), (x - pointing * half, y + size * 2 // 3)],
    )


def _summary(
    surface: pygame.Surface,
    area: pygame.Rect,
    editor: EditorView,
    big: int,
    detail: int,
    gap: int,
    s: Scale,
) -> None:
    """The verdict in large type, its lines and any problem in detail size, then the
    score the round would get in what is left."""
    verdict = fonts.block((editor.question,), (area.width, 2 * fonts.line_height(big)), big, big)
    verdict_height = len(verdict.lines) * fonts.line_height(verdict.px)
    head = pygame.Rect(area.x, area.y, area.width, verdict_height)
    colour = theme.GOLD if editor.preview is not None else theme.TEXT
    paint.paragraphs(surface, (editor.question,), head, big, big, colour, "center")
    y = head.bottom + gap
    if editor.problem:
        room = pygame.Rect(area.x, y, area.width, area.bottom - y)
        y += paint.paragraphs(surface, (editor.problem,), room, detail, detail, theme.RED, "center")
        y += gap // 2
    if editor.summary:
        room = pygame.Rect(area.x, y, area.width, area.bottom - y)
        y += paint.paragraphs(surface, editor.summary, room, detail, detail, theme.MUTED, "center")
        y += gap
    if editor.preview is not None and area.bottom - y > 0:
        rest = pygame.Rect(area.x, y, area.width, area.bottom - y)
        _points(surface, rest, editor.preview, detail, big, gap, s)


def _points_size(
    preview: Breakdown, area: pygame.Rect, smallest: int, largest: int, gap: int
) -> tuple[int, int]:
    """The largest size from `largest` down to `smallest`, and the fewest columns (up
    to three), at which every scorer's name and points show whole in `area`."""
    count = max(1, len(preview.lines))
    for px in range(largest, smallest, -1):
        step = fonts.line_height(px) + gap // 2
        for columns in (1, 2, 3):
            width = (area.width - gap * (columns - 1)) // columns
            room = width - fonts.width("+00", px) - px - gap
            rows = math.ceil(count / columns)
            names = all(fonts.width(fonts.clean(line.name), px) <= room for line in preview.lines)
            if rows * step <= area.height and names:
                return px, columns
    columns = max(
        1, math.ceil(count * (fonts.line_height(smallest) + gap // 2) / max(area.height, 1))
    )
    return smallest, columns


def _points(
    surface: pygame.Surface,
    area: pygame.Rect,
    preview: Breakdown,
    px: int,
    big: int,
    gap: int,
    s: Scale,
) -> None:
    """The round's points, each scorer with a swatch and "+3", in as few columns as
    the area's height allows (the reasons are on the phone and on the table after)."""
    lines = preview.lines
    px, columns = _points_size(preview, area, px, big, gap)
    step = fonts.line_height(px) + gap // 2
    per_column = math.ceil(len(lines) / columns)
    width = (area.width - gap * (columns - 1)) // columns
    points_width = fonts.width("+00", px)
    for k, line in enumerate(lines):
        column, place = divmod(k, per_column)
        cell = pygame.Rect(area.x + column * (width + gap), area.y + place * step, width, step)
        swatch = pygame.Rect(cell.x, cell.centery - px // 3, px * 2 // 3, px * 2 // 3)
        paint.swatch(surface, swatch, line.colours)
        name = pygame.Rect(swatch.right + s(6), cell.y, width - points_width - px - s(12), step)
        paint.line(surface, line.name, name, px, theme.TEXT, "left", px)
        shown = f"+{line.points}" if line.points > 0 else str(line.points)
        colour = theme.GOLD if line.points > 0 else theme.MUTED
        points = pygame.Rect(cell.right - points_width, cell.y, points_width, step)
        paint.line(surface, shown, points, px, colour, "right", px)
