"""The three table buttons (Confirm, Undo, Next), wired to GPIO and read through gpiozero.

Each button is a push switch between a GPIO pin and ground, read with the Pi's internal
pull-up, so a press pulls the pin low. A button's callbacks run in gpiozero's own
threads; here they only post a `Press` to the main loop and never do the work
themselves, so a slow frame or a database write can never be entered from two threads.

How the presses are read, so that a brush of the hand never changes the game:

- Confirm: posts `Action.CONFIRM` when let go before `abandon_hold_seconds`, and
  `Action.ABANDON` (only, once) when held that long, long enough that no one gives up
  a game by leaning on it; the session then asks for a fresh Confirm before it
  abandons anything. A hold never confirms what the screen shows first.
- Undo: posts `Action.UNDO` only once it has been *held* for `undo_hold_seconds`;
  a short press posts nothing.
- Next: posts `Action.NEXT` when let go before `next_hold_seconds`, and `Action.FIX`
  (only, once) when held that long. Exactly one of the two per press.

This module is the one place the GPIO backend is chosen: `pin_factory` goes straight to
gpiozero, and None lets gpiozero pick (honouring the GPIOZERO_PIN_FACTORY environment
variable, so `GPIOZERO_PIN_FACTORY=mock` runs the program with no Pi at all).
"""

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import (
    BadPinFactory,
    Button,
    Factory,
    GPIOPinInUse,
    GPIOZeroError,
    PinError,
)

from companion.actions import Action, Press
from companion.closing import Closing
from companion.controls.pins import pwm_mock_if_asked, reason
from companion.errors import HardwareUnavailableError, PinSettingError

BOUNCE_SECONDS = 0.05
"""How long a contact must settle before a change counts (switch bounce)."""

BCM_PINS = range(28)
"""The BCM numbers of the GPIO lines on the 40-pin header (GPIO 0 to GPIO 27)."""


def check_bcm_pin(role: str, pin: int) -> None:
    """Refuse a pin that is not a GPIO number on the 40-pin header.

    Raises `PinSettingError` naming `role` ("the undo button").
    """
    if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
        raise PinSettingError(
            f"{role}: {pin!r} is not a GPIO number; use a BCM number from 0 to 27 (GPIO17 is 17)"
        )


def check_distinct(pins: dict[str, int]) -> None:
    """Refuse two roles on the same pin, naming both of them."""
    seen: dict[int, str] = {}
    for role, pin in pins.items():
        if pin in seen:
            raise PinSettingError(
                f"{seen[pin]} and {role} are both on GPIO{pin}; give each its own pin"
            )
        seen[pin] = role


def check_hold(role: str, seconds: float) -> None:
    """Refuse a hold time that is not a positive, finite number of seconds."""
    if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
        raise PinSettingError(
            f"{role}: hold time must be a positive number of seconds, not {seconds!r}"
        )


@dataclass(frozen=True)
class ButtonPins:
    """Where the three buttons are wired, as BCM GPIO numbers, and how long the holds are.

    The defaults (GPIO 17, 27, 22 on physical pins 11, 13, 15) sit side by side on the
    header with a ground (physical pin 9 or 14) beside them, and keep clear of SPI0
    (GPIO 7 to 11), which the LED strip uses.
    """

    confirm: int = 17
    """BCM number of the Confirm button (physical pin 11)."""
    undo: int = 27
    """BCM number of the Undo button (physical pin 13)."""
    next: int = 22
    """BCM number of the Next button (physical pin 15)."""
    undo_hold_seconds: float = 1.5
    """How long Undo must be held before it undoes; a shorter press does nothing."""
    next_hold_seconds: float = 1.0
    """How long Next must be held to mean Fix instead of Next."""
    abandon_hold_seconds: float = 4.0
    """How long Confirm must be held to ask to give up the game in progress."""

    def __post_init__(self) -> None:
        for role, pin in self.by_role().items():
            check_bcm_pin(role, pin)
        check_distinct(self.by_role())
        check_hold("the undo button", self.undo_hold_seconds)
        check_hold("the next button", self.next_hold_seconds)
        check_hold("the confirm button", self.abandon_hold_seconds)

    def by_role(self) -> dict[str, int]:
        """The pins keyed by what they are, in words ("the undo button": 27)."""
        return {
            "the confirm button": self.confirm,
            "the undo button": self.undo,
            "the next button": self.next,
        }


def _open_button(role: str, pin: int, hold_seconds: float, pin_factory: Factory | None) -> Button:
    """One pulled-up gpiozero button held for `hold_seconds` to count as held, with
    gpiozero's errors turned into ours."""
    if pin_factory is None:
        pwm_mock_if_asked()
    try:
        button = Button(pin, pull_up=True, bounce_time=BOUNCE_SECONDS, pin_factory=pin_factory)
    except BadPinFactory as error:
        raise HardwareUnavailableError(
            f"{role}: no GPIO library could be loaded ({reason(error)}); on a Pi install lgpio, "
            "elsewhere set GPIOZERO_PIN_FACTORY=mock"
        ) from error
    except GPIOPinInUse as error:
        raise PinSettingError(f"{role}: GPIO{pin} is already in use ({reason(error)})") from error
    except PinError as error:
        raise PinSettingError(f"{role}: GPIO{pin} cannot be used ({reason(error)})") from error
    except GPIOZeroError as error:
        raise HardwareUnavailableError(
            f"{role}: GPIO{pin} could not be opened ({reason(error)})"
        ) from error
    button.hold_time = hold_seconds
    return button


class _TapOrHold:
    """Decides, once per press, whether it was a tap (Next's NEXT, Confirm's CONFIRM)
    or a hold (FIX, ABANDON).

    The hold fires in gpiozero's hold thread and the release in its pin thread; the lock
    makes sure whichever comes first decides, and the other does nothing.
    """

    def __init__(self, post: Callable[[Press], None], tap: Action, hold: Action) -> None:
        self._post = post
        self._tap = tap
        self._hold = hold
        self._lock = threading.Lock()
        self._decided = True

    def pressed(self) -> None:
        with self._lock:
            self._decided = False

    def held(self) -> None:
        with self._lock:
            if self._decided:
                return
            self._decided = True
        self._post(Press(self._hold))

    def released(self) -> None:
        with self._lock:
            if self._decided:
                return
            self._decided = True
        self._post(Press(self._tap))


class Buttons(Closing):
    """The three table buttons, posting a `Press` for each meaningful press.

    `post` is called from gpiozero's threads: it must be thread-safe and quick
    (`queue.Queue.put`, or `pygame.event.post`).
    """

    def __init__(
        self,
        pins: ButtonPins,
        post: Callable[[Press], None],
        pin_factory: Factory | None = None,
    ) -> None:
        self.pins = pins
        """Where the buttons are wired."""
        self._buttons: list[Button] = []
        try:
            confirm = self._open(
                "the confirm button", pins.confirm, pins.abandon_hold_seconds, pin_factory
            )
            undo = self._open("the undo button", pins.undo, pins.undo_hold_seconds, pin_factory)
            nxt = self._open("the next button", pins.next, pins.next_hold_seconds, pin_factory)
        except BaseException:
            self.close()
            raise
        undo.when_held = lambda: post(Press(Action.UNDO))
        for button, tap, hold in (
            (confirm, Action.CONFIRM, Action.ABANDON),
            (nxt, Action.NEXT, Action.FIX),
        ):
            press = _TapOrHold(post, tap, hold)
            button.when_pressed = press.pressed
            button.when_held = press.held
            button.when_released = press.released

    def _open(
        self, role: str, pin: int, hold_seconds: float, pin_factory: Factory | None
    ) -> Button:
        button = _open_button(role, pin, hold_seconds, pin_factory)
        self._buttons.append(button)
        return button

    @property
    def closed(self) -> bool:
        """Whether the buttons have been released to the system."""
        return not self._buttons

    def close(self) -> None:
        """Stop reading the buttons and free their pins; safe to call more than once.

        A button held down at that moment delays this by up to its hold time, the time
        gpiozero's hold timer takes to notice it should stop.
        """
        while self._buttons:
            self._buttons.pop().close()
