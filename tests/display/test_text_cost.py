"""Laying text out costs no more than a frame can pay, whatever the text: a name of
60,000 characters (which an older companion let a phone type, and kept in its
journal) is measured and drawn no more than a screenful is.

The cost is counted, not timed: every character handed to the font to measure or
draw is counted, through a stand-in for the font that counts and passes on. Before
the bound, a word too long for its line was measured whole once per line it filled,
at every size tried: the setup screen with such a name measured billions of
characters and held the loop for a minute.
"""

import dataclasses
import itertools
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pygame
import pytest

from companion.display import fonts
from companion.display.render import render
from companion.display.view import ScreenView
from tests.display import sample_views

HUGE = "W" * 60_000
"""A name typed on a phone before names were bounded."""
HUGE_WORDS = " ".join(["Wolfeschlegelsteinhausenbergerdorff"] * 1_700)
"""As long, in words."""
SIZES = ((1280, 720), (800, 480))
FRAME_CHARACTERS = 1_000_000
"""The most characters one screen may measure and draw from nothing (every cache
empty): the busiest ordinary screen (twelve players, a proposal with its reasons)
measures about 160,000, and a screen is drawn from nothing only when it changes.
pygame measures about 5 million characters a second here: a tenth of a second at
worst, once, where the unbounded layout took a minute at every restart."""
ONE_TEXT_CHARACTERS = 150_000
"""The most characters laying out any one text may cost, at every size tried: a
paragraph of the longest text measured (`fonts.MAX_TEXT_CHARS`) wrapped at some
twenty sizes."""


class CountingFont:
    """A pygame font that counts the characters it measures or draws."""

    def __init__(self, real: pygame.font.Font, counted: list[int]) -> None:
        self._real = real
        self._counted = counted

    def size(self, text: str) -> tuple[int, int]:
        self._counted.append(len(text))
        return self._real.size(text)

    def render(self, text: str, *args: Any) -> pygame.Surface:
        self._counted.append(len(text))
        return self._real.render(text, *args)

    def metrics(self, text: str) -> Any:
        self._counted.append(len(text))
        return self._real.metrics(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _clear_caches() -> None:
    """Every cache of the display's drawing emptied (but pygame's fonts, kept open)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("companion.display."):
            continue
        for cached in list(vars(module).values()):
            if hasattr(cached, "cache_clear") and cached is not fonts.font:
                cached.cache_clear()


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Characters measured or drawn, one entry per call, from empty caches."""
    counts: list[int] = []
    real = fonts.font
    monkeypatch.setattr(fonts, "font", lambda px: CountingFont(real(px), counts))
    _clear_caches()
    yield counts
    _clear_caches()


def _renamed(view: ScreenView, name: str) -> ScreenView:
    """`view` with its first player, first seat or first line of the setup called `name`."""
    rabbits = view.rabbits
    if rabbits:
        rabbits = (dataclasses.replace(rabbits[0], name=name), *rabbits[1:])
    proposal = view.proposal
    if proposal is not None and proposal.lines:
        first = dataclasses.replace(proposal.lines[0], name=name)
        proposal = dataclasses.replace(proposal, lines=(first, *proposal.lines[1:]))
    setup = view.setup
    if setup is not None:
        choice = dataclasses.replace(setup.choices[0], label=name, detail=name)
        setup = dataclasses.replace(setup, choices=(choice, *setup.choices[1:]))
    return dataclasses.replace(view, rabbits=rabbits, proposal=proposal, setup=setup)


SCREENS: dict[str, Callable[[], ScreenView]] = {
    "names": sample_views.setup_names,
    "first storyteller": lambda: sample_views.setup_first(names=(HUGE, "Ann", "Ben")),
    "twelve players": sample_views.twelve_players,
    "winner": sample_views.winner,
}


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("text", [HUGE, HUGE_WORDS], ids=["one word", "words"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_screen_with_a_huge_name_costs_what_a_frame_can_pay(
    counted: list[int], screen: str, text: str, size: tuple[int, int]
) -> None:
    view = _renamed(SCREENS[screen](), text)
    render(view, pygame.Surface(size))
    assert sum(counted) <= FRAME_CHARACTERS, f"{sum(counted):,} characters in {len(counted)} calls"


def test_an_ordinary_screen_costs_far_less(counted: list[int]) -> None:
    render(sample_views.setup_names(), pygame.Surface(SIZES[0]))
    assert 0 < sum(counted) < FRAME_CHARACTERS // 4


LAYOUTS: dict[str, Callable[[str], object]] = {
    "wrap": lambda text: fonts.wrap(text, 300, 24),
    "block": lambda text: fonts.block((text, text), (600, 400), 48, 12),
    "fit": lambda text: fonts.fit(text, 300, 48, (255, 255, 255), 12),
    "fitting size": lambda text: fonts.fitting_size(text, 300, 96, 8),
    "common size": lambda text: fonts.common_size((text, "Ann"), 300, 96, 8),
    "ellipsize": lambda text: fonts.ellipsize(text, 300, 24),
    "rise": lambda text: fonts.rise(text, 24),
    "text": lambda text: fonts.text(text, 24, (255, 255, 255)),
    "width": lambda text: fonts.width(text, 24),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize(
    "text", [HUGE, HUGE_WORDS, "\u0301" * 60_000], ids=["word", "words", "marks"]
)
def test_laying_out_any_one_text_is_bounded(counted: list[int], layout: str, text: str) -> None:
    LAYOUTS[layout](text)
    assert sum(counted) <= ONE_TEXT_CHARACTERS, f"{sum(counted):,} characters"


def test_a_long_word_still_breaks_into_lines_that_fit_and_cut_nothing_short() -> None:
    word = "Wolfeschlegelsteinhausenbergerdorff" * 4
    lines = fonts.wrap(word, 200, 24)
    assert "".join(lines) == word
    assert all(fonts.width(line, 24) <= 200 for line in lines)
    assert all(fonts.width(line + nxt[0], 24) > 200 for line, nxt in itertools.pairwise(lines))


def test_a_text_beyond_what_is_measured_ends_in_an_ellipsis() -> None:
    shown = fonts.clean(HUGE)
    assert len(shown) == fonts.MAX_TEXT_CHARS and shown.endswith(fonts.ELLIPSIS)
    assert fonts.clean("Ann") == "Ann"
