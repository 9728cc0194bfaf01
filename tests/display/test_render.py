"""Drawing views: every sample renders at every screen size, the hit map offers
exactly what can be touched, text stays in its box, and rabbits stand where their
scores say."""

import dataclasses

import numpy as np
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.actions import Action, Press
from companion.colours import RGB
from companion.display import (
    camera,
    fonts,
    header,
    layout,
    notices,
    paint,
    scoreboard,
    table,
    theme,
    track,
    typescale,
    winner,
)
from companion.display.rabbit import labels
from companion.display.render import HitMap, render
from companion.display.view import (
    CameraView,
    Level,
    Notice,
    OnScreenButton,
    Rabbit,
    ScreenView,
)
from tests.display import sample_views

SIZES = [(1280, 720), (1920, 1080), (800, 480)]


def draw(view: ScreenView, size: tuple[int, int] = (1280, 720)) -> tuple[pygame.Surface, HitMap]:
    surface = pygame.Surface(size)
    return surface, render(view, surface)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(sample_views.SAMPLES))
def test_every_sample_renders_at_every_size(name: str, size: tuple[int, int]) -> None:
    view = sample_views.SAMPLES[name]()
    _, hits = draw(view, size)
    width, height = size
    for (x, y, w, h), _ in hits.areas:
        assert x >= 0 and y >= 0 and x + w <= width and y + h <= height
        assert w > 0 and h > 0
    for button in view.buttons:
        assert (Press(button.action) in hits.presses()) == button.enabled


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(sample_views.SAMPLES))
def test_touchable_areas_never_overlap(name: str, size: tuple[int, int]) -> None:
    _, hits = draw(sample_views.SAMPLES[name](), size)
    rects = [pygame.Rect(area) for area, _ in hits.areas]
    for i, rect in enumerate(rects):
        assert rect.collidelist(rects[i + 1 :]) == -1


@pytest.mark.parametrize(
    "size", [(800, 480), (1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_the_editor_answer_arrows_can_be_touched(size: tuple[int, int]) -> None:
    _, hits = draw(sample_views.editor(), size)
    presses = hits.presses()
    assert presses.count(Press(Action.LEFT)) == presses.count(Press(Action.RIGHT)) == 2
    _, summary = draw(sample_views.small_editor(), size)
    assert summary.presses().count(Press(Action.LEFT)) == 1, "only the button on the summary"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_setup_choice_can_be_touched(size: tuple[int, int]) -> None:
    view = sample_views.setup()
    _, hits = draw(view, size)
    assert view.setup is not None
    choices = len(view.setup.choices)
    assert {p.target for p in hits.presses() if p.action is Action.PICK} == set(range(choices))


def test_disabled_buttons_are_drawn_but_not_touchable() -> None:
    view = ScreenView(
        "t",
        "h",
        (),
        buttons=(
            OnScreenButton("Confirm", Action.CONFIRM, enabled=False),
            OnScreenButton("Undo", Action.UNDO),
        ),
    )
    _, hits = draw(view)
    assert hits.presses() == (Press(Action.UNDO),)


def test_a_touch_between_buttons_makes_no_press() -> None:
    _, hits = draw(sample_views.twelve_players())
    assert hits.press_at(0, 0) is None
    box = hits.box_of(Press(Action.CONFIRM))
    assert box is not None
    x, y, w, h = box
    assert hits.press_at(x + w / 2, y + h / 2) == Press(Action.CONFIRM)
    assert hits.press_at(x + w, y + h / 2) != Press(Action.CONFIRM)


# Text


@settings(max_examples=150, deadline=None)
@given(
    words=st.text(max_size=120),
    box_width=st.integers(min_value=0, max_value=700),
    px=st.integers(min_value=4, max_value=90),
    shrink=st.booleans(),
)
def test_fitted_text_is_never_wider_than_its_box(
    words: str, box_width: int, px: int, shrink: bool
) -> None:
    drawn = fonts.fit(words, box_width, px, theme.TEXT, px // 2 if shrink else 0)
    assert drawn.get_width() <= box_width


@settings(max_examples=100, deadline=None)
@given(
    words=st.text(max_size=80),
    rect=st.tuples(
        st.integers(0, 200), st.integers(0, 100), st.integers(1, 400), st.integers(1, 80)
    ),
    px=st.integers(min_value=6, max_value=60),
)
def test_a_line_of_text_draws_only_inside_its_rectangle(
    words: str, rect: tuple[int, int, int, int], px: int
) -> None:
    surface = pygame.Surface((640, 200), pygame.SRCALPHA)
    box = pygame.Rect(rect)
    paint.line(surface, words, box, px, theme.TEXT, "center", px // 2)
    inked = surface.get_bounding_rect()
    if inked.width and inked.height:
        assert box.contains(inked)


@settings(max_examples=100, deadline=None)
@given(
    words=st.text(alphabet=st.characters(codec="latin-1"), max_size=200),
    box_width=st.integers(min_value=30, max_value=600),
    px=st.integers(min_value=8, max_value=48),
)
def test_wrapped_lines_fit_their_box(words: str, box_width: int, px: int) -> None:
    for line in fonts.wrap(words, box_width, px):
        assert fonts.width(line, px) <= box_width or len(line) == 1


@settings(max_examples=100, deadline=None)
@given(
    paragraphs=st.lists(st.text(max_size=80), min_size=1, max_size=6).map(tuple),
    box=st.tuples(st.integers(20, 600), st.integers(30, 300)),
)
def test_a_block_of_text_fits_its_box(paragraphs: tuple[str, ...], box: tuple[int, int]) -> None:
    laid = fonts.block(paragraphs, box, 40, 12)
    assert len(laid.lines) * fonts.line_height(laid.px) <= max(box[1], fonts.line_height(laid.px))
    assert all(fonts.width(line, laid.px) <= box[0] or len(line) == 1 for line in laid.lines)


def test_long_text_is_cut_with_an_ellipsis() -> None:
    cut = fonts.ellipsize("Alexandrina Montgomery-Smythe", 120, 24)
    assert cut.endswith(fonts.ELLIPSIS) and fonts.width(cut, 24) <= 120
    assert fonts.ellipsize("Ann", 120, 24) == "Ann"


def test_a_list_is_drawn_at_one_size() -> None:
    names = ("Ann", "Bartholomew", "Evangeline Featherstonehaugh")
    size = fonts.common_size(names, 300, 40, 20)
    assert all(fonts.width(n, size) <= 300 for n in names[:2])
    assert size == min(fonts.fitting_size(n, 300, 40, 20) for n in names)


# Rabbits on the track

PURPLE: RGB = (170, 20, 150)
"""A colour no other part of the screen uses."""


def track_band(view: ScreenView, size: tuple[int, int] = (1280, 720)) -> pygame.Rect:
    """Where the playing screen draws the track."""
    s = theme.scale_for(size[1])
    s = theme.scale_for(size[1], size[0])
    parts = layout.frame(size, s, bool(view.buttons), view.headline, header.seated(view))
    return pygame.Rect(table.arrange(parts.body, view, s, parts.gap).track)


def track_cell(view: ScreenView, space: int, size: tuple[int, int] = (1280, 720)) -> pygame.Rect:
    band = track_band(view, size)
    return track.place(band, tuple(track.shown_at(r.position) for r in view.rabbits)).cell(space)


def pixels_of(surface: pygame.Surface, colour: RGB, area: pygame.Rect) -> int:
    block = pygame.surfarray.array3d(surface.subsurface(area))
    return int(np.all(block == np.array(colour), axis=2).sum())


def one_rabbit(position: float, colour: RGB = PURPLE, target: int | None = 30) -> ScreenView:
    return ScreenView(
        "t",
        "h",
        (Rabbit("Pat", (colour,), round(position), position),),
        target=target,
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("score", [0, 4, 15, 16, 29, 30])
def test_a_rabbit_stands_on_its_space(score: int, size: tuple[int, int]) -> None:
    view = one_rabbit(score)
    surface, _ = draw(view, size)
    on_space = pixels_of(surface, PURPLE, track_cell(view, score, size))
    assert on_space > 20
    assert pixels_of(surface, PURPLE, track_band(view, size)) == on_space


def test_a_moving_rabbit_stands_between_spaces() -> None:
    view = one_rabbit(7.5)
    surface, _ = draw(view)
    band = track_band(view)
    mask = np.all(pygame.surfarray.array3d(surface.subsurface(band)) == np.array(PURPLE), axis=2)
    xs = np.nonzero(mask)[0] + band.x
    left, right = track_cell(view, 7), track_cell(view, 8)
    assert left.centerx < xs.mean() < right.centerx


def test_a_rabbit_past_the_finish_stays_on_it_ringed_in_gold() -> None:
    past, plain = one_rabbit(34, target=None), one_rabbit(30, target=None)
    past_surface, _ = draw(past)
    plain_surface, _ = draw(plain)
    finish = track_cell(past, 30)
    assert pixels_of(past_surface, PURPLE, finish) > 20
    assert pixels_of(past_surface, PURPLE, track_cell(past, 4)) == 0, "not back at the start"
    assert pixels_of(past_surface, theme.GOLD, finish) > 20
    assert pixels_of(plain_surface, theme.GOLD, track_cell(plain, 30)) == 0


def crowd_on_space_3(total: int) -> ScreenView:
    """Five rabbits of strong colours (no white: its body is the initials' colour)
    with `total` each."""
    colours = [c for c in sample_views.RGBS if min(c) < 200]
    rabbits = tuple(
        Rabbit(name, (colour,), total, float(total))
        for name, colour in zip(sample_views.LONG_NAMES[:5], colours, strict=False)
    )
    return ScreenView("t", "h", rabbits, target=None)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rabbits_past_the_finish_stand_on_it_with_their_totals(size: tuple[int, int]) -> None:
    view = crowd_on_space_3(33)
    surface, _ = draw(view, size)
    finish = track_cell(view, 30, size)
    with typescale.recording() as record:
        track.draw(pygame.Surface(size), track_band(view, size), view.rabbits, None)
    totals = [d for d in record if d.words == "33"]
    assert len(totals) == len(view.rabbits), "each rabbit past the finish shows its total"
    assert pixels_of(surface, theme.GOLD, finish) > 10
    for rabbit in view.rabbits:
        assert pixels_of(surface, rabbit.colours[0], finish) > 10


def test_each_rabbit_carries_a_label_no_other_rabbit_has() -> None:
    names = ("Margot", "Marie-Christine", "Maximilien", "Léa", "Lucien", "Zoé", "", "Ann + Bob")
    assert labels(names) == ("Ma", "Mr", "Mx", "Lé", "Lu", "Z", "7", "AB")
    assert labels(("Ann", "Ann")) == ("An", "A2")
    assert labels(("", "")) == ("1", "2")


@pytest.mark.parametrize(
    ("width_of", "lines"),
    [
        ("Maximilien-Alexandre + Hélène", ("Maximilien-Alexandre + Hélène",)),
        ("Maximilien-Alexandre +", ("Maximilien-Alexandre +", "Hélène")),
        ("Alexandre + Hélène", ("Maximilien-", "Alexandre + Hélène")),
        ("Maximilien", None),
    ],
)
def test_a_long_name_wraps_between_words_or_after_a_hyphen(
    width_of: str, lines: tuple[str, ...] | None
) -> None:
    """In a box as wide as `width_of` is drawn."""
    width = fonts.width(width_of, 11)
    assert scoreboard.name_lines("Maximilien-Alexandre + Hélène", width, 11, 2) == lines


def test_all_twelve_rabbits_on_one_space_show_their_colours() -> None:
    view = sample_views.crowded()
    surface, _ = draw(view)
    cell = track_cell(view, 0)
    for rabbit in view.rabbits:
        assert pixels_of(surface, rabbit.colours[0], cell) > 20, rabbit.name


def test_a_crowded_space_is_drawn_wider() -> None:
    view = sample_views.crowded()
    assert track_cell(view, 0).width > 1.8 * track_cell(view, 5).width


def test_team_rabbits_show_every_member_colour() -> None:
    view = sample_views.teams()
    surface, _ = draw(view)
    ann_bob = view.rabbits[0]
    cell = track_cell(view, ann_bob.total)
    for colour in ann_bob.colours:
        assert pixels_of(surface, colour, cell) > 10


# Panels


def test_notices_are_shown_most_urgent_first() -> None:
    given_order = (
        Notice("a", Level.INFO),
        Notice("b", Level.WAITING),
        Notice("c", Level.PROBLEM),
        Notice("d", Level.WAITING),
    )
    assert [n.text for n in notices.ordered(given_order)] == ["c", "b", "d", "a"]


def test_standings_share_places_on_equal_totals() -> None:
    assert winner.places((31, 31, 28, 27, 27, 20)) == (1, 1, 3, 4, 4, 6)


def test_the_camera_picture_is_turned_from_bgr_to_rgb() -> None:
    image = np.zeros((4, 6, 3), np.uint8)
    image[:, :] = (255, 10, 0)
    picture = camera.picture(image)
    assert picture.get_size() == (6, 4)
    assert tuple(picture.get_at((0, 0)))[:3] == (0, 10, 255)


def test_a_failed_camera_is_a_red_box() -> None:
    view = sample_views.camera_failed()
    surface, _ = draw(view)
    assert pixels_of(surface, theme.ALARM_FILL, surface.get_rect()) > 5000


def test_the_countdown_is_drawn_when_set() -> None:
    counting = sample_views.long_reasons()
    still = dataclasses.replace(counting, countdown=None)
    s = theme.scale_for(720)
    header = layout.frame((1280, 720), s, True).header
    corner = pygame.Rect(header.right - header.height, header.y, header.height, header.height)
    counting_surface, _ = draw(counting)
    still_surface, _ = draw(still)
    assert pixels_of(counting_surface, theme.GOLD, corner) > 50
    assert pixels_of(still_surface, theme.GOLD, corner) == 0


def test_a_grey_camera_picture_is_drawn_too() -> None:
    grey = np.full((30, 40), 128, np.uint8)
    view = ScreenView("t", "h", (), camera=CameraView(grey, "grey", True))
    in_colour = dataclasses.replace(view, camera=CameraView(np.dstack([grey] * 3), "grey", True))
    surface, _ = draw(view)
    colour_surface, _ = draw(in_colour)
    assert pixels_of(surface, (128, 128, 128), surface.get_rect()) > 40 * 30
    assert np.array_equal(
        pygame.surfarray.array3d(surface), pygame.surfarray.array3d(colour_surface)
    ), "drawn as the same picture in colour is"


@pytest.mark.parametrize(
    ("colour", "ring"),
    [((40, 40, 40), theme.CHALK), ((235, 235, 235), theme.INK), ((235, 200, 30), theme.INK)],
    ids=["black", "white", "yellow"],
)
def test_every_rabbit_is_outlined_to_stand_out(colour: RGB, ring: RGB) -> None:
    view = one_rabbit(7, colour)
    surface, _ = draw(view)
    cell = track_cell(view, 7)
    assert pixels_of(surface, colour, cell) > 100
    assert pixels_of(surface, ring, cell) > 40
