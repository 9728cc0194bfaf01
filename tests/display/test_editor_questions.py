"""The round editor's questions as the table draws them: for twelve players with long
names, in English and French, on the 7" screen and a 1280x720 one, every question is
asked whole in type of at least 4 mm capitals, its problem in 2 mm ones, and the
summary fits too."""

from dataclasses import replace

import pygame
import pytest

from companion.actions import Action, Press
from companion.display import editor, fonts, layout, theme
from companion.display.render import render
from companion.display.view import ScreenView
from companion.language import Language
from companion.rules import Reveal, find_ruleset
from companion.session.draft import KIT_COLOURS
from companion.session.editor import RoundEditor, RowKind
from companion.session.lineup import Lineup
from companion.session.session import setup_state
from companion.session.states import Editing, SessionState, Waiting
from companion.view.present import present

NAMES = (
    "Margot",
    "Marie-Christine",
    "Maximilien",
    "Jean-Baptiste",
    "Léa",
    "Lucien",
    "Bartholomew",
    "Guinevere",
    "Hieronymus",
    "Evangeline",
    "Fitzgerald",
    "Christabel",
)
SLOTS = tuple(range(1, 13))
SIZES = ((800, 480), (1280, 720))
LANGUAGES = (Language.ENGLISH, Language.FRENCH)
MM_PER_PX_7_INCH = 0.193


NOTHING = Reveal({})


def editing(language: Language, live: Reveal = NOTHING) -> SessionState:
    """A game of Odyssey for twelve, its first round being entered by hand."""
    lineup = Lineup(NAMES, KIT_COLOURS[:12])
    state = setup_state(find_ruleset("odyssey"), lineup, language)
    opened = RoundEditor.open(state.game, SLOTS, live)
    return replace(state, at=Editing(opened, Waiting()), game_id=1)


def asked(state: SessionState, row: int, reviewing: bool = False) -> ScreenView:
    at = state.at
    assert isinstance(at, Editing)
    return present(
        replace(state, at=replace(at, editor=at.editor.pick(row), reviewing=reviewing)), 0.0, None
    )


def own_card_votes() -> Reveal:
    """Every card on its player's seat, every voter on their own card."""
    cards = dict(enumerate(NAMES, start=1))
    return Reveal(cards, {name: (slot,) for slot, name in cards.items() if slot > 1})


def body_of(size: tuple[int, int], view: ScreenView) -> pygame.Rect:
    s = theme.scale_for(size[1])
    parts = layout.frame(size, s, bool(view.buttons))
    return editor.question_area(parts.body, size[1], s, parts.gap)


def capital(px: int) -> int:
    return int(fonts.font(px).metrics("H")[0][3])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES, ids=lambda lang: lang.value)
@pytest.mark.parametrize("live", [Reveal({}), own_card_votes()], ids=["empty", "own-cards"])
def test_every_question_fits_whole_in_large_type(
    size: tuple[int, int], language: Language, live: Reveal
) -> None:
    state = editing(language, live)
    assert isinstance(state.at, Editing)
    rows = state.at.editor.rows
    height = size[1]
    mm_per_px = MM_PER_PX_7_INCH * 480 / height
    for row in range(len(rows)):
        view = asked(state, row)
        assert view.editor is not None and not view.editor.reviewing
        area = body_of(size, view)
        laid = editor.lay_out(view.editor, area, height, theme.scale_for(height)(10))
        assert laid.whole, (view.editor.question, view.editor.problem)
        big, answer, detail = laid.sizes
        assert capital(big) * mm_per_px >= 4.0 - 1e-9
        assert capital(answer) * mm_per_px >= 4.0
        assert capital(detail) * mm_per_px >= 2.0 - 1e-9
        for rect in (laid.question, laid.answer, laid.problem):
            assert rect is None or area.contains(rect)
        if live.votes and rows[row].kind is RowKind.VOTE and rows[row].value is not None:
            assert "own card" in view.editor.problem or "propre carte" in view.editor.problem
    surface = pygame.Surface(size)
    render(asked(state, len(rows) - 1), surface)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES, ids=lambda lang: lang.value)
def test_the_progress_and_the_arrows_are_on_screen(
    size: tuple[int, int], language: Language
) -> None:
    state = editing(language)
    view = asked(state, 5)
    assert view.editor is not None and view.editor.progress == "6 / 36"
    hits = render(view, pygame.Surface(size))
    for press in (Press(Action.LEFT), Press(Action.RIGHT)):
        area = hits.box_of(press)
        assert area is not None and pygame.Rect(0, 0, *size).contains(pygame.Rect(area))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", LANGUAGES, ids=lambda lang: lang.value)
def test_the_summary_draws_for_a_legal_and_an_illegal_round(
    size: tuple[int, int], language: Language
) -> None:
    legal = dict(enumerate(NAMES, start=1))
    state = editing(language, Reveal(legal, dict.fromkeys(NAMES[1:], (1,))))
    view = asked(state, 0, reviewing=True)
    assert view.editor is not None and view.editor.preview is not None
    render(view, pygame.Surface(size))
    stuck = asked(editing(language), 0, reviewing=True)
    assert stuck.editor is not None and stuck.editor.preview is None
    assert stuck.editor.summary and stuck.editor.problem == ""
    render(stuck, pygame.Surface(size))
