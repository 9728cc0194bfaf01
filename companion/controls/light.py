"""The status light: one RGB LED by the buttons that says, at a glance, what the table waits for.

Players look at the table, not the screen, while they lay tokens; a light by the
buttons tells them whether to wait, to press Confirm, or to look at the screen
because something is wrong. Each `Status` has one fixed `Look`, so what a colour
means never changes during a game, and a problem blinks so it is seen from the side.

The LED is driven by gpiozero's `RGBLED` (software PWM on each colour); `pin_factory`
goes straight to gpiozero, as for the buttons.
"""

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from gpiozero import (
    RGBLED,
    BadPinFactory,
    Factory,
    GPIOPinInUse,
    GPIOZeroError,
    PinError,
)

from companion.closing import Closing
from companion.controls.buttons import check_bcm_pin, check_distinct
from companion.controls.pins import pwm_mock_if_asked, reason
from companion.errors import HardwareUnavailableError, PinSettingError

Level = tuple[float, float, float]
"""Red, green and blue drive levels, each from 0 (off) to 1 (full)."""


class Status(enum.Enum):
    """What the light says."""

    WAITING = "waiting"
    """The table is being laid out, or votes are still missing: carry on."""
    READY = "ready"
    """A legal round has settled: press Confirm."""
    PROBLEM = "problem"
    """Something on the table must be put right: look at the screen."""
    OFF = "off"
    """Nothing to say (no game, or the companion is closing)."""


@dataclass(frozen=True)
class Look:
    """How the LED shows one status."""

    level: Level
    """The colour while lit."""
    blinking: bool = False
    """Whether it blinks (lit, then dark, for `StatusLight.blink_seconds` each)."""


LOOKS: Mapping[Status, Look] = MappingProxyType(
    {
        Status.WAITING: Look((0.0, 0.0, 0.2)),
        Status.READY: Look((0.0, 1.0, 0.0)),
        Status.PROBLEM: Look((1.0, 0.0, 0.0), blinking=True),
        Status.OFF: Look((0.0, 0.0, 0.0)),
    }
)
"""Dim steady blue to wait, bright steady green to confirm, blinking red for a problem."""

DARK: Level = (0.0, 0.0, 0.0)
"""The LED off."""


@dataclass(frozen=True)
class LightPins:
    """Where the RGB LED's three legs are wired, as BCM GPIO numbers.

    The defaults (GPIO 5, 6, 13 on physical pins 29, 31, 33, with a ground at
    physical pin 30, 34 or 39) keep clear of the buttons' defaults and of SPI0
    (GPIO 7 to 11), which the LED strip uses. Each leg needs its own resistor
    (about 220 to 330 ohm).
    """

    red: int = 5
    """BCM number of the red leg (physical pin 29)."""
    green: int = 6
    """BCM number of the green leg (physical pin 31)."""
    blue: int = 13
    """BCM number of the blue leg (physical pin 33)."""
    common_cathode: bool = True
    """True for a common-cathode LED (common leg to ground); False for common anode
    (common leg to 3.3 V), which lights a colour by pulling its leg low."""

    def __post_init__(self) -> None:
        for role, pin in self.by_role().items():
            check_bcm_pin(role, pin)
        check_distinct(self.by_role())

    def by_role(self) -> dict[str, int]:
        """The pins keyed by what they are, in words ("the light's red leg": 5)."""
        return {
            "the light's red leg": self.red,
            "the light's green leg": self.green,
            "the light's blue leg": self.blue,
        }


def _open_rgbled(pins: LightPins, pin_factory: Factory | None) -> RGBLED:
    """The gpiozero RGB LED, dark, with gpiozero's errors turned into ours."""
    if pin_factory is None:
        pwm_mock_if_asked()
    try:
        return RGBLED(
            pins.red,
            pins.green,
            pins.blue,
            active_high=pins.common_cathode,
            initial_value=DARK,
            pwm=True,
            pin_factory=pin_factory,
        )
    except BadPinFactory as error:
        raise HardwareUnavailableError(
            f"status light: no GPIO library could be loaded ({reason(error)}); on a Pi install "
            "lgpio, elsewhere set GPIOZERO_PIN_FACTORY=mock"
        ) from error
    except (GPIOPinInUse, PinError) as error:
        raise PinSettingError(
            f"status light on GPIO{pins.red}/{pins.green}/{pins.blue}: {reason(error)}"
        ) from error
    except GPIOZeroError as error:
        raise HardwareUnavailableError(
            f"status light could not be opened ({reason(error)})"
        ) from error


class StatusLight(Closing):
    """The RGB status LED; `show` a `Status` whenever the table's state changes.

    Showing the status already shown does nothing, so the main loop may call `show`
    on every pass without restarting a blink.
    """

    def __init__(
        self,
        pins: LightPins,
        pin_factory: Factory | None = None,
        *,
        blink_seconds: float = 0.5,
    ) -> None:
        if not blink_seconds > 0:
            raise PinSettingError(f"status light: blink time must be positive, not {blink_seconds}")
        self.pins = pins
        """Where the LED is wired."""
        self.blink_seconds = blink_seconds
        """How long a blinking status stays lit, and then dark."""
        self._led: RGBLED | None = _open_rgbled(pins, pin_factory)
        self._status = Status.OFF

    @property
    def status(self) -> Status:
        """What the light shows now."""
        return self._status

    @property
    def closed(self) -> bool:
        """Whether the LED has been released to the system."""
        return self._led is None

    def show(self, status: Status) -> None:
        """Show `status`; nothing happens if it is already shown.

        Raises `HardwareError` once the light is closed.
        """
        if self._led is None:
            raise HardwareUnavailableError("the status light is closed")
        if status is self._status:
            return
        look = LOOKS[status]
        if look.blinking:
            self._led.blink(
                on_time=self.blink_seconds,
                off_time=self.blink_seconds,
                on_color=look.level,
                off_color=DARK,
            )
        else:
            self._led.value = look.level
        self._status = status

    def close(self) -> None:
        """Turn the LED off and free its pins; safe to call more than once."""
        if self._led is None:
            return
        led, self._led = self._led, None
        try:
            led.value = DARK
        finally:
            led.close()
        self._status = Status.OFF
