"""The screen itself: a desktop window, the Pi's console in full screen, or an
offscreen surface when there is no display at all (tests, a headless demo).

It draws views and turns the keyboard, mouse and touch screen into presses. Clicks
and touches are looked up in the map of the frame last shown, so a touch always
means what the player saw under their finger. A touch or click held for
`ABANDON_TOUCH_SECONDS` where there is no button asks to give up the game when let go:
the touch screen's long hold, as the Confirm button has its own.

The phone page's QR code: the playing and winner screens give it a place of their own,
but the setup steps and the round editor draw from their part of the view alone, so
the screen draws them in all but a strip down its right edge, the code in the strip
(large, with its words, while a game is set up; small in the corner while a round is
edited).
"""

import enum
import os
import time
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path

import pygame

from companion.actions import Action, Press
from companion.closing import Closing
from companion.display import layout, qr, theme
from companion.display.hitmap import HitMap
from companion.display.render import render
from companion.display.view import ScreenView
from companion.errors import SettingError

CAPTION = "Dixit table companion"
CONSOLE_DRIVERS = frozenset({"kmsdrm", "fbcon"})
"""SDL video drivers that draw on the Pi's console without a desktop."""
ABANDON_TOUCH_SECONDS = 3.0
"""How long a touch or click on no button must last to ask to give up the game; long
enough that no hand resting on the screen does it. Timed from when the loop reads the
touch and its release, so to within a frame."""
MOUSE: Hashable = "mouse"
"""The pointer a mouse click is held by; a finger is (touch id, finger id)."""

KEYS: Mapping[int, Action] = {
    pygame.K_RETURN: Action.CONFIRM,
    pygame.K_KP_ENTER: Action.CONFIRM,
    pygame.K_SPACE: Action.CONFIRM,
    pygame.K_BACKSPACE: Action.UNDO,
    pygame.K_u: Action.UNDO,
    pygame.K_n: Action.NEXT,
    pygame.K_TAB: Action.NEXT,
    pygame.K_f: Action.FIX,
    pygame.K_a: Action.ABANDON,
    pygame.K_UP: Action.UP,
    pygame.K_DOWN: Action.DOWN,
    pygame.K_LEFT: Action.LEFT,
    pygame.K_RIGHT: Action.RIGHT,
    pygame.K_ESCAPE: Action.BACK,
    pygame.K_q: Action.QUIT,
}
"""The keyboard: a USB keypad or a laptop stands in for the table's buttons."""


class DisplayMode(enum.Enum):
    """Where the screen is drawn."""

    WINDOW = "window"
    """A window on a desktop."""
    FULLSCREEN = "fullscreen"
    """The whole display: the Pi's console (SDL picks kmsdrm when told to)."""
    HEADLESS = "headless"
    """No display: an offscreen surface, SDL's dummy video driver for events."""


DISPLAY_MODES = tuple(mode.value for mode in DisplayMode)
"""The names a display mode is asked for by."""
DEFAULT_SIZE = (1280, 720)
"""The size of a window or an offscreen screen when not told: an HDMI screen's."""
SMALLEST_SIZE = (800, 480)
"""The smallest screen the table's screens are laid out for: the official 7" display."""
LARGEST_SIZE = (3840, 2160)
"""The largest screen drawn offscreen or in a window: a 4K television."""


def choose_mode(requested: str | None, environ: Mapping[str, str] | None = None) -> DisplayMode:
    """The mode asked for (one of `DISPLAY_MODES`), or when None the one
    that suits the machine: a window on a desktop, full screen on a console that SDL
    is told to drive, headless otherwise."""
    if requested is not None:
        try:
            return DisplayMode(requested.strip().lower())
        except ValueError:
            choices = ", ".join(DISPLAY_MODES)
            raise SettingError(f"unknown display mode {requested!r}: choose {choices}") from None
    env = os.environ if environ is None else environ
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return DisplayMode.WINDOW
    if env.get("SDL_VIDEODRIVER", "").lower() in CONSOLE_DRIVERS:
        return DisplayMode.FULLSCREEN
    return DisplayMode.HEADLESS


def screen_size(option: str, text: str) -> tuple[int, int]:
    """`WIDTHxHEIGHT` in pixels (`1280x720`), within `check_screen_size`'s bounds;
    `SettingError` naming `option` for anything else."""
    width, cross, height = text.strip().lower().partition("x")
    if not (cross and _digits(width) and _digits(height)):
        raise SettingError(f"{option} {text!r}: give WIDTHxHEIGHT in pixels, like 1280x720")
    try:
        return check_screen_size((int(width), int(height)))
    except SettingError as err:
        raise SettingError(f"{option} {text.strip()}: {err}") from None


def check_screen_size(size: tuple[int, int]) -> tuple[int, int]:
    """`size`, when it is from `SMALLEST_SIZE` to `LARGEST_SIZE`; else `SettingError`."""
    if not all(
        low <= n <= high for n, low, high in zip(size, SMALLEST_SIZE, LARGEST_SIZE, strict=True)
    ):
        raise SettingError(
            f"the screen must be from {SMALLEST_SIZE[0]}x{SMALLEST_SIZE[1]} "
            f"to {LARGEST_SIZE[0]}x{LARGEST_SIZE[1]} pixels, not {size[0]}x{size[1]}"
        )
    return size


def _digits(text: str) -> bool:
    """Whether `text` is 1 to 5 ASCII digits (a size in pixels, never a huge number)."""
    return text.isascii() and text.isdigit() and len(text) <= 5


class Screen(Closing):
    """Draws views and collects the presses made on the keyboard, mouse and touch."""

    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        mode: DisplayMode = DisplayMode.WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.mode = mode
        self._hits = HitMap()
        self._closed = False
        self._clock = clock
        self._held_since: dict[Hashable, float] = {}
        """When each pointer down on no button went down, until it is let go."""
        if mode is DisplayMode.HEADLESS:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        pygame.display.init()
        pygame.font.init()
        if mode is DisplayMode.HEADLESS:
            self._offscreen: pygame.Surface | None = pygame.Surface(size)
        elif mode is DisplayMode.FULLSCREEN:
            self._offscreen = None
            pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            self._offscreen = None
            pygame.display.set_mode(size, pygame.RESIZABLE)
            pygame.display.set_caption(CAPTION)

    @property
    def surface(self) -> pygame.Surface:
        """What is drawn on: the window or console, or the offscreen surface."""
        if self._offscreen is not None:
            return self._offscreen
        return pygame.display.get_surface()

    @property
    def hits(self) -> HitMap:
        """The touchable areas of the frame last shown."""
        return self._hits

    def show(self, view: ScreenView) -> None:
        """Draw `view` and put it on the display."""
        self._hits = render_with_page(view, self.surface)
        if self._offscreen is None:
            pygame.display.flip()

    def presses(self) -> list[Press]:
        """The presses made since the last call, oldest first."""
        out: list[Press] = []
        for event in pygame.event.get():
            press = self._press_for(event)
            if press is not None:
                out.append(press)
        return out

    def _press_for(self, event: pygame.event.Event) -> Press | None:
        if event.type == pygame.QUIT:
            return Press(Action.QUIT)
        if event.type == pygame.KEYDOWN:
            action = KEYS.get(event.key)
            return None if action is None else Press(action)
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            # A touch also arrives as a synthesised mouse click: only the finger counts.
            if event.button != pygame.BUTTON_LEFT or getattr(event, "touch", False):
                return None
            if event.type == pygame.MOUSEBUTTONUP:
                return self._let_go(MOUSE)
            return self._touched(MOUSE, *event.pos)
        if event.type == pygame.FINGERDOWN:
            width, height = self.surface.get_size()
            return self._touched(_finger(event), event.x * width, event.y * height)
        if event.type == pygame.FINGERUP:
            return self._let_go(_finger(event))
        return None

    def _touched(self, pointer: Hashable, x: float, y: float) -> Press | None:
        """The press under the pointer; where there is none, the hold starts."""
        press = self._hits.press_at(x, y)
        if press is None:
            self._held_since[pointer] = self._clock()
        return press

    def _let_go(self, pointer: Hashable) -> Press | None:
        """ABANDON when the pointer was held long enough on no button, else nothing."""
        since = self._held_since.pop(pointer, None)
        if since is None or self._clock() - since < ABANDON_TOUCH_SECONDS:
            return None
        return Press(Action.ABANDON)

    def save_png(self, path: Path | str) -> None:
        """The frame last drawn, as a PNG file."""
        pygame.image.save(self.surface, str(path))

    def close(self) -> None:
        """Close the window; closing twice does nothing."""
        if self._closed:
            return
        self._closed = True
        pygame.display.quit()


def render_with_page(view: ScreenView, surface: pygame.Surface) -> HitMap:
    """`view` over the whole of `surface`, the page's code in a strip of its own where
    the part of the screen drawn cannot make room for it; the touchable areas."""
    if view.page is None or (view.setup is None and view.editor is None):
        return render(view, surface)
    s = theme.scale_for(surface.get_height(), surface.get_width())
    large = view.setup is not None
    width = qr.large_side(view.page, s) if large else qr.small_side(view.page, s)
    rest, column = layout.strip(surface.get_size(), width, s)
    surface.fill(theme.BACKGROUND)
    hits = render(view, surface.subsurface(rest))
    if large:
        qr.draw_block(surface, column, view.page, view.page_caption, s, panel=False)
    else:
        qr.draw_code(surface, column, view.page, qr.SMALL_LEAST_MODULE)
    return hits


def _finger(event: pygame.event.Event) -> Hashable:
    """The pointer a finger event belongs to, so two fingers are timed apart."""
    return (event.touch_id, event.finger_id)
