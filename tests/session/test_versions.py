"""Presses and the page's commands act on the snapshot they were made from: a Confirm
keeps the score that was shown or nothing, one from the page never says the table is
cleared, a refused command changes nothing, and while the table is cleared the table
says only that."""

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.actions import Action, Press
from companion.language import Language
from companion.rules import Reveal, find_ruleset
from companion.runtime.loop import Loop
from companion.session.commands import Correct, GiveUp, NotNow, Stale
from companion.session.effects import WriteRound
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings, setup_state
from companion.session.states import Phase, Snapshot
from companion.session.versions import SCREEN_MOVED
from companion.vision.records import TableObservation
from tests.screens import RecordingScreen
from tests.session.fake_journal import FakeJournal
from tests.session.observations import table_of

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
RULES = find_ruleset("odyssey").with_options({"target": 30})
SETTINGS = Settings(tuple(range(1, 9)), auto_confirm=5.0)
EMPTY = TableObservation()
SLOT = {name: at for at, name in enumerate(LINEUP.names, start=1)}


def laid(number: int, votes: tuple[int, int, int] = (0, 1, 0)) -> Reveal:
    """Round `number`: every card on its seat's slot; the three voters after the
    storyteller vote for the card `votes` names (0 the storyteller's, 1 the first
    voter's, 2 the second's; never their own)."""
    names = LINEUP.names
    turn = (number - 1) % len(names)
    teller, others = names[turn], names[turn + 1 :] + names[:turn]
    choices = (teller, *others)
    picked: dict[str, tuple[int, ...]] = {}
    for index, voter in enumerate(others):
        choice = choices[votes[index]]
        picked[voter] = (SLOT[teller if choice == voter else choice],)
    return Reveal({at: name for name, at in SLOT.items()}, picked)


@dataclass
class Table:
    """A session over a fake journal, at round `number`'s table, its clock moved by hand."""

    session: Session
    journal: FakeJournal
    now: float = 0.0

    @property
    def snapshot(self) -> Snapshot:
        return self.session.snapshot

    def written(self) -> list[WriteRound]:
        return [e for e in self.journal.effects if isinstance(e, WriteRound)]

    def see(self, observation: TableObservation) -> None:
        self.now += 0.1
        self.session.see(observation, True, self.now)

    def later(self, seconds: float) -> None:
        self.now += seconds
        self.session.tick(self.now)


def playing() -> Table:
    """A game of four started, its table cleared, round 1 to lay."""
    journal = FakeJournal()
    session = Session(journal, SETTINGS, setup_state(RULES, LINEUP, Language.ENGLISH))
    table = Table(session, journal)
    session.press(Press(Action.CONFIRM), 0.0)
    table.later(2.0)
    table.see(EMPTY)
    assert session.state.phase is Phase.WAITING
    return table


def clearing() -> Table:
    """Round 1 confirmed at the table, its tokens still down."""
    table = playing()
    table.see(table_of(laid(1), LINEUP))
    table.session.press(Press(Action.CONFIRM), table.now)
    assert table.session.state.phase is Phase.CLEARING
    return table


# The page


def test_a_page_confirm_while_the_table_is_cleared_is_refused_and_changes_nothing() -> None:
    table = clearing()
    before, written = table.snapshot, table.written()
    verdict = table.session.command(Press(Action.CONFIRM, seen=before.version), table.now)
    assert isinstance(verdict.moved, NotNow)
    assert str(verdict.refused) == "nothing to confirm now: the table is being cleared"
    assert table.snapshot == before and table.written() == written


def test_a_page_confirm_with_nothing_proposed_is_refused_and_changes_nothing() -> None:
    table = playing()
    before = table.snapshot
    verdict = table.session.command(Press(Action.CONFIRM, seen=before.version), table.now)
    assert isinstance(verdict.moved, NotNow)
    assert str(verdict.refused) == "nothing to confirm now: no score is proposed"
    assert table.snapshot == before and table.written() == []


def test_a_page_confirm_of_a_proposal_since_replaced_is_stale() -> None:
    table = playing()
    table.see(table_of(laid(1), LINEUP))
    shown = table.snapshot.version
    table.see(table_of(laid(1, (1, 0, 0)), LINEUP))  # a vote moved: another proposal
    assert table.session.state.proposal is not None
    before = table.snapshot
    verdict = table.session.command(Press(Action.CONFIRM, seen=shown), table.now)
    assert isinstance(verdict.moved, Stale)
    assert str(verdict.refused) == "the table has changed since this page was drawn: look again"
    assert table.snapshot == before and table.written() == []


def test_a_page_confirm_goes_through_whatever_else_changed_since() -> None:
    table = playing()
    table.see(table_of(laid(1), LINEUP))
    shown = table.snapshot
    table.session.say("hello", table.now)  # a new snapshot, the same proposal
    assert table.snapshot.version > shown.version
    verdict = table.session.command(Press(Action.CONFIRM, seen=shown.version), table.now)
    assert verdict.refused is None
    (write,) = table.written()
    assert shown.state.proposal is not None
    assert write.reveal == shown.state.proposal.round.reveal


def test_a_page_command_from_a_version_the_table_never_published_is_stale() -> None:
    table = playing()
    table.see(table_of(laid(1), LINEUP))
    before = table.snapshot
    verdict = table.session.command(Press(Action.CONFIRM, seen=before.version + 5), table.now)
    assert isinstance(verdict.moved, Stale)
    assert table.snapshot == before and table.written() == []


def test_a_page_undo_after_a_round_was_scored_since_is_stale() -> None:
    table = clearing()
    table.later(2.0)  # past the rabbits' hop
    table.see(EMPTY)
    shown = table.snapshot.version
    table.see(table_of(laid(2), LINEUP))
    table.session.press(Press(Action.CONFIRM), table.now)
    assert len(table.session.state.game.played) == 2
    before = table.snapshot
    verdict = table.session.command(Press(Action.UNDO, seen=shown), table.now)
    assert isinstance(verdict.moved, Stale)
    assert str(verdict.refused) == "the game has changed since this page was drawn: look again"
    assert table.snapshot == before


def test_giving_up_and_correcting_from_an_older_game_are_stale() -> None:
    table = playing()
    shown = table.snapshot.version
    table.see(table_of(laid(1), LINEUP))
    table.session.press(Press(Action.CONFIRM), table.now)
    before = table.snapshot
    assert isinstance(table.session.command(GiveUp(seen=shown), table.now).moved, Stale)
    game_id = table.session.state.game_id
    assert game_id is not None
    correct = Correct(game_id, 1, laid(1, (1, 0, 0)), seen=shown)
    assert isinstance(table.session.command(correct, table.now).moved, Stale)
    assert table.snapshot == before
    assert table.session.command(GiveUp(seen=before.version), table.now).refused is None


# The table's own buttons and touch


def test_a_confirm_pressed_before_the_proposal_was_on_the_screen_is_ignored() -> None:
    table = playing()
    shown = table.snapshot.version
    table.see(table_of(laid(1), LINEUP))
    table.session.press(Press(Action.CONFIRM, seen=shown), table.now)
    state = table.session.state
    assert state.phase is Phase.PROPOSAL and table.written() == []
    assert state.says(table.now) == SCREEN_MOVED


def test_a_confirm_pressed_on_a_proposal_the_countdown_kept_does_not_skip_the_clearing() -> None:
    table = playing()
    table.see(table_of(laid(1), LINEUP))
    shown = table.snapshot.version
    table.later(6.0)  # the countdown keeps the round
    assert table.session.state.phase is Phase.CLEARING
    table.session.press(Press(Action.CONFIRM, seen=shown), table.now)
    assert table.session.state.phase is Phase.CLEARING
    assert len(table.written()) == 1


def test_an_undo_pressed_before_a_round_was_kept_is_ignored() -> None:
    table = clearing()
    table.later(2.0)  # past the rabbits' hop
    table.see(EMPTY)
    shown = table.snapshot.version
    table.see(table_of(laid(2), LINEUP))
    table.session.press(Press(Action.CONFIRM), table.now)
    table.session.press(Press(Action.UNDO, seen=shown), table.now)
    assert len(table.session.state.game.played) == 2


def test_a_press_on_the_snapshot_on_the_screen_acts() -> None:
    table = playing()
    table.see(table_of(laid(1), LINEUP))
    table.session.press(Press(Action.CONFIRM, seen=table.snapshot.version), table.now)
    assert table.session.state.phase is Phase.CLEARING and len(table.written()) == 1


def test_a_button_press_carries_the_snapshot_on_the_screen(
    recording_screen: RecordingScreen,
) -> None:
    table = playing()
    loop = Loop(table.session, recording_screen, lambda: table.now)
    loop.step()  # the screen shows the table waiting
    table.see(table_of(laid(1), LINEUP))  # proposed, not yet drawn
    loop.post(Press(Action.CONFIRM))
    loop.step()
    assert table.session.state.phase is Phase.PROPOSAL and table.written() == []
    assert table.session.state.says(table.now) == SCREEN_MOVED
    loop.post(Press(Action.CONFIRM))  # the proposal has been drawn since
    loop.step()
    assert table.session.state.phase is Phase.CLEARING and len(table.written()) == 1


# Clearing


def test_while_the_table_is_cleared_it_says_only_to_clear_it() -> None:
    table = clearing()
    report = table.session.state.table
    assert report is not None
    assert [str(w) for w in report.report.waiting] == ["clear the table: 7 tokens are still on it"]
    assert report.report.problems == () and report.report.alerts == ()
    table.see(table_of(Reveal({1: "Ann"}, {}), LINEUP))  # one token left
    report = table.session.state.table
    assert report is not None
    assert [str(w) for w in report.report.waiting] == ["clear the table: 1 token is still on it"]
    table.later(2.0)  # past the rabbits' hop
    table.see(EMPTY)
    assert table.session.state.phase is Phase.WAITING
    report = table.session.state.table
    assert report is not None and not report.report.ready  # round 2, as it lies: empty


# Random sequences


@st.composite
def moves(draw: st.DrawFn) -> list[tuple[str, int]]:
    kinds = st.sampled_from(["lay", "lay", "other", "clear", "tick", "page", "press", "undo"])
    return draw(st.lists(st.tuples(kinds, st.integers(0, 40)), max_size=40))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves())
def test_no_confirm_keeps_a_round_that_was_not_proposed_in_the_version_it_names(
    steps: list[tuple[str, int]],
) -> None:
    table = playing()
    seen: dict[int, Snapshot] = {table.snapshot.version: table.snapshot}
    for kind, pick in steps:
        versions = sorted(seen)
        version = versions[pick % len(versions)]
        before, written = table.snapshot, len(table.written())
        number = table.session.state.game.round_number
        match kind:
            case "lay":
                table.see(table_of(laid(number), LINEUP))
            case "other":
                table.see(table_of(laid(number, (1, 0, 0)), LINEUP))
            case "clear":
                table.see(EMPTY)
            case "tick":
                table.later(1.0 + pick / 10)
            case "page":
                verdict = table.session.command(Press(Action.CONFIRM, seen=version), table.now)
                if verdict.refused is not None:
                    assert table.snapshot == before, "a refused command changed the table"
            case "press":
                table.session.press(Press(Action.CONFIRM, seen=version), table.now)
            case "undo":
                verdict = table.session.command(Press(Action.UNDO, seen=version), table.now)
                if verdict.refused is not None:
                    assert table.snapshot == before, "a refused command changed the table"
        if kind in ("page", "press") and len(table.written()) > written:
            write = table.written()[-1]
            proposal = seen[version].state.proposal
            assert proposal is not None, "a round kept from a version that proposed none"
            assert write.reveal == proposal.round.reveal
            assert before.state.proposal == proposal
        seen[table.snapshot.version] = table.snapshot
