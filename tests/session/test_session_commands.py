"""The phone page's commands as the session acts on them: a setup typed on a phone, a
past round corrected, the game given up, a press; and the loop handing each verdict
back to the thread that asked."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.actions import Action, Press
from companion.errors import CompanionError
from companion.journal import GameStatus, Journal
from companion.language import Language, translations
from companion.rules import Game, Reveal
from companion.runtime.effects import JournalEffects
from companion.runtime.loop import Loop
from companion.session.commands import Command, Correct, GiveUp, NotNow, SetUp, Verdict
from companion.session.draft import KIT_COLOURS
from companion.session.session import Session, Settings
from companion.session.states import Phase
from tests.screens import RecordingScreen
from tests.session.observations import table_of
from tests.web.desk import (
    LINEUP,
    ODYSSEY,
    SLOTS,
    Desk,
    all_find,
    playing_desk,
    round_of,
    setting_up_desk,
)

ANN_ALONE_FINDS = Reveal(
    {1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan"}, {"Ann": (2,), "Cleo": (1,), "Dan": (1,)}
)
"""Round 2 (Ben tells) with Ann the only one to find Ben's card and the others on
Ann's: Ann scores 5."""


def command(desk: Desk, asked: Command) -> Verdict:
    """The session acts on a command from the page, at the desk's clock."""
    return desk.do(lambda: desk.session.command(asked, desk.clock))


def refused(verdict: Verdict) -> str:
    assert verdict.refused is not None, "the command was done where a refusal was due"
    return str(verdict.refused)


def saved_step(desk: Desk) -> tuple[str, dict[str, object]] | None:
    return desk.do(desk.journal.saved_setup)


def seated(desk: Desk, colours: tuple[str, ...]) -> None:
    """The seats taken at the table by touch, after a phone chose Classic."""
    assert command(desk, SetUp(ruleset="classic")).refused is None
    for colour in colours:
        desk.press(Action.PICK, KIT_COLOURS.index(colour))
    assert desk.session.state.draft.seats == colours


@pytest.fixture
def setting_up(tmp_path: Path) -> Iterator[Desk]:
    with setting_up_desk(tmp_path / "journal.sqlite") as desk:
        yield desk


@pytest.fixture
def two_rounds(tmp_path: Path) -> Iterator[Desk]:
    with playing_desk(tmp_path / "journal.sqlite", 2) as desk:
        yield desk


# SetUp


@pytest.mark.parametrize(
    ("asked", "ruleset"),
    [(SetUp(ruleset="classic"), "classic"), (SetUp(options={"target": 20}), "odyssey")],
)
def test_an_edition_or_options_from_a_phone_move_an_early_step_on_to_the_seats(
    setting_up: Desk, asked: SetUp, ruleset: str
) -> None:
    before = setting_up.session.snapshot
    assert before.state.phase is Phase.LANGUAGE
    verdict = command(setting_up, asked)
    after = setting_up.session.snapshot
    assert verdict == Verdict(after.version, None)
    assert after.version == before.version + 1
    assert after.state.phase is Phase.SEATS
    assert after.state.draft.ruleset == ruleset
    kept = saved_step(setting_up)
    assert kept is not None and kept[0] == "seats" and kept[1]["ruleset"] == ruleset


def test_the_same_edition_again_leaves_the_language_step_where_it_is(setting_up: Desk) -> None:
    verdict = command(setting_up, SetUp(ruleset="odyssey"))
    assert verdict.refused is None
    assert setting_up.session.state.phase is Phase.LANGUAGE


def test_names_from_a_phone_are_given_to_their_seats(setting_up: Desk) -> None:
    seated(setting_up, ("red", "blue", "green"))
    verdict = command(setting_up, SetUp(names={"red": "Ann", "green": "  Cleo "}))
    assert verdict.refused is None
    draft = setting_up.session.state.draft
    assert [draft.name_of(c) for c in draft.seats] == ["Ann", "Blue", "Cleo"]
    kept = saved_step(setting_up)
    assert kept is not None and kept[1]["names"] == {"red": "Ann", "green": "Cleo"}


def test_an_empty_name_gives_the_seat_its_colours_name_again(setting_up: Desk) -> None:
    seated(setting_up, ("red", "blue", "green"))
    command(setting_up, SetUp(names={"red": "Ann"}))
    assert command(setting_up, SetUp(names={"red": ""})).refused is None
    assert setting_up.session.state.draft.name_of("red") == "Red"


def test_a_name_another_seat_has_is_refused_and_nothing_of_the_setup_is_taken(
    setting_up: Desk,
) -> None:
    seated(setting_up, ("red", "blue", "green"))
    command(setting_up, SetUp(names={"red": "Ann"}))
    before = setting_up.session.snapshot
    asked = SetUp(ruleset="odyssey", options={"target": 20}, names={"green": "Cleo", "blue": "ann"})
    verdict = command(setting_up, asked)
    assert refused(verdict) == "ann is already the name of another seat"
    assert verdict.version == before.version
    assert setting_up.session.snapshot == before
    assert setting_up.session.state.draft.ruleset == "classic"


def test_a_name_refused_is_said_in_the_tables_language(tmp_path: Path) -> None:
    with setting_up_desk(tmp_path / "journal.sqlite", Language.FRENCH) as desk:
        seated(desk, ("red", "blue", "green"))
        verdict = command(desk, SetUp(names={"red": "Ann", "blue": "Ann"}))
        assert verdict.refused is not None
        french = verdict.refused.render(translations(Language.FRENCH))
        assert "Ann" in french and french != str(verdict.refused)


@pytest.mark.parametrize(
    ("asked", "words"),
    [
        (SetUp(ruleset="monopoly"), "there is no edition monopoly"),
        (SetUp(options={"speed": 3}), "there is no option speed"),
        (
            SetUp(options={"target": None}),
            "classic: with no target, storyteller_turns or round_limit the game never ends",
        ),
        (SetUp(options={"target": -5}), "target must be from 10 to 100"),
        (SetUp(names={"mauve": "Ann"}), "no player sits in mauve"),
        (SetUp(names={"white": "Ann"}), "no player sits in white"),
        (SetUp(names={"red": "Ann+Ben"}), "a name may not hold +"),
    ],
)
def test_an_unknown_edition_option_or_colour_is_refused_and_nothing_changes(
    setting_up: Desk, asked: SetUp, words: str
) -> None:
    seated(setting_up, ("red", "blue", "green"))
    before = setting_up.session.snapshot
    verdict = command(setting_up, asked)
    assert words in refused(verdict)
    assert setting_up.session.snapshot == before


def test_a_setup_outside_setting_up_is_refused(two_rounds: Desk) -> None:
    before = two_rounds.session.snapshot
    verdict = command(two_rounds, SetUp(names={"red": "Zoe"}))
    assert refused(verdict) == "the table is not setting up a game: names wait for the next"
    assert verdict.version == before.version
    assert two_rounds.session.snapshot == before


# Correct


def test_a_corrected_round_rescores_the_game_with_a_hop_and_a_message(two_rounds: Desk) -> None:
    desk = two_rounds
    old = dict(desk.session.state.game.totals)
    before = desk.session.snapshot.version
    verdict = command(desk, Correct(game_of(desk), 1, all_find(1)))
    state = desk.session.state
    expected = Game.start(ODYSSEY, LINEUP.names, "Ann").play(all_find(1)).play(round_of(2))
    assert verdict == Verdict(before + 1, None)
    assert dict(state.game.totals) == dict(expected.totals) != old
    assert state.hop is not None
    assert (dict(state.hop.start), dict(state.hop.end)) == (old, dict(expected.totals))
    assert str(state.says(desk.clock)) == "round 1 corrected and the game rescored"
    assert state.phase is Phase.WAITING
    rounds = desk.history(lambda h: h.rounds(desk.game_id))
    assert [r.corrected for r in rounds] == [True, False]
    stored = desk.do(lambda: desk.journal.load(desk.game_id))
    assert dict(stored.game.totals) == dict(expected.totals)


def test_an_illegal_round_is_refused_with_the_rules_words_and_the_journal_unchanged(
    two_rounds: Desk,
) -> None:
    desk = two_rounds
    illegal = Reveal({1: "Ann"}, {})
    with pytest.raises(CompanionError) as rules:
        desk.session.state.game.corrected(1, illegal)
    before, exported = desk.session.snapshot, desk.export(desk.game_id)
    verdict = command(desk, Correct(game_of(desk), 1, illegal))
    assert refused(verdict) == str(rules.value.phrase)
    assert "Ben has not laid a card" in refused(verdict)
    assert desk.session.snapshot == before
    assert desk.export(desk.game_id) == exported
    assert not any(r.corrected for r in desk.history(lambda h: h.rounds(desk.game_id)))


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (4, "there is no round 4: the game has 2 rounds"),
        (0, "there is no round 0: the game has 2 rounds"),
        (10**9, "there is no round 1000000000: the game has 2 rounds"),
    ],
)
def test_a_round_not_played_cannot_be_corrected(two_rounds: Desk, number: int, words: str) -> None:
    before = two_rounds.session.snapshot
    assert refused(command(two_rounds, Correct(game_of(two_rounds), number, round_of(1)))) == words
    assert two_rounds.session.snapshot == before


def test_one_round_is_counted_in_the_singular(tmp_path: Path) -> None:
    with playing_desk(tmp_path / "journal.sqlite", 1) as desk:
        verdict = command(desk, Correct(game_of(desk), 3, round_of(3)))
        assert refused(verdict) == "there is no round 3: the game has 1 round"


def test_the_round_being_played_is_entered_from_the_page(two_rounds: Desk) -> None:
    verdict = command(two_rounds, Correct(game_of(two_rounds), 3, round_of(3)))
    assert verdict.refused is None and verdict.unkept is None
    state = two_rounds.session.state
    assert len(state.game.played) == 3
    assert state.game.played[2].score.round.reveal == round_of(3)
    assert state.phase is Phase.CLEARING


def test_the_round_being_played_is_refused_in_words_when_illegal(two_rounds: Desk) -> None:
    before = two_rounds.session.snapshot
    verdict = command(two_rounds, Correct(game_of(two_rounds), 3, Reveal({1: "Ann"})))
    assert refused(verdict) == "round 3: Ben has not laid a card; one card expected"
    assert two_rounds.session.snapshot == before


def test_nothing_is_corrected_during_setup(setting_up: Desk) -> None:
    verdict = command(setting_up, Correct(game_of(setting_up), 1, round_of(1)))
    assert refused(verdict) == "there is no game in progress to correct"


@pytest.mark.parametrize("opening", [Action.FIX, Action.ABANDON])
def test_a_correction_waits_while_the_table_asks_a_question(
    two_rounds: Desk, opening: Action
) -> None:
    two_rounds.press(opening)
    assert two_rounds.session.state.phase in (Phase.EDITING, Phase.ABANDONING)
    before = two_rounds.session.snapshot
    verdict = command(two_rounds, Correct(game_of(two_rounds), 1, all_find(1)))
    assert refused(verdict) == "the table is busy with a question: answer it there first"
    assert two_rounds.session.snapshot == before


def test_a_correction_that_ends_the_game_goes_to_the_winner(tmp_path: Path) -> None:
    with playing_desk(tmp_path / "journal.sqlite", 2, target=8) as desk:
        assert desk.session.state.game.outcome is None
        verdict = command(desk, Correct(game_of(desk), 2, ANN_ALONE_FINDS))
        state = desk.session.state
        assert verdict.refused is None
        assert state.phase is Phase.WINNER
        assert state.game.outcome is not None and state.game.outcome.winners == ("Ann",)
        summary = desk.history(lambda h: h.game(desk.game_id))
        assert getattr(summary, "status", None) is GameStatus.FINISHED


def test_a_correction_at_the_winner_that_unends_the_game_goes_back_to_the_round(
    tmp_path: Path,
) -> None:
    with playing_desk(tmp_path / "journal.sqlite", 3, target=10) as desk:
        assert desk.session.state.phase is Phase.WINNER
        verdict = command(desk, Correct(game_of(desk), 3, all_find(3)))
        state = desk.session.state
        assert verdict.refused is None
        assert state.game.outcome is None
        assert state.phase is Phase.WAITING
        assert state.game.round_number == 4 and state.game.storyteller == "Dan"
        summary = desk.history(lambda h: h.game(desk.game_id))
        assert getattr(summary, "status", None) is GameStatus.PLAYING


# GiveUp


def test_giving_up_abandons_the_game_and_the_table_sets_up_the_next(two_rounds: Desk) -> None:
    desk = two_rounds
    game_id = desk.game_id
    verdict = command(desk, GiveUp())
    state = desk.session.state
    assert verdict == Verdict(desk.session.snapshot.version, None)
    assert state.setting_up and state.phase is Phase.LANGUAGE
    assert state.game_id is None
    assert str(state.says(desk.clock)) == f"game {game_id} given up; it stays in the journal"
    summary = desk.history(lambda h: h.game(game_id))
    assert getattr(summary, "status", None) is GameStatus.ABANDONED
    assert getattr(summary, "rounds", None) == 2
    assert desk.do(desk.journal.resume) is None


def test_giving_up_while_the_table_asks_whether_to_give_up_gives_up(two_rounds: Desk) -> None:
    two_rounds.press(Action.ABANDON)
    assert two_rounds.session.state.phase is Phase.ABANDONING
    assert command(two_rounds, GiveUp()).refused is None
    assert two_rounds.session.state.phase is Phase.LANGUAGE


def test_there_is_nothing_to_give_up_during_setup_or_at_the_winner(
    setting_up: Desk, tmp_path: Path
) -> None:
    before = setting_up.session.snapshot
    verdict = command(setting_up, GiveUp())
    assert refused(verdict) == "there is no game in progress to give up"
    assert setting_up.session.snapshot == before
    with playing_desk(tmp_path / "won.sqlite", 3, target=10) as won:
        assert won.session.state.phase is Phase.WINNER
        assert refused(command(won, GiveUp())) == "there is no game in progress to give up"
        assert won.session.state.phase is Phase.WINNER


# Press


def test_confirm_and_undo_from_the_page_do_what_the_buttons_do(tmp_path: Path) -> None:
    with (
        playing_desk(tmp_path / "page.sqlite") as page,
        playing_desk(tmp_path / "buttons.sqlite") as buttons,
    ):
        for desk in (page, buttons):
            desk.see(table_of(round_of(1), LINEUP))
            assert desk.session.state.phase is Phase.PROPOSAL
        for action in (Action.CONFIRM, Action.UNDO):
            verdict = command(page, Press(action))
            buttons.press(action)
            assert verdict == Verdict(page.session.snapshot.version, None)
            assert page.session.snapshot == buttons.session.snapshot
        assert page.session.state.game.played == ()
        assert str(page.session.state.says(page.clock)) == "round 1 undone"


def test_an_undo_from_the_page_with_no_round_to_undo_is_refused_and_changes_nothing(
    setting_up: Desk,
) -> None:
    before = setting_up.session.snapshot
    verdict = command(setting_up, Press(Action.UNDO))
    assert isinstance(verdict.moved, NotNow)
    assert str(verdict.refused) == "there is no round to undo"
    assert setting_up.session.snapshot == before


# The loop


@pytest.fixture
def loop(tmp_path: Path, recording_screen: RecordingScreen) -> Iterator[Loop]:
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
        yield Loop(session, recording_screen, lambda: 0.0)


def test_the_loop_answers_a_command_at_its_next_step(loop: Loop) -> None:
    future = loop.submit(SetUp(ruleset="classic"))
    assert not future.done()
    loop.step()
    assert future.result(timeout=0) == Verdict(loop.session.snapshot.version, None)
    assert loop.session.state.phase is Phase.SEATS


def test_the_loop_hands_back_the_sessions_refusal(loop: Loop) -> None:
    future = loop.submit(SetUp(ruleset="monopoly"))
    loop.step()
    verdict = future.result(timeout=0)
    assert str(verdict.refused) == "there is no edition monopoly"
    assert loop.session.state.phase is Phase.LANGUAGE


def test_the_loop_answers_commands_in_the_order_they_came(loop: Loop) -> None:
    first = loop.submit(SetUp(ruleset="classic"))
    second = loop.submit(SetUp(ruleset="odyssey"))
    loop.step()
    assert first.result(timeout=0).version < second.result(timeout=0).version
    assert loop.session.state.draft.ruleset == "odyssey"


def test_a_command_its_asker_gave_up_on_is_left_alone(loop: Loop) -> None:
    future = loop.submit(SetUp(ruleset="classic"))
    assert future.cancel()
    before = loop.session.snapshot
    loop.step()
    assert future.cancelled()
    assert loop.session.state.phase is Phase.LANGUAGE
    assert loop.session.snapshot.state.draft == before.state.draft


def game_of(desk: Desk) -> int:
    """The number of the desk's game (1 while it sets one up: there is none yet)."""
    game_id = desk.snapshot().state.game_id
    return game_id if game_id is not None else 1


def test_a_correction_of_another_game_than_the_tables_is_refused(tmp_path: Path) -> None:
    with playing_desk(tmp_path / "journal.sqlite", rounds=1) as desk:
        before = desk.snapshot().state.game
        verdict = command(desk, Correct(game_of(desk) + 1, 1, all_find(1)))
        assert verdict.refused is not None and "only the game at the table" in str(verdict.refused)
        assert desk.snapshot().state.game == before


def test_a_correction_may_not_lay_a_card_on_a_slot_the_board_does_not_have(
    tmp_path: Path,
) -> None:
    with playing_desk(tmp_path / "journal.sqlite", rounds=1) as desk:
        before = desk.snapshot().state.game
        first = round_of(1)
        lowest = min(first.cards)
        cards = {slot: player for slot, player in first.cards.items() if slot != lowest}
        votes = {
            v: tuple(40 if s == lowest else s for s in slots) for v, slots in first.votes.items()
        }
        moved = Reveal({**cards, 40: first.cards[lowest]}, votes)
        verdict = command(desk, Correct(game_of(desk), 1, moved))
        assert str(verdict.refused) == "this board has no slot 40"
        assert desk.snapshot().state.game == before
