"""The screen without a display: keys, clicks and touches become presses, frames
are saved as PNG, and the mode is chosen from what the machine offers."""

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from companion.actions import Action, Press
from companion.display.screen import (
    ABANDON_TOUCH_SECONDS,
    KEYS,
    DisplayMode,
    Screen,
    choose_mode,
)
from companion.display.view import ScreenView
from tests.display import sample_views


class Clock:
    """A clock that a test moves by hand, so that holds take no real time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def screen(clock: Clock) -> Iterator[Screen]:
    shown = Screen((1280, 720), DisplayMode.HEADLESS, clock)
    shown.presses()
    yield shown
    shown.close()


def centre_of(screen: Screen, press: Press) -> tuple[int, int]:
    box = screen.hits.box_of(press)
    assert box is not None, press
    x, y, w, h = box
    return (x + w // 2, y + h // 2)


def nowhere(screen: Screen) -> tuple[int, int]:
    """A point of the frame shown where there is nothing to touch."""
    width, height = screen.surface.get_size()
    for y in range(5, height, 10):
        for x in range(5, width, 10):
            if screen.hits.press_at(x, y) is None:
                return (x, y)
    raise AssertionError("every point of the frame can be touched")


def click(at: tuple[int, int], button: int = pygame.BUTTON_LEFT, touch: bool = False) -> None:
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=button, touch=touch)
    )


def release(at: tuple[int, int], button: int = pygame.BUTTON_LEFT, touch: bool = False) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=button, touch=touch))


def finger(kind: int, at: tuple[int, int], finger_id: int = 0) -> None:
    """A finger going down (FINGERDOWN) or up (FINGERUP) at `at` on the 1280x720 screen."""
    x, y = at
    pygame.event.post(
        pygame.event.Event(
            kind,
            x=x / 1280,
            y=y / 720,
            dx=0.0,
            dy=0.0,
            touch_id=0,
            finger_id=finger_id,
            pressure=1.0,
        )
    )


def test_every_key_makes_its_press(screen: Screen) -> None:
    for key in KEYS:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    assert screen.presses() == [Press(action) for action in KEYS.values()]


@pytest.mark.parametrize(
    ("key", "action"),
    [
        (pygame.K_RETURN, Action.CONFIRM),
        (pygame.K_KP_ENTER, Action.CONFIRM),
        (pygame.K_SPACE, Action.CONFIRM),
        (pygame.K_BACKSPACE, Action.UNDO),
        (pygame.K_u, Action.UNDO),
        (pygame.K_n, Action.NEXT),
        (pygame.K_TAB, Action.NEXT),
        (pygame.K_f, Action.FIX),
        (pygame.K_a, Action.ABANDON),
        (pygame.K_UP, Action.UP),
        (pygame.K_DOWN, Action.DOWN),
        (pygame.K_LEFT, Action.LEFT),
        (pygame.K_RIGHT, Action.RIGHT),
        (pygame.K_ESCAPE, Action.BACK),
        (pygame.K_q, Action.QUIT),
    ],
)
def test_the_keyboard_map(screen: Screen, key: int, action: Action) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    assert screen.presses() == [Press(action)]


def test_other_keys_and_events_make_no_press(screen: Screen) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x, mod=0, unicode="x"))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode=""))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(0, 0, 0))
    )
    assert screen.presses() == []


def test_closing_the_window_quits(screen: Screen) -> None:
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert screen.presses() == [Press(Action.QUIT)]


def test_a_click_on_a_button_presses_it(screen: Screen) -> None:
    screen.show(sample_views.twelve_players())
    click(centre_of(screen, Press(Action.FIX)))
    click(centre_of(screen, Press(Action.CONFIRM)))
    assert screen.presses() == [Press(Action.FIX), Press(Action.CONFIRM)]


def test_a_click_on_a_disabled_button_does_nothing(screen: Screen) -> None:
    view = sample_views.twelve_players()
    enabled = tuple(dataclasses.replace(b, enabled=True) for b in view.buttons)
    screen.show(dataclasses.replace(view, buttons=enabled))
    undo = centre_of(screen, Press(Action.UNDO))
    screen.show(view)
    click(undo)
    assert screen.presses() == []


def test_right_clicks_and_clicks_made_by_touch_are_ignored(screen: Screen) -> None:
    screen.show(sample_views.twelve_players())
    at = centre_of(screen, Press(Action.CONFIRM))
    click(at, button=pygame.BUTTON_RIGHT)
    click(at, touch=True)
    assert screen.presses() == []


def test_a_touch_presses_what_is_under_the_finger(screen: Screen) -> None:
    screen.show(sample_views.twelve_players())
    x, y = centre_of(screen, Press(Action.QUIT))
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN,
            x=x / 1280,
            y=y / 720,
            dx=0.0,
            dy=0.0,
            touch_id=0,
            finger_id=0,
            pressure=1.0,
        )
    )
    assert screen.presses() == [Press(Action.QUIT)]


def test_touching_beside_the_editor_answer_changes_it(screen: Screen) -> None:
    screen.show(sample_views.editor())
    click(centre_of(screen, Press(Action.RIGHT)))
    click(centre_of(screen, Press(Action.LEFT)))
    assert screen.presses() == [Press(Action.RIGHT), Press(Action.LEFT)]


def test_touching_a_player_at_setup_picks_them(screen: Screen) -> None:
    screen.show(sample_views.setup())
    click(centre_of(screen, Press(Action.PICK, 2)))
    assert screen.presses() == [Press(Action.PICK, 2)]


def test_clicks_follow_the_frame_last_shown(screen: Screen) -> None:
    screen.show(sample_views.editor())
    arrow = centre_of(screen, Press(Action.RIGHT))
    screen.show(sample_views.three_players())
    click(arrow)
    assert Press(Action.RIGHT) not in screen.presses()


def test_a_long_click_on_no_button_asks_to_abandon_when_let_go(
    screen: Screen, clock: Clock
) -> None:
    screen.show(sample_views.twelve_players())
    at = nowhere(screen)
    click(at)
    assert screen.presses() == []
    clock.now += ABANDON_TOUCH_SECONDS
    release(at)
    assert screen.presses() == [Press(Action.ABANDON)]


def test_a_click_on_no_button_let_go_too_soon_does_nothing(screen: Screen, clock: Clock) -> None:
    screen.show(sample_views.twelve_players())
    at = nowhere(screen)
    click(at)
    assert screen.presses() == []
    clock.now += ABANDON_TOUCH_SECONDS - 0.1
    release(at)
    assert screen.presses() == []


def test_a_long_click_on_a_button_presses_only_that_button(screen: Screen, clock: Clock) -> None:
    screen.show(sample_views.twelve_players())
    at = centre_of(screen, Press(Action.CONFIRM))
    click(at)
    assert screen.presses() == [Press(Action.CONFIRM)]
    clock.now += 10 * ABANDON_TOUCH_SECONDS
    release(at)
    assert screen.presses() == []


def test_a_long_touch_on_no_button_asks_to_abandon_once(screen: Screen, clock: Clock) -> None:
    screen.show(sample_views.twelve_players())
    at = nowhere(screen)
    finger(pygame.FINGERDOWN, at)
    click(at, touch=True)
    assert screen.presses() == []
    clock.now += ABANDON_TOUCH_SECONDS
    finger(pygame.FINGERUP, at)
    release(at, touch=True)
    assert screen.presses() == [Press(Action.ABANDON)]


def test_each_finger_is_timed_from_its_own_touch(screen: Screen, clock: Clock) -> None:
    screen.show(sample_views.twelve_players())
    at = nowhere(screen)
    finger(pygame.FINGERDOWN, at, finger_id=0)
    assert screen.presses() == []
    clock.now += ABANDON_TOUCH_SECONDS
    finger(pygame.FINGERDOWN, at, finger_id=1)
    finger(pygame.FINGERUP, at, finger_id=1)
    assert screen.presses() == []
    finger(pygame.FINGERUP, at, finger_id=0)
    assert screen.presses() == [Press(Action.ABANDON)]


def test_a_release_without_its_press_does_nothing(screen: Screen, clock: Clock) -> None:
    screen.show(sample_views.twelve_players())
    at = nowhere(screen)
    clock.now += 10 * ABANDON_TOUCH_SECONDS
    release(at)
    finger(pygame.FINGERUP, at)
    assert screen.presses() == []


def test_a_frame_is_saved_as_png(screen: Screen, tmp_path: Path) -> None:
    screen.show(sample_views.winner())
    path = tmp_path / "winner.png"
    screen.save_png(path)
    assert pygame.image.load(str(path)).get_size() == (1280, 720)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_headless_screen_has_the_size_asked_for(size: tuple[int, int], tmp_path: Path) -> None:
    shown = Screen(size, DisplayMode.HEADLESS)
    try:
        shown.show(sample_views.crowded())
        shown.save_png(tmp_path / "frame.png")
        assert pygame.image.load(str(tmp_path / "frame.png")).get_size() == size
    finally:
        shown.close()


def test_closing_twice_is_safe() -> None:
    shown = Screen((320, 240), DisplayMode.HEADLESS)
    shown.close()
    assert not pygame.display.get_init()
    with Screen((320, 240), DisplayMode.HEADLESS):
        shown.close()
        assert pygame.display.get_init(), "the second close leaves the next screen open"


def test_an_empty_view_shows(screen: Screen) -> None:
    screen.show(ScreenView("", "", ()))
    assert screen.hits.areas == ()


@pytest.mark.parametrize(
    ("requested", "mode"),
    [
        ("window", DisplayMode.WINDOW),
        ("fullscreen", DisplayMode.FULLSCREEN),
        ("headless", DisplayMode.HEADLESS),
        (" Headless ", DisplayMode.HEADLESS),
    ],
)
def test_a_mode_asked_for_by_name(requested: str, mode: DisplayMode) -> None:
    assert choose_mode(requested, {}) is mode


def test_an_unknown_mode_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="window, fullscreen, headless"):
        choose_mode("tv", {})


@pytest.mark.parametrize(
    ("environ", "mode"),
    [
        ({"DISPLAY": ":0"}, DisplayMode.WINDOW),
        ({"WAYLAND_DISPLAY": "wayland-0"}, DisplayMode.WINDOW),
        ({"SDL_VIDEODRIVER": "kmsdrm"}, DisplayMode.FULLSCREEN),
        ({"SDL_VIDEODRIVER": "fbcon"}, DisplayMode.FULLSCREEN),
        ({"SDL_VIDEODRIVER": "dummy"}, DisplayMode.HEADLESS),
        ({}, DisplayMode.HEADLESS),
    ],
)
def test_the_mode_is_chosen_from_the_machine(environ: dict[str, str], mode: DisplayMode) -> None:
    assert choose_mode(None, environ) is mode
