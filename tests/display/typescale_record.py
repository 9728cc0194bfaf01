"""What a screen draws, as the type scale sees it: every line of text with its tier,
the height of its capitals in millimetres on the screen's glass, and whether it was
cut; and the rules it must keep (`typescale`)."""

from dataclasses import dataclass

import pygame

from companion.display import panels, typescale
from companion.display.screen import render_with_page
from companion.display.typescale import Tier
from companion.display.view import ScreenView


@dataclass(frozen=True)
class Line:
    """One line of text as drawn on a screen."""

    shown: str
    tier: Tier
    cap_mm: float
    cut: bool

    def broken_rule(self) -> str | None:
        """What rule of the type scale this line breaks, if any."""
        if self.cut:
            return f"{self.tier.value} text cut: {self.shown!r}"
        if self.cap_mm < typescale.CAP_MM[self.tier] - 1e-9:
            least = typescale.CAP_MM[self.tier]
            return f"{self.tier.value} text {self.cap_mm:.1f} mm < {least} mm: {self.shown!r}"
        return None


def drawn(view: ScreenView, size: tuple[int, int]) -> tuple[Line, ...]:
    """Every line of text `view` draws on a screen of `size`."""
    panel = panels.panel_for(size)
    with typescale.recording() as record:
        render_with_page(view, pygame.Surface(size))
    return tuple(Line(d.shown, d.tier, panel.mm(d.cap_px), d.cut) for d in record)


def broken_rules(view: ScreenView, size: tuple[int, int]) -> list[str]:
    """Every rule of the type scale `view` breaks on a screen of `size`."""
    return [rule for line in drawn(view, size) if (rule := line.broken_rule()) is not None]
