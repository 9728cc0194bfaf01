"""The demo's simulated group at the setup screens: what it touches, types and lays.

The group is driven here against a session alone (no camera, no screen): its touches
and typed names are handed to the session, and where it waits for the table, the
table it lays is shown to the session as read. The whole demo, camera and screen
included, is `tests/cli/test_demo_command.py`'s.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.demo.group import NAMES, Group, Typed, setup_move
from companion.errors import CompanionError
from companion.journal import Journal
from companion.language import Language
from companion.rules import find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.draft import KIT_COLOURS, Draft
from companion.session.session import Session, Settings
from companion.session.setup import STEP_NAMES
from companion.session.states import Choosing, Phase, PickingLanguage, TakingSeats, Tuning
from companion.vision.records import SlotContents, TableObservation

SLOTS = tuple(range(1, 9))
EMPTY = TableObservation()
ODYSSEY = find_ruleset("odyssey")
STEPS_LIMIT = 60
"""Moves after which a group that has not started its game is stuck."""


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j


def seated(group: Group) -> TableObservation:
    """The group's owner tokens, the first seat's on slot 1 and so on."""
    return TableObservation(
        {slot: SlotContents((colour,)) for slot, colour in enumerate(group.seats, start=1)}
    )


def set_up(session: Session, group: Group) -> list[Phase]:
    """Let the group set up its game; the phases it went through, one per move."""
    phases: list[Phase] = []
    for _ in range(STEPS_LIMIT):
        state = session.state
        if not state.setting_up:
            return phases
        phases.append(state.phase)
        move = setup_move(state, group)
        if isinstance(move, Typed):
            session.name(move.colour, move.name, 0.0)
        elif move is not None:
            session.press(move, 0.0)
        elif state.phase is Phase.SEATS:
            session.see(EMPTY, True, 0.0)
            session.see(seated(group), True, 0.0)
        elif state.phase is Phase.SETUP:
            session.see(EMPTY, True, 0.0)
            session.see(TableObservation({5: SlotContents((group.seats[1],))}), True, 0.0)
    raise AssertionError(f"the group was still setting up after {STEPS_LIMIT} moves: {phases}")


@pytest.mark.parametrize("language", list(Language))
def test_the_group_sets_up_its_game_by_touch_tokens_and_names_typed_on_a_phone(
    journal: Journal, language: Language
) -> None:
    group = Group.of(language, ODYSSEY, 5)
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    phases = set_up(session, group)
    steps = [Phase.LANGUAGE, Phase.EDITION, Phase.SEATS, Phase.NAMES, Phase.OPTIONS, Phase.SETUP]
    assert list(dict.fromkeys(phases)) == steps
    assert phases.count(Phase.NAMES) == 5 + 1, "each name typed in turn, then Done"
    state = session.state
    assert state.game_id is not None
    assert state.language is language
    assert state.game.ruleset == ODYSSEY
    assert state.lineup.names == NAMES[:5]
    assert state.lineup.colours == KIT_COLOURS[:5]
    assert state.game.first_storyteller == NAMES[1]
    stored = journal.load(state.game_id)
    assert stored.game.seating.players == NAMES[:5]
    assert [stored.colours[name] for name in NAMES[:5]] == list(KIT_COLOURS[:5])


def test_the_group_waits_at_the_seats_step_until_its_tokens_are_read(journal: Journal) -> None:
    group = Group.of(Language.ENGLISH, ODYSSEY, 4)
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    for _ in range(2):
        move = setup_move(session.state, group)
        assert move is not None and not isinstance(move, Typed)
        session.press(move, 0.0)
    assert isinstance(session.state.at, TakingSeats)
    assert setup_move(session.state, group) is None
    session.see(EMPTY, True, 0.0)
    session.see(seated(group), True, 0.0)
    assert session.state.draft.seats == group.seats
    assert setup_move(session.state, group) is not None


def test_a_setup_kept_for_another_edition_and_group_is_gone_back_over(journal: Journal) -> None:
    kept = Draft(Language.FRENCH, "classic", seats=KIT_COLOURS[2:6])
    journal.save_setup(STEP_NAMES[Choosing], kept.document())
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    assert session.state.phase is Phase.SETUP
    group = Group.of(Language.ENGLISH, ODYSSEY, 4)
    phases = set_up(session, group)
    assert phases[:5] == [Phase.SETUP, Phase.OPTIONS, Phase.NAMES, Phase.SEATS, Phase.EDITION]
    assert Phase.LANGUAGE in phases
    state = session.state
    assert state.language is Language.ENGLISH
    assert state.game.ruleset == ODYSSEY
    assert state.lineup.names == NAMES[:4]


def test_a_game_without_end_is_kept_as_the_setup_a_fresh_demo_starts_from(
    journal: Journal,
) -> None:
    endless = ODYSSEY.with_options({"target": None, "storyteller_turns": 1000})
    group = Group.of(Language.FRENCH, endless, 4)
    journal.save_setup(STEP_NAMES[PickingLanguage], group.kept(Language.ENGLISH).document())
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    assert session.state.phase is Phase.LANGUAGE
    set_up(session, group)
    assert session.state.game.ruleset == endless


def test_options_the_options_page_cannot_give_stop_the_demo_with_the_way_out(
    journal: Journal,
) -> None:
    group = Group.of(Language.ENGLISH, ODYSSEY.with_options({"storyteller_turns": 1000}), 4)
    names = tuple(sorted(zip(group.seats, group.names, strict=True)))
    kept = Draft(Language.ENGLISH, "odyssey", seats=group.seats, names=names)
    journal.save_setup(STEP_NAMES[Tuning], kept.document())
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    assert session.state.phase is Phase.OPTIONS
    with pytest.raises(CompanionError, match="without --resume"):
        setup_move(session.state, group)
