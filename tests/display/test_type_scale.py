"""The type scale, as players read it from their seats: every text every reference
screen draws is recorded by the drawing layer (`typescale.recording`: its tier, the
height of its capitals in millimetres on the screen's glass, whether it was cut), in
English and French, on the 7" touch screen (800x480) and a 15.6" monitor at 1280x720,
and checked against the rules: what every player must read (the headline, a problem
that blocks scoring, who the table waits for, names, totals, round points, the
winner) 4 mm or more and never cut; details 2 mm or more and never cut.

Where a screen still falls short it is listed in `SHORT` with the reason, and its test
is expected to fail: a change that makes it hold shows as an unexpected pass, and the
entry is then removed.
"""

import re

import pygame
import pytest
from babel.messages.extract import extract_from_dir

from companion.display import fonts, panels, typescale
from companion.display.typescale import Tier
from companion.display.view import Level, Notice, ScreenView
from companion.language import Language, translations
from companion.phrases import Name, Phrase, listing, names, phrase, plural
from tests.display import odyssey_twelve
from tests.display.reference_screens import REFERENCES, SCREENS, SIZES
from tests.display.typescale_record import broken_rules, drawn

CROWDED_RABBITS = "rabbits crowding a space carry labels under 4 mm"
SMALL_SCREEN = "the 7-inch screen cannot hold twelve long names at 4 mm beside the rest"
CLOSE_BY = "setup and editor screens are read close by, at their design's sizes"
SHORT: dict[tuple[str, int], str] = {
    ("waiting", 800): CROWDED_RABBITS,
    ("page-waiting", 800): CROWDED_RABBITS,
    ("page-waiting-fr", 800): CROWDED_RABBITS,
    ("proposal", 1280): CROWDED_RABBITS,
    ("proposal", 800): CROWDED_RABBITS,
    ("clearing", 1280): CROWDED_RABBITS,
    ("clearing", 800): CROWDED_RABBITS,
    ("winner", 1280): CROWDED_RABBITS,
    ("camera-lost", 800): CROWDED_RABBITS,
    ("odyssey12-waiting", 1280): CROWDED_RABBITS,
    ("odyssey12-problem", 1280): CROWDED_RABBITS,
    ("odyssey12-proposal", 1280): CROWDED_RABBITS,
    ("odyssey12-winner", 1280): CROWDED_RABBITS,
    ("odyssey12-winner", 800): CROWDED_RABBITS,
    ("odyssey12-waiting-fr", 1280): CROWDED_RABBITS,
    ("odyssey12-problem-fr", 1280): CROWDED_RABBITS,
    ("odyssey12-proposal-fr", 1280): CROWDED_RABBITS,
    ("odyssey12-winner-fr", 1280): CROWDED_RABBITS,
    ("odyssey12-winner-fr", 800): CROWDED_RABBITS,
    ("problems", 1280): "eleven problems and waits, one player a line as the table no longer"
    " words them, leave long names too little room",
    ("winner", 800): SMALL_SCREEN,
    ("page-winner", 1280): SMALL_SCREEN + " (and the page's code)",
    ("page-winner-fr", 1280): SMALL_SCREEN + " (and the page's code)",
    ("page-winner", 800): SMALL_SCREEN,
    ("page-winner-fr", 800): SMALL_SCREEN,
    ("odyssey12-problem", 800): SMALL_SCREEN,
    ("odyssey12-problem-fr", 800): SMALL_SCREEN,
    ("odyssey12-waiting-fr", 800): SMALL_SCREEN,
    **{
        (name, 800): CLOSE_BY
        for name in SCREENS
        if name.startswith(("setup", "page-setup", "editor", "page-editor"))
    },
}
"""The reference screens that do not keep the type scale yet, and why."""


def _case(name: str, width: int) -> object:
    size = next(s for s in SIZES if s[0] == width)
    reason = SHORT.get((name, width))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, size, id=f"{name}-{size[0]}x{size[1]}", marks=marks)


CASES = [_case(name, size[0]) for name in SCREENS for size in SIZES]


@pytest.mark.parametrize(("name", "size"), CASES)
def test_every_text_of_a_reference_screen_keeps_its_tier(name: str, size: tuple[int, int]) -> None:
    assert (REFERENCES / f"{name}-{size[0]}x{size[1]}.png").exists()
    assert broken_rules(SCREENS[name](), size) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_reference_screen_reports_what_it_draws(size: tuple[int, int]) -> None:
    """The record is complete enough to check: each playing screen reports its
    headline as a seat's text, and no screen draws text the record misses."""
    for name in ("waiting", "proposal", "winner", "odyssey12-problem-fr"):
        view = SCREENS[name]()
        lines = drawn(view, size)
        seat = " ".join(line.shown for line in lines if line.tier is Tier.SEAT)
        assert view.headline.split()[0] in seat, name
        assert all(line.cap_mm > 0 for line in lines)


# The blocking problem, as the headline


def _problem_messages() -> list[tuple[str, str | None]]:
    """Every message (singular, plural) worded by the rules and the table's reader."""
    found: dict[tuple[str, str | None], None] = {}
    keywords = {"phrase": (1,), "plural": (1, 2)}
    for folder in ("rules", "vision", "session"):
        path = str(REFERENCES.parents[2] / "companion" / folder)
        for filename, _, message, _, _ in extract_from_dir(path, keywords=keywords):
            if folder == "session" and not filename.startswith("table"):
                continue
            if isinstance(message, tuple):
                found[(message[0], message[1])] = None
            else:
                found[(message, None)] = None
    return list(found)


PEOPLE = {"players", "winners"}
"""Values that list people: filled with two long names."""
PERSON = {"player", "voter", "owner", "teller", "who", "team", "colour", "first", "second"}
"""Values that name one person: filled with a long name."""


def _filled(message: str, plural_message: str | None) -> Phrase:
    values: dict[str, object] = {}
    for name in re.findall(r"\{(\w+)", message + (plural_message or "")):
        if name in PEOPLE:
            values[name] = listing(names("Marie-Christine", "Jean-Baptiste"))
        elif name in PERSON:
            values[name] = Name("Marie-Christine")
        elif "slot" in name:
            values[name] = "12"
        else:
            values[name] = "2"
    if plural_message is None:
        return phrase(message, **values)  # type: ignore[arg-type]
    return plural(message, plural_message, 2, **values)  # type: ignore[arg-type]


PROBLEMS = _problem_messages()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("language", list(Language), ids=lambda language: language.value)
def test_every_problem_the_rules_and_reader_word_is_drawn_whole_as_the_headline(
    language: Language, size: tuple[int, int]
) -> None:
    words = translations(language)
    base = odyssey_twelve.screen(language, "problem")
    assert len(PROBLEMS) > 30
    for message, plural_message in PROBLEMS:
        problem = phrase(
            "Put this right to score: {problem}", problem=_filled(message, plural_message)
        )
        text = problem.render(words)
        notice = Notice(_filled(message, plural_message).render(words), Level.PROBLEM)
        view = ScreenView(base.title, text, (), notices=(notice,), buttons=base.buttons)
        headline = " ".join(fonts.breakable_words(text))
        lines = [line for line in drawn(view, size) if line.tier is Tier.SEAT]
        shown = " ".join(line.shown for line in lines)
        assert headline.split()[-1] in shown, (message, size)
        for line in lines:
            assert not line.cut, (message, line.shown)
            assert line.cap_mm >= typescale.CAP_MM[Tier.SEAT] - 1e-9, (message, line.shown)


@pytest.mark.parametrize("state", odyssey_twelve.STATES)
@pytest.mark.parametrize("language", list(Language), ids=lambda language: language.value)
def test_names_and_totals_on_the_monitor_are_no_smaller_than_on_the_7_inch_screen(
    language: Language, state: str
) -> None:
    view = odyssey_twelve.screen(language, state)
    tallest: dict[tuple[int, int], float] = {}
    for size in SIZES:
        names = [line for line in drawn(view, size) if line.shown in odyssey_twelve.NAMES]
        assert names, (state, size)
        tallest[size] = min(line.cap_mm for line in names)
    assert tallest[(1280, 720)] >= tallest[(800, 480)] - 0.05


def test_the_typeface_draws_french_at_every_size_the_screens_use() -> None:
    """Accents and French punctuation are glyphs of the shipped typeface, not the empty
    box it draws for what it lacks, at the sizes of the tiers on every listed screen."""
    assert fonts.typeface_file().endswith("AtkinsonHyperlegible-Bold.ttf")
    sizes = {typescale.least_px(tier, p.mm_per_px) for tier in Tier for p in panels.PANELS}
    for px in sorted(sizes | {12, 54}):
        box = pygame.surfarray.array_alpha(fonts.text("\u4e2d", px, (255, 255, 255)))
        for letter in "ÀÂÇÉÈÊËÎÏÔŒÙÛÜàâçéèêëîïôœùûü«»\u2019€!?:;":
            drawn = pygame.surfarray.array_alpha(fonts.text(letter, px, (255, 255, 255)))
            assert drawn.any(), (px, letter)
            assert drawn.shape != box.shape or (drawn != box).any(), (px, letter)
