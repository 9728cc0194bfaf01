"""The round editor, one question at a time: the question in large type, its answer
between two arrows (touching one gives the answer before or after), what is wrong
with that answer alone in words, and how far along the questions are ("3 / 24").
After the last question, a short summary: whether the round can be saved, and the
score it would get.

Type is sized by its capital height in millimetres on the screen, as the table is
read from the seats: `SIZES` is the one place the sizes are set.
"""

import functools
from dataclasses import dataclass

import pygame

from companion.actions import Action, Press
from companion.display import breakdown, fonts, paint, theme
from companion.display.hitmap import Box, box
from companion.display.theme import Scale
from companion.display.view import EditorView

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


def draw(
    surface: pygame.Surface, body: pygame.Rect, editor: EditorView, s: Scale, gap: int
) -> list[tuple[Box, Press]]:
    """The question (or the summary) in `body`; returns the arrows as presses."""
    height = surface.get_height()
    detail = size_for_cap(SIZES.detail, height)
    big = size_for_cap(SIZES.question, height)
    top = pygame.Rect(body.x, body.y, body.width, fonts.line_height(detail))
    paint.line(surface, editor.title, top, detail, theme.MUTED, "left", detail)
    paint.line(surface, editor.progress, top, detail, theme.GOLD, "right", detail)
    rest = pygame.Rect(body.x, top.bottom + gap, body.width, body.bottom - top.bottom - gap)
    paint.panel(surface, rest)
    inner = rest.inflate(-2 * s(16), -2 * s(10))
    if editor.reviewing:
        _summary(surface, inner, editor, big, detail, gap, s)
        return []
    return _question(surface, inner, editor, big, detail, gap)


def _question(
    surface: pygame.Surface,
    area: pygame.Rect,
    editor: EditorView,
    big: int,
    detail: int,
    gap: int,
) -> list[tuple[Box, Press]]:
    height = surface.get_height()
    answer_px = size_for_cap(SIZES.answer, height)
    asked = fonts.block((editor.question,), (area.width, 2 * fonts.line_height(big)), big, big)
    asked_height = len(asked.lines) * fonts.line_height(asked.px)
    row_height = fonts.line_height(answer_px) + 2 * gap
    problem_room = area.height - asked_height - row_height - 2 * gap
    problem_height = 0
    if editor.problem:
        laid = fonts.block((editor.problem,), (area.width, max(problem_room, 1)), detail, detail)
        problem_height = min(len(laid.lines) * fonts.line_height(laid.px), max(problem_room, 0))
    used = asked_height + gap + row_height + (gap + problem_height if problem_height else 0)
    y = area.y + max(0, (area.height - used) // 2)
    question = pygame.Rect(area.x, y, area.width, asked_height)
    paint.paragraphs(surface, (editor.question,), question, big, big, theme.TEXT, "center")
    row = pygame.Rect(area.x, question.bottom + gap, area.width, row_height)
    hits = _answer(surface, row, editor.answer, answer_px)
    if problem_height:
        colour = theme.AMBER if editor.unanswered else theme.RED
        said = pygame.Rect(area.x, row.bottom + gap, area.width, problem_height)
        paint.paragraphs(surface, (editor.problem,), said, detail, detail, colour, "center")
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
        breakdown.draw(surface, rest, editor.preview, s)
