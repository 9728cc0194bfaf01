"""The setup screen: every step, in English and French, on the television and on the
7" touch screen. Every choice can be touched, rows are a finger high, words stay in
their boxes whole, and what matters (the step, the cursor, the picks, the problems,
the teams) shows in its colour."""

import dataclasses
import itertools

import numpy as np
import pygame
import pytest

from companion.actions import Action, Press
from companion.colours import RGB
from companion.display import fonts, layout, setup_screen, theme
from companion.display.render import HitMap, render
from companion.display.setup_screen import Plan
from companion.display.setup_words import Words
from companion.display.view import ScreenView, StepView
from tests.display import sample_views

SIZES = [(1280, 720), (800, 480)]
"""The television and the 7" touch screen."""
SMALLEST_TOUCH = {(1280, 720): 60, (800, 480): 40}
"""The least height of a choice's row, in pixels: 40 is a fingertip on the 7" screen."""
SETUP_SAMPLES = {
    **sample_views.SETUP_SAMPLES,
    "setup": sample_views.setup,
    "small-setup": sample_views.small_setup,
}


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def draw(view: ScreenView, size: tuple[int, int]) -> tuple[pygame.Surface, HitMap]:
    surface = pygame.Surface(size)
    return surface, render(view, surface)


def body_of(view: ScreenView, size: tuple[int, int]) -> pygame.Rect:
    return layout.frame(size, theme.scale_for(size[1]), bool(view.buttons)).body


def plan_of(view: ScreenView, size: tuple[int, int]) -> tuple[Plan, pygame.Rect]:
    """The setup screen's plan of `view`, and the body it is drawn in."""
    assert view.setup is not None
    s = theme.scale_for(size[1])
    parts = layout.frame(size, s, bool(view.buttons))
    return setup_screen.plan(parts.body.size, view.setup, s, parts.gap), parts.body


def step_of(view: ScreenView) -> StepView:
    assert view.setup is not None
    return view.setup


def row_words(made: Plan) -> list[tuple[pygame.Rect, list[Words]]]:
    return [
        (row.rect, [w for w in (row.label, row.detail, row.badge) if w is not None])
        for row in made.rows
    ]


def pixels_of(surface: pygame.Surface, colour: RGB, area: pygame.Rect) -> int:
    block = pygame.surfarray.array3d(surface.subsurface(area))
    return int(np.all(block == np.array(colour), axis=2).sum())


# Touch


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SETUP_SAMPLES))
def test_every_choice_is_a_touchable_row_inside_the_body(name: str, size: tuple[int, int]) -> None:
    view = SETUP_SAMPLES[name]()
    _, hits = draw(view, size)
    body = body_of(view, size)
    picks = [(area, press) for area, press in hits.areas if press.action is Action.PICK]
    assert [press for _, press in picks] == [
        Press(Action.PICK, i) for i in range(len(step_of(view).choices))
    ]
    for area, _ in picks:
        assert body.contains(pygame.Rect(area))
        assert area[3] >= SMALLEST_TOUCH[size]


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SETUP_SAMPLES))
def test_touchable_areas_never_overlap(name: str, size: tuple[int, int]) -> None:
    _, hits = draw(SETUP_SAMPLES[name](), size)
    rects = [pygame.Rect(area) for area, _ in hits.areas]
    for i, rect in enumerate(rects):
        assert rect.collidelist(rects[i + 1 :]) == -1


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_a_touch_on_a_row_picks_its_choice(size: tuple[int, int]) -> None:
    view = sample_views.setup_seats("fr")
    made, body = plan_of(view, size)
    _, hits = draw(view, size)
    for i, row in enumerate(made.rows):
        centre = row.rect.move(body.topleft).center
        assert hits.press_at(*centre) == Press(Action.PICK, i)


def test_choices_fill_a_column_before_the_next() -> None:
    made, _ = plan_of(sample_views.setup_seats(), (800, 480))
    left, right = made.rows[0].rect, made.rows[7].rect
    assert right.y == left.y and right.x > left.right
    assert made.rows[6].rect.bottom < made.panel.bottom
    assert all(a.rect.y < b.rect.y for a, b in itertools.pairwise(made.rows[:7]))


def test_a_list_too_long_for_one_column_takes_another_rather_than_shrink_its_rows() -> None:
    view = sample_views.setup_seats()
    step = dataclasses.replace(step_of(view), columns=1)
    made, _ = plan_of(dataclasses.replace(view, setup=step), (800, 480))
    assert all(row.rect.height >= 40 for row in made.rows)
    assert len({row.rect.x for row in made.rows}) == 2


# Words


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SETUP_SAMPLES))
def test_every_word_stays_in_its_row_apart_from_the_others(
    name: str, size: tuple[int, int]
) -> None:
    made, _ = plan_of(SETUP_SAMPLES[name](), size)
    for row in made.rows:
        parts = [w.rect for w in (row.label, row.detail, row.badge) if w is not None]
        parts += [r for r in (row.mark, row.swatch) if r is not None]
        for part in parts:
            assert row.rect.contains(part), (row.label.lines, part, row.rect)
        for a, b in itertools.combinations(parts, 2):
            assert not a.colliderect(b), (row.label.lines, a, b)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SETUP_SAMPLES))
def test_every_line_fits_its_box(name: str, size: tuple[int, int]) -> None:
    made, _ = plan_of(SETUP_SAMPLES[name](), size)
    every = [w for _, words in row_words(made) for w in words] + list(made.panel_words)
    for words in every:
        assert len(words.lines) * fonts.line_height(words.px) <= words.rect.height
        for line in words.lines:
            assert fonts.width(line, words.px) <= words.rect.width, line


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SETUP_SAMPLES))
def test_no_word_is_cut_short(name: str, size: tuple[int, int]) -> None:
    """Labels, details, badges, the summary, problems, teams and hint are all drawn
    whole, in English and French, twelve players included."""
    view = SETUP_SAMPLES[name]()
    step = step_of(view)
    made, _ = plan_of(view, size)

    def shown(words: Words | None) -> str:
        assert words is not None
        return " ".join(words.lines)

    def whole(text: str) -> str:
        return " ".join(fonts.breakable_words(text))

    for row, choice in zip(made.rows, step.choices, strict=True):
        assert shown(row.label) == whole(choice.label)
        if choice.detail:
            assert shown(row.detail) == whole(choice.detail)
        if choice.badge:
            assert shown(row.badge) == whole(choice.badge)
    panel = " ".join(shown(w) for w in made.panel_words)
    for text in (step.summary, *step.problems, step.hint):
        assert whole(text) in panel
    for group in step.groups:
        assert group.label in panel
        assert all(name in panel for name, _ in group.members)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SETUP_SAMPLES))
def test_the_side_panel_holds_its_words_apart(name: str, size: tuple[int, int]) -> None:
    made, _ = plan_of(SETUP_SAMPLES[name](), size)
    rects = [w.rect for w in made.panel_words] + [c.rect for c in made.chips]
    for rect in rects:
        assert made.panel.contains(rect)
    for a, b in itertools.combinations(rects, 2):
        assert not a.colliderect(b)
    for row in made.rows:
        assert not row.rect.colliderect(made.panel)


def test_a_crowded_panel_cuts_the_hint_short_never_the_problems() -> None:
    view = sample_views.setup_seats("fr")
    step = step_of(view)
    crowded = dataclasses.replace(step, hint=step.hint * 3, problems=step.problems * 4)
    s = theme.scale_for(480)
    made = setup_screen.plan((784, 340), crowded, s, 7)
    problems = [w for w in made.panel_words if w.colour == theme.RED]
    assert " ".join(line for w in problems for line in w.lines).count("emplacement 4") == 4
    hint = [w for w in made.panel_words if w.colour == theme.MUTED]
    assert hint and hint[-1].lines[-1].endswith(fonts.ELLIPSIS)
    for words in made.panel_words:
        assert made.panel.contains(words.rect)


def french_texts() -> set[str]:
    """Every text the French setup samples show."""
    texts: set[str] = set()
    for name, build in sample_views.SETUP_SAMPLES.items():
        if not name.endswith("-fr"):
            continue
        view = build()
        step = step_of(view)
        texts |= {view.title, view.headline, step.summary, step.hint, *step.steps}
        texts |= set(step.problems) | {b.label for b in view.buttons}
        for choice in step.choices:
            texts |= {choice.label, choice.detail, choice.badge}
        for group in step.groups:
            texts |= {group.label, *(name for name, _ in group.members)}
    return texts


def test_every_letter_of_the_french_steps_has_a_glyph() -> None:
    """Accented letters are drawn as letters, not as the font's empty box."""
    missing = pygame.surfarray.array_alpha(fonts.text("\u4e2d", 40, theme.TEXT))
    letters = {c for text in french_texts() for c in text if not c.isspace()}
    assert {"É", "é", "è", "à", "ç", "ô"} <= letters
    for letter in sorted(letters | {"û", "ï", "œ", "Ç", "À"}):
        drawn = pygame.surfarray.array_alpha(fonts.text(letter, 40, theme.TEXT))
        assert drawn.any(), letter
        assert drawn.shape != missing.shape or not np.array_equal(drawn, missing), letter


def test_french_punctuation_never_starts_a_line() -> None:
    """The no-break space before : ; ? ! keeps the sign with the word before it."""
    text = "Qui joue\u00a0? Chaque joueur pose un jeton\u00a0; déplacez-le\u00a0: merci\u00a0!"
    for box_width in range(160, 400, 7):
        for line in fonts.wrap(text, box_width, 20):
            assert line[0] not in ":;?!", (box_width, line)
    assert fonts.breakable_words("a b\u00a0?") == ["a", "b\u00a0?"]
    assert fonts.breakable_words("  one\ttwo\n") == ["one", "two"]


# Colours


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_current_step_is_gold_and_the_others_not(size: tuple[int, int]) -> None:
    view = sample_views.setup_names()
    made, body = plan_of(view, size)
    surface, _ = draw(view, size)
    for i, pill in enumerate(made.progress):
        gold = pixels_of(surface, theme.GOLD, pill.move(body.topleft))
        assert (gold > pill.width * pill.height // 2) == (i == step_of(view).step)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_picked_choices_carry_the_mark_and_the_selected_one_a_gold_frame(
    size: tuple[int, int],
) -> None:
    view = sample_views.setup_seats()
    made, body = plan_of(view, size)
    surface, _ = draw(view, size)
    for row, choice in zip(made.rows, step_of(view).choices, strict=True):
        if row.mark is not None:
            marked = pixels_of(surface, theme.GOLD, row.mark.move(body.topleft))
            assert (marked > 0) == choice.picked, choice.label
        rect = row.rect.move(body.topleft)
        edge = pixels_of(surface, theme.GOLD, pygame.Rect(rect.x, rect.y, rect.width, 2))
        assert (edge > rect.width // 2) == choice.selected, choice.label


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_problems_are_drawn_in_the_problem_colour(size: tuple[int, int]) -> None:
    view = sample_views.setup_seats()
    made, body = plan_of(view, size)
    surface, _ = draw(view, size)
    assert pixels_of(surface, theme.RED, made.panel.move(body.topleft)) > 50
    calm = sample_views.setup_teams()
    made, body = plan_of(calm, size)
    surface, _ = draw(calm, size)
    assert pixels_of(surface, theme.RED, made.panel.move(body.topleft)) == 0


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_each_team_shows_its_members_colours(size: tuple[int, int]) -> None:
    view = sample_views.setup_teams("fr")
    made, body = plan_of(view, size)
    surface, _ = draw(view, size)
    panel = made.panel.move(body.topleft)
    for group in step_of(view).groups:
        for _, colour in group.members:
            assert pixels_of(surface, colour, panel) > 20


def test_every_colour_seat_shows_its_swatch() -> None:
    view = sample_views.setup_seats()
    made, body = plan_of(view, (800, 480))
    surface, _ = draw(view, (800, 480))
    for row, choice in zip(made.rows, step_of(view).choices, strict=True):
        if choice.colours:
            assert row.swatch is not None
            assert pixels_of(surface, choice.colours[0], row.swatch.move(body.topleft)) > 100
        else:
            assert row.swatch is None and row.mark is None


def test_a_step_draws_the_same_twice() -> None:
    view = sample_views.setup_edition("fr")
    first, _ = draw(view, (800, 480))
    draw(sample_views.setup_options(), (800, 480))
    again, _ = draw(view, (800, 480))
    assert np.array_equal(pygame.surfarray.array3d(first), pygame.surfarray.array3d(again))
