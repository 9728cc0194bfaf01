"""The scoring track drawn on an addressable LED strip, as a pure function of the rabbits.

The strip runs beside the board's track, so a player reads it the way they read the
board: a rabbit is its colour on its space. Everything here is pure and deterministic;
the only thing that moves on its own (rabbits taking turns on a shared space, a
lapped rabbit blinking) is driven by the time `t` passed in, so a test can draw any
moment and the main loop can draw the same frame twice and see that nothing changed.
"""

import math
from collections.abc import Sequence

from companion.colours import RGB
from companion.errors import PinSettingError, SettingError
from companion.track import TRACK_LENGTH, lapped

RabbitSpot = tuple[float, tuple[RGB, ...]]
"""A rabbit on the track: its position in spaces (as `Rabbit.position`) and its
colours (one, or one per member for a team's rabbit)."""

SPACES = TRACK_LENGTH + 1
"""Spaces on the printed track, 0 to 30."""

SHARE_SECONDS = 0.5
"""How long each colour is shown on an LED that several rabbits (or a team) share."""

OFF: RGB = (0, 0, 0)
"""An unlit LED (between spaces, and the dark half of a lapped rabbit's blink)."""
TRACK_RGB: RGB = (12, 8, 3)
"""A dim warm glow on every empty space, so the track itself can be seen."""
TICK_RGB: RGB = (40, 26, 8)
"""Empty spaces 0, 5, 10, ... 25: a little brighter, to count by fives as on the board."""
TARGET_RGB: RGB = (120, 90, 0)
"""The empty last space (30, the usual target): gold."""


def check_track(length: int, spaces: int, brightness: float) -> None:
    """Refuse a strip that cannot show the track: too few LEDs, or a brightness outside 0-1."""
    if isinstance(spaces, bool) or not isinstance(spaces, int) or spaces < 2:
        raise PinSettingError(f"a track needs at least 2 spaces, not {spaces!r}")
    if isinstance(length, bool) or not isinstance(length, int) or length < spaces:
        raise PinSettingError(
            f"a strip of {length!r} LEDs cannot show {spaces} track spaces; "
            f"use at least {spaces} LEDs"
        )
    if not (isinstance(brightness, int | float) and 0.0 <= brightness <= 1.0):
        raise PinSettingError(f"strip brightness must be from 0 to 1, not {brightness!r}")


def _round_half_up(value: float) -> int:
    return math.floor(value + 0.5)


def space_led(space: float, length: int, spaces: int = SPACES) -> int:
    """The LED that shows track position `space` (0 to spaces - 1, fractions allowed).

    Space 0 is the first LED and the last space the last LED, the rest spread evenly
    between them: LED = round(space * (length - 1) / (spaces - 1)), halves rounded up.
    On a 60-LED strip the 31 spaces fall on every second LED (with one LED where the
    spacing catches up), and a rabbit on its way glides through the LEDs in between.
    """
    return _round_half_up(space * (length - 1) / (spaces - 1))


def rabbit_led(position: float, length: int, spaces: int = SPACES) -> int:
    """The LED a rabbit at `position` lights, laps taken off."""
    return space_led(lapped(position, spaces - 1)[1], length, spaces)


def scaled(rgb: RGB, brightness: float) -> RGB:
    """`rgb` at `brightness` (0 to 1), each channel rounded half up."""
    r, g, b = rgb
    return (
        _round_half_up(r * brightness),
        _round_half_up(g * brightness),
        _round_half_up(b * brightness),
    )


def _check_spot(index: int, spot: RabbitSpot) -> None:
    position, colours = spot
    if not (isinstance(position, int | float) and math.isfinite(position) and position >= 0):
        raise SettingError(
            f"rabbit {index}: position must be a number of spaces >= 0, not {position!r}"
        )
    if not colours:
        raise SettingError(f"rabbit {index}: has no colour")
    for rgb in colours:
        if len(rgb) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in rgb):
            raise SettingError(f"rabbit {index}: {rgb!r} is not an RGB colour of 0-255 channels")


def _empty_track(length: int, spaces: int) -> list[RGB]:
    pixels = [OFF] * length
    for space in range(spaces):
        if space == spaces - 1:
            colour = TARGET_RGB
        elif space % 5 == 0:
            colour = TICK_RGB
        else:
            colour = TRACK_RGB
        pixels[space_led(space, length, spaces)] = colour
    return pixels


def track_pixels(
    positions: Sequence[RabbitSpot],
    length: int,
    *,
    spaces: int = SPACES,
    brightness: float,
    t: float = 0.0,
) -> tuple[RGB, ...]:
    """The colour of every LED of a `length`-LED strip showing the rabbits at time `t`.

    How a player reads it:

    - Each space of the track has its LED (see `space_led`); an empty space glows a
      dim warm `TRACK_RGB`, every fifth space (0, 5, ... 25) a little brighter
      (`TICK_RGB`), and the last space, the target, gold (`TARGET_RGB`). LEDs between
      spaces are off.
    - A rabbit lights its space's LED in its colour. Moving rabbits (fractional
      positions) light the LED nearest to where they are.
    - Where several rabbits stand on one LED, or a team's rabbit has several
      colours, the LED shows each colour in turn for `SHARE_SECONDS`, in the order
      given (seating order), over and over: the colour shown is number
      floor(t / SHARE_SECONDS) modulo their count.
    - A rabbit that has gone past the last space stands where it lapped to (31 on
      space 1, see `lapped`) and blinks: its colour for the first half of its turn,
      dark for the second.

    Every colour is then scaled by `brightness` (0 to 1; rounded half up), so no
    channel exceeds 255 * brightness. The result depends on nothing but the arguments.

    Raises `PinSettingError` if `length` is shorter than `spaces` or `brightness` is
    outside 0-1, and `SettingError` for a rabbit with no colour or a negative or
    non-finite position, or a non-finite `t`.
    """
    check_track(length, spaces, brightness)
    if not math.isfinite(t):
        raise SettingError(f"strip time must be a finite number of seconds, not {t!r}")
    pixels = _empty_track(length, spaces)
    sharing: dict[int, list[tuple[RGB, bool]]] = {}
    for index, spot in enumerate(positions):
        _check_spot(index, spot)
        position, colours = spot
        laps, _ = lapped(position, spaces - 1)
        led = rabbit_led(position, length, spaces)
        sharing.setdefault(led, []).extend((rgb, laps > 0) for rgb in colours)
    turns = t / SHARE_SECONDS
    turn = math.floor(turns)
    dark_half = turns - turn >= 0.5
    for led, shown in sharing.items():
        rgb, blinking = shown[turn % len(shown)]
        pixels[led] = OFF if blinking and dark_half else rgb
    return tuple(scaled(rgb, brightness) for rgb in pixels)
