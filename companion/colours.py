"""The twelve player colours of the kit: one vote-dial pair and owner-token pair each."""

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.phrases import Phrase, phrase

RGB = tuple[int, int, int]
"""A colour on the screen or an LED: red, green, blue, each 0 to 255."""


@dataclass(frozen=True)
class Colour:
    """A player colour as printed on tags and drawn on screen."""

    name: str
    """The name used as the player's name in games: "red"."""
    code: str
    """Two capital letters in tag texts: "RD"."""
    rgb: RGB
    """The colour on screen and on printed labels."""


COLOURS: tuple[Colour, ...] = (
    Colour("red", "RD", (220, 40, 40)),
    Colour("blue", "BL", (40, 90, 220)),
    Colour("green", "GN", (40, 160, 70)),
    Colour("yellow", "YE", (235, 200, 30)),
    Colour("white", "WH", (235, 235, 235)),
    Colour("black", "BK", (40, 40, 40)),
    Colour("orange", "OR", (240, 130, 30)),
    Colour("pink", "PK", (240, 120, 180)),
    Colour("violet", "VI", (140, 70, 200)),
    Colour("grey", "GY", (140, 140, 140)),
    Colour("brown", "BR", (130, 80, 40)),
    Colour("cyan", "CY", (40, 200, 220)),
)
"""The kit's colours in the order they are handed out (the first N for N players)."""

BY_NAME: Mapping[str, Colour] = MappingProxyType({c.name: c for c in COLOURS})
"""Colours by name."""
BY_CODE: Mapping[str, Colour] = MappingProxyType({c.code: c for c in COLOURS})
"""Colours by tag code."""

WORDS: Mapping[str, Phrase] = MappingProxyType(
    {
        "red": phrase("red"),
        "blue": phrase("blue"),
        "green": phrase("green"),
        "yellow": phrase("yellow"),
        "white": phrase("white"),
        "black": phrase("black"),
        "orange": phrase("orange"),
        "pink": phrase("pink"),
        "violet": phrase("violet"),
        "grey": phrase("grey"),
        "brown": phrase("brown"),
        "cyan": phrase("cyan"),
    }
)
"""Each colour's name as the players say it, to be put in the table's language."""
