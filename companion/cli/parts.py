"""The options that name a table's parts, shared by the commands that use them.

`companion play` drives the buttons, status light and LED strip, and
`companion doctor` checks the same parts: both take them in the same words, with the
same defaults, from here.
"""

import argparse
from dataclasses import dataclass

from companion.controls.buttons import ButtonPins, check_distinct
from companion.controls.light import LightPins
from companion.controls.pins import parse_pins
from companion.controls.strip import StripSpec, parse_strip

_BUTTONS, _LIGHT = ButtonPins(), LightPins()
DEFAULT_BUTTONS = f"{_BUTTONS.confirm},{_BUTTONS.undo},{_BUTTONS.next}"
"""BCM pins of Confirm, Undo and Next, as `--buttons` writes them: "17,27,22"."""
DEFAULT_LIGHT = f"{_LIGHT.red},{_LIGHT.green},{_LIGHT.blue}"
"""BCM pins of the status light's red, green and blue, as `--light` writes them."""


def add_part_options(parser: argparse.ArgumentParser, verb: str) -> None:
    """`--buttons`, `--light`, `--no-buttons`, `--no-light` and `--strip`; `verb` says
    what the command does with them ("use", "check")."""
    parser.add_argument("--no-buttons", action="store_true", help=f"do not {verb} GPIO buttons")
    parser.add_argument("--no-light", action="store_true", help=f"do not {verb} the status light")
    parser.add_argument(
        "--buttons",
        default=DEFAULT_BUTTONS,
        metavar="CONFIRM,UNDO,NEXT",
        help=f"BCM pins of the buttons (default {DEFAULT_BUTTONS})",
    )
    parser.add_argument(
        "--light",
        default=DEFAULT_LIGHT,
        metavar="R,G,B",
        help=f"BCM pins of the RGB status light (default {DEFAULT_LIGHT})",
    )
    parser.add_argument("--strip", help="LED strip: ws2812:LEDS or apa102:LEDS (default none)")


@dataclass(frozen=True)
class Parts:
    """The parts the options name, each checked, and no two on one pin."""

    buttons: ButtonPins | None
    """The buttons' pins, or None with `--no-buttons`."""
    light: LightPins | None
    """The status light's pins, or None with `--no-light`."""
    strip: StripSpec | None
    """The LED strip, or None for no strip."""


def read_parts(args: argparse.Namespace) -> Parts:
    """The parts `add_part_options` options name; `PinSettingError` or `SettingError`
    naming the option or pin at fault, before anything is opened. Buttons, light and
    the strip's SPI lines must each have pins of their own: a part on a pin another
    part drives would never work."""
    buttons = None if args.no_buttons else ButtonPins(*parse_pins(args.buttons, "--buttons"))
    light = None if args.no_light else LightPins(*parse_pins(args.light, "--light"))
    strip = parse_strip(args.strip)
    check_distinct(
        {
            **(buttons.by_role() if buttons else {}),
            **(light.by_role() if light else {}),
            **(strip.pins() if strip else {}),
        }
    )
    return Parts(buttons, light, strip)
