"""The physical size of the screens the companion is drawn on, in one place.

Type is sized in millimetres on the glass (see `typescale`): a capital must be so
many millimetres high wherever the table looks at it, whatever the pixels. Each
screen the hardware guide recommends is a `Panel` here, with the size of its
pixels; the screen's surface size chooses it, and nothing else in the display
guesses a physical size.
"""

from dataclasses import dataclass

PORTABLE_WIDTH_MM = 344.2
"""The width of the picture of a 15.6-inch 16:9 monitor, the portable HDMI monitor
the hardware guide suggests: what a surface of a size not listed is taken to fill."""


@dataclass(frozen=True)
class Panel:
    """A screen the companion is drawn on."""

    name: str
    """What the hardware guide calls it."""
    size: tuple[int, int]
    """Its surface size in pixels (width, height)."""
    mm_per_px: float
    """How wide one pixel is on the glass, in millimetres."""

    def mm(self, px: float) -> float:
        """`px` pixels on this screen, in millimetres."""
        return px * self.mm_per_px


TOUCH_DISPLAY = Panel('Raspberry Pi Touch Display 7" (800 x 480)', (800, 480), 0.193)
PORTABLE_720 = Panel('15.6" portable HDMI monitor at 1280 x 720', (1280, 720), 0.269)
PORTABLE_1080 = Panel('15.6" portable HDMI monitor at 1920 x 1080', (1920, 1080), 0.179)
PANELS = (TOUCH_DISPLAY, PORTABLE_720, PORTABLE_1080)
"""The screens the hardware guide recommends."""


def panel_for(size: tuple[int, int]) -> Panel:
    """The screen a surface of `size` is shown on: the listed one of that size, else
    a 15.6-inch monitor filled edge to edge by the surface."""
    width, height = size
    for panel in PANELS:
        if panel.size == (width, height):
            return panel
    name = f'15.6" monitor at {width} x {height}'
    return Panel(name, (width, height), PORTABLE_WIDTH_MM / max(width, 1))
