"""GPIO pins as people meet them: typed on a command line, counted on the header, and
found (or not) by gpiozero.

The code names pins by their BCM GPIO number; a person wiring a table counts physical
pins on the 40-pin header. Commands that take pins read them here and name them both
ways, and open GPIO parts with gpiozero's search through its libraries kept quiet.
"""

import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from gpiozero import Device, PinFactoryFallback
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.errors import SettingError
from companion.numbers import in_digits, too_long

PHYSICAL_PINS = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21,
    10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35,
    20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip
"""BCM GPIO number to the physical pin of the 40-pin header."""


def pin_name(pin: int) -> str:
    """ "GPIO17 (pin 11)": the number the code uses and the pin a person counts to."""
    physical = PHYSICAL_PINS.get(pin)
    return f"GPIO{pin}" if physical is None else f"GPIO{pin} (pin {physical})"


def parse_pins(text: str, option: str) -> tuple[int, int, int]:
    """Three comma-separated BCM pin numbers, as `--buttons` and `--light` give them."""
    parts = text.split(",")
    if len(parts) != 3 or not all(in_digits(p, signed=True) and not too_long(p) for p in parts):
        raise SettingError(
            f"{option} {text[:40]}: give 3 BCM pin numbers, comma-separated, in digits 0-9"
        )
    first, second, third = (int(p) for p in parts)
    return first, second, third


@contextmanager
def quiet_gpio() -> Iterator[None]:
    """gpiozero warns about every GPIO library it tries before one works; the caller
    says what matters (no GPIO here, say), so those warnings are hushed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        yield


def reason(error: BaseException) -> str:
    """What went wrong, in words: gpiozero raises some errors with none (a pin that
    cannot dim says only `PinPWMUnsupported`), and a message must never end in ": "."""
    return str(error) or type(error).__name__


def pwm_mock_if_asked() -> None:
    """With `GPIOZERO_PIN_FACTORY=mock`, make gpiozero's shared mock pins ones that can
    dim: its plain mock pins cannot, so the status light (PWM on each colour) would
    never open without a Pi. Buttons work on either kind."""
    asked = os.environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower() == "mock"
    if asked and Device.pin_factory is None:
        Device.pin_factory = MockFactory(pin_class=MockPWMPin)
