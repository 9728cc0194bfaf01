"""Colours and sizes shared by every part of the screen, so that they agree.

The theme is dark with strong contrast: the screen stands in a dim café and is read
from across the table. Sizes are given for a 720-pixel-high screen and scale with
the surface height, so one layout serves the 7" touch screen and a television; the
least sizes of the two tiers of type are millimetres on the glass (`typescale`), so
the scale also knows how big the screen's pixels are (`panels`).
"""

from dataclasses import dataclass

from companion.colours import RGB
from companion.display import panels, typescale
from companion.display.typescale import Tier
from companion.display.view import Level

DESIGN_HEIGHT = 720
"""The surface height the design sizes are given for."""

BACKGROUND: RGB = (14, 18, 28)
PANEL: RGB = (28, 34, 50)
PANEL_EDGE: RGB = (70, 80, 108)
HIGHLIGHT: RGB = (52, 62, 92)
CELL: RGB = (42, 50, 72)
CELL_ALT: RGB = (52, 61, 88)
TEXT: RGB = (246, 246, 246)
MUTED: RGB = (172, 180, 198)
DIM: RGB = (112, 118, 132)
GOLD: RGB = (255, 206, 64)
AMBER: RGB = (255, 180, 50)
RED: RGB = (255, 96, 86)
ALARM_FILL: RGB = (110, 16, 16)
INK: RGB = (12, 12, 12)
"""Dark outlines and text on light fills."""
CHALK: RGB = (240, 240, 240)
"""Light outlines, so dark rabbits show on the dark track."""

LEVEL_COLOURS: dict[Level, RGB] = {
    Level.PROBLEM: RED,
    Level.WAITING: AMBER,
    Level.INFO: MUTED,
}
LEVEL_ORDER: dict[Level, int] = {Level.PROBLEM: 0, Level.WAITING: 1, Level.INFO: 2}
"""Most urgent first."""


@dataclass(frozen=True)
class Scale:
    """Design pixels (for a 720-pixel-high screen) to surface pixels."""

    unit: float
    """Surface pixels per design pixel."""
    mm_per_px: float = panels.PORTABLE_720.mm_per_px
    """How wide a surface pixel is on the glass (the screen's `Panel`)."""

    def __call__(self, design: float) -> int:
        """`design` pixels on this surface, at least one."""
        return max(1, round(design * self.unit))

    seated: bool = True
    """Whether what is drawn is read from the seats, so that the tiers' least sizes
    hold; the setup steps and the round editor are read close by, at their design's
    sizes."""

    def least(self, tier: Tier) -> int:
        """The smallest size text of `tier` is drawn at on this screen (1 when not
        `seated`)."""
        return typescale.least_px(tier, self.mm_per_px) if self.seated else 1

    def at_least(self, design: float, tier: Tier) -> int:
        """`design` pixels on this surface, or `tier`'s least size if that is larger."""
        return max(self(design), self.least(tier))


def scale_for(height: int, width: int | None = None) -> Scale:
    """The scale for a surface `height` pixels high (and `width` wide: when not given,
    the width of the listed screen of that height, else 16:9)."""
    if width is None:
        listed = [p.size[0] for p in panels.PANELS if p.size[1] == height]
        width = listed[0] if listed else round(height * 16 / 9)
    panel = panels.panel_for((width, height))
    return Scale(max(height, 1) / DESIGN_HEIGHT, panel.mm_per_px)


def readable_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on `fill`."""
    r, g, b = fill
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return INK if luminance > 150 else TEXT
