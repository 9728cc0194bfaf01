"""How the phone page marks players and points: a kit colour as a CSS class, points
with their sign. The page's style sheet holds the twelve colours, so no colour is
ever written inline (the page's content security policy forbids it)."""

from collections.abc import Mapping

from companion.colours import BY_NAME, COLOURS, RGB

_KIT_BY_RGB: Mapping[RGB, str] = {colour.rgb: colour.name for colour in COLOURS}


def kit(colour: RGB | str | None) -> str:
    """The CSS class of a kit colour, from its screen RGB or its name ("kit-red"); the
    page's style sheet holds the twelve colours, so no colour is written inline."""
    if isinstance(colour, str):
        return f"kit-{colour}" if colour in BY_NAME else "kit-none"
    return f"kit-{_KIT_BY_RGB.get(colour, 'none')}" if colour is not None else "kit-none"


def signed(points: int) -> str:
    """Points won in a round as the reasons write them: "+3", "0", "-1"."""
    return f"+{points}" if points > 0 else str(points)
