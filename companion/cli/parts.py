"""The options that name a table's parts, shared by the commands that use them.

`companion play` drives the buttons, status light and LED strip, `companion doctor`
checks the same parts, and `companion demo` drives those it is asked to: all take
them in the same words, with the same defaults, from here, and read them into the
same record (`companion.runtime.config.Wiring`), which checks them.
"""

import argparse

from companion.controls.buttons import ButtonPins
from companion.controls.light import LightPins

_BUTTONS, _LIGHT = ButtonPins(), LightPins()
DEFAULT_BUTTONS = f"{_BUTTONS.confirm},{_BUTTONS.undo},{_BUTTONS.next}"
"""BCM pins of Confirm, Undo and Next, as `--buttons` writes them: "17,27,22"."""
DEFAULT_LIGHT = f"{_LIGHT.red},{_LIGHT.green},{_LIGHT.blue}"
"""BCM pins of the status light's red, green and blue, as `--light` writes them."""


def add_part_options(parser: argparse.ArgumentParser, verb: str, *, fitted: bool = True) -> None:
    """`--buttons`, `--light` and `--strip`, and, for a table `fitted` with buttons and
    a light by default, `--no-buttons` and `--no-light`; `verb` says what the command
    does with them ("use", "check"). Without `fitted` (the demo) a part is used only
    when its option names it."""
    if fitted:
        parser.add_argument("--no-buttons", action="store_true", help=f"do not {verb} GPIO buttons")
        parser.add_argument(
            "--no-light", action="store_true", help=f"do not {verb} the status light"
        )
    else:
        parser.set_defaults(no_buttons=False, no_light=False)
    buttons, light = (DEFAULT_BUTTONS, DEFAULT_LIGHT) if fitted else (None, None)
    parser.add_argument(
        "--buttons",
        default=buttons,
        metavar="CONFIRM,UNDO,NEXT",
        help=f"BCM pins of the buttons (default {buttons or _none(DEFAULT_BUTTONS)})",
    )
    parser.add_argument(
        "--light",
        default=light,
        metavar="R,G,B",
        help=f"BCM pins of the RGB status light (default {light or _none(DEFAULT_LIGHT)})",
    )
    parser.add_argument("--strip", help="LED strip: ws2812:LEDS or apa102:LEDS (default none)")


def _none(usual: str) -> str:
    """A part's default when it is used only if asked for."""
    return f"none; usually {usual}"
