"""Random events through the pure transitions, against a fake journal that records
every effect: whatever players lay, press and ask from the page, and whenever the card
fills up, the table and the journal agree, a confirmed round is written once, undo
gives back the totals from before the round, and no phase asks for an effect it
forbids."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.actions import Action, Press
from companion.language import Language
from companion.rules import Reveal, find_ruleset
from companion.session.commands import Command, Correct, GiveUp, SetUp
from companion.session.effects import (
    CorrectRound,
    Effect,
    Failed,
    GameAbandoned,
    GameStarted,
    KeepSetup,
    MarkAbandoned,
    RecallNames,
    RecallSetup,
    Result,
    RoundCorrected,
    RoundUndone,
    RoundWritten,
    StartGame,
    UndoRound,
    WriteRound,
)
from companion.session.events import Event, Pressed, Said, Seen, TableLost, Ticked
from companion.session.lineup import Lineup
from companion.session.session import Settings, setup_state
from companion.session.states import Phase, SessionState
from companion.session.transitions import Transitions
from companion.vision.records import TableObservation
from tests.session.fake_journal import FakeJournal
from tests.session.observations import table_of

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
RULES = find_ruleset("odyssey").with_options({"target": 10})
"""A short game: the winner screen, and what follows it, come up too."""
SLOTS = tuple(range(1, 9))
SETTINGS = Settings(SLOTS, auto_confirm=1.0)
EMPTY = TableObservation()

PLAYING = {Phase.WAITING, Phase.PROPOSAL, Phase.CLEARING}
SETTING_UP = {Phase.LANGUAGE, Phase.EDITION, Phase.SEATS, Phase.NAMES, Phase.OPTIONS, Phase.SETUP}
ALLOWED: Mapping[type, set[Phase]] = {
    StartGame: {Phase.SETUP},
    WriteRound: {Phase.PROPOSAL, Phase.EDITING},
    UndoRound: PLAYING | {Phase.WINNER},
    CorrectRound: {Phase.EDITING},
    MarkAbandoned: {Phase.ABANDONING},
    KeepSetup: SETTING_UP | {Phase.WINNER, Phase.ABANDONING},
    RecallNames: {Phase.SEATS, Phase.OPTIONS},
    RecallSetup: set(),
}
"""The phases a press may ask for each effect in (with what follows from its result)."""
ALLOWED_FROM_THE_PAGE: Mapping[type, set[Phase]] = {
    WriteRound: PLAYING,  # the round being played, entered by hand on the page
    CorrectRound: PLAYING | {Phase.WINNER},
    MarkAbandoned: PLAYING | {Phase.EDITING, Phase.ABANDONING},
    KeepSetup: SETTING_UP | PLAYING | {Phase.EDITING, Phase.ABANDONING},
}
"""The phases a command from the page may ask for each effect in (a press from the
page goes by `ALLOWED`)."""
ALLOWED_BY_EVENT: Mapping[type, set[type]] = {
    Seen: {StartGame, KeepSetup},
    Ticked: {WriteRound},
    TableLost: set(),
    Said: set(),
}
"""The effects an event other than a press may lead to: a table seen only ever starts
a game (an owner token choosing who tells first); time only confirms a round."""


@dataclass(frozen=True)
class Lay:
    """A round laid out: each player's card on the slot of their seat, and each voter's
    vote on the card `votes` names (never their own)."""

    votes: tuple[int, int, int]
    steady: bool
    blind: bool = False


@dataclass(frozen=True)
class Clear:
    """The table cleared."""


@dataclass(frozen=True)
class Again:
    """The camera sees the table as it lies, once more (it reads every frame)."""


@dataclass(frozen=True)
class Tick:
    """Time passes."""


@dataclass(frozen=True)
class LoseTable:
    """The camera fails."""


@dataclass(frozen=True)
class Push:
    """A press of a button, a key or the screen (or from the page)."""

    action: Action
    from_page: bool = False


@dataclass(frozen=True)
class Fix:
    """A round corrected from the page (the one being played: entered by hand)."""

    number: int
    votes: tuple[int, int, int]


@dataclass(frozen=True)
class Quit:
    """The staff give the game up from the page."""


@dataclass(frozen=True)
class Edition:
    """A setup typed on a phone: another edition."""

    ruleset: str


@dataclass(frozen=True)
class Card:
    """The card fills up, or room is made."""

    full: bool


Move = Lay | Clear | Again | Tick | LoseTable | Push | Fix | Quit | Edition | Card

VOTES = st.tuples(*(st.integers(0, 3) for _ in range(3)))
EDITOR_KEYS = [Action.FIX, Action.UP, Action.DOWN, Action.LEFT, Action.RIGHT, Action.BACK]
OTHER_KEYS = [Action.NEXT, Action.FIX, Action.BACK, Action.UNDO]
WEIGHTED: list[tuple[int, st.SearchStrategy[Move]]] = [
    (12, st.builds(Lay, VOTES, st.just(True))),
    (10, st.builds(Push, st.just(Action.CONFIRM), st.booleans())),
    (6, st.just(Tick())),
    (6, st.just(Clear())),
    (6, st.just(Again())),
    (2, st.builds(Lay, VOTES, st.booleans(), st.booleans())),
    (4, st.builds(Push, st.just(Action.UNDO), st.booleans())),
    (4, st.builds(Push, st.sampled_from(EDITOR_KEYS))),
    (2, st.builds(Push, st.sampled_from(OTHER_KEYS), st.booleans())),
    (2, st.just(LoseTable())),
    (2, st.builds(Fix, st.integers(1, 4), VOTES)),
    (2, st.builds(Card, st.booleans())),
    (1, st.builds(Push, st.just(Action.ABANDON))),
    (1, st.sampled_from([Quit(), Edition("odyssey"), Edition("classic")])),
]
KINDS = st.sampled_from([kind for kind, (weight, _) in enumerate(WEIGHTED) for _ in range(weight)])
"""The kinds of move, by index into `WEIGHTED`: mostly a still table laid, Confirm, time
and a cleared table; now and then undo, the editor, a correction from the page, the card
filling up; seldom the game given up."""
PAUSES = st.sampled_from([0.0, 0.3, 1.2, 2.5])
"""Seconds between two moves: within a hop and the winner's grace, and past them."""


def laid(storyteller: str, votes: tuple[int, int, int]) -> Reveal:
    """Each player's card on the slot of their seat; the voters (all but the
    storyteller, in seating order) on the seats `votes` names, never their own."""
    names = LINEUP.names
    seat = {name: slot for slot, name in enumerate(names, start=1)}
    voters = [n for n in names if n != storyteller]
    chosen = {}
    for voter, pick in zip(voters, votes, strict=True):
        slot = pick % len(names) + 1
        chosen[voter] = (slot if slot != seat[voter] else slot % len(names) + 1,)
    return Reveal({slot: name for name, slot in seat.items()}, chosen)


@dataclass
class Table:
    """The transitions driven by hand, as the session drives them, with what the
    properties need to remember."""

    journal: FakeJournal = field(default_factory=FakeJournal)
    transitions: Transitions = field(default_factory=lambda: Transitions(SETTINGS))
    state: SessionState = field(
        default_factory=lambda: setup_state(RULES, LINEUP, Language.ENGLISH)
    )
    now: float = 0.0
    totals_before: list[Mapping[str, int]] = field(default_factory=list)
    """The totals before each round written since the game started (or was last
    corrected): an undo gives back the last."""
    armed: bool = False
    """Whether a round was written since the table was last cleared or pressed: the
    countdown must not write another."""
    held: Reveal | None = None
    """A table undone, or not saved, still lying there: only a press writes it."""
    lying: TableObservation = EMPTY
    """The table as it was last laid."""

    def event_of(self, move: Move) -> Event | Command | None:
        game, now = self.state.game, self.now
        match move:
            case Lay():
                self.lying = table_of(laid(game.storyteller, move.votes), LINEUP)
                return Seen(self.lying, move.steady, now, move.blind)
            case Clear():
                self.lying = EMPTY
                return Seen(EMPTY, True, now)
            case Again():
                return Seen(self.lying, True, now)
            case Tick():
                return Ticked(now)
            case LoseTable():
                return TableLost(now)
            case Push(from_page=True):
                return Press(move.action)
            case Push():
                return Pressed(Press(move.action), now)
            case Fix():
                if not 1 <= move.number <= len(game.played):
                    return Correct(self.state.game_id or 0, move.number, Reveal({}))
                teller = game.before_round(move.number).storyteller
                return Correct(self.state.game_id or 0, move.number, laid(teller, move.votes))
            case Quit():
                return GiveUp()
            case Edition():
                return SetUp(ruleset=move.ruleset)
            case Card():
                self.journal.full = move.full
                return None

    def play(self, move: Move, pause: float) -> None:
        self.now += pause
        event = self.event_of(move)
        if event is None:
            return
        before = self.state
        if isinstance(event, Seen | Pressed | Ticked | TableLost | Said):
            step = self.transitions.step(before, event)
            assert step == self.transitions.step(before, event), "a transition that is not pure"
        else:
            step = self.transitions.command(before, event, self.now)
        state, waiting = step.state, list(step.effects)
        asked: list[Effect] = []
        results: list[Result] = []
        while waiting:
            effect = waiting.pop(0)
            asked.append(effect)
            results.append(self.journal.run(effect))
            after = self.transitions.settle(state, results[-1], self.now)
            state, waiting = after.state, [*after.effects, *waiting]
        self.state = state
        self.check_effects(before, event, asked)
        self.check_rounds(before, event, results)
        self.check_agreement()

    def check_effects(
        self, before: SessionState, event: Event | Command, asked: list[Effect]
    ) -> None:
        """No phase asks for an effect it forbids."""
        phase = before.phase
        for effect in asked:
            kind = type(effect)
            if isinstance(event, Pressed | Press):
                assert phase in ALLOWED[kind], f"{kind.__name__} asked for in {phase}"
            elif isinstance(event, Seen | Ticked | TableLost | Said):
                assert kind in ALLOWED_BY_EVENT[type(event)], f"{kind.__name__} on {event}"
                assert phase in ALLOWED[kind], f"{kind.__name__} asked for in {phase}"
            else:
                assert phase in ALLOWED_FROM_THE_PAGE[kind], (
                    f"{kind.__name__} from the page in {phase}"
                )
        writes = [e for e in asked if isinstance(e, WriteRound)]
        assert len(writes) <= 1, "two rounds written by one event"
        confirming = isinstance(event, Pressed | Press) and _action(event) is Action.CONFIRM
        if confirming and phase is Phase.PROPOSAL:
            assert len(writes) == 1, "a confirmed proposal not written"

    def check_rounds(
        self, before: SessionState, event: Event | Command, results: list[Result]
    ) -> None:
        """A round is written once: never again by the countdown before the table is
        cleared or a player acts, and a table undone or not saved never confirms
        itself; an undo gives back the totals from before the round."""
        acted = not isinstance(event, Seen | Ticked | TableLost | Said)
        if acted or (isinstance(event, Seen) and event.observation == EMPTY):
            self.armed = False
        if acted or (
            isinstance(event, Seen)
            and (self.held is None or event.observation != table_of(self.held, LINEUP))
        ):
            self.held = None
        by_time = isinstance(event, Ticked)
        for result in results:
            match result:
                case RoundWritten():
                    assert not (by_time and self.armed), "a round written twice"
                    assert not (by_time and result.write.reveal == self.held), "confirmed itself"
                    self.totals_before.append(dict(before.game.totals))
                    self.armed = True
                case RoundUndone():
                    self.held = before.game.played[-1].score.round.reveal
                    if self.totals_before:
                        assert dict(self.state.game.totals) == self.totals_before.pop()
                case Failed(effect=WriteRound() as write):
                    self.held = write.reveal
                case RoundCorrected() | GameStarted() | GameAbandoned():
                    self.totals_before.clear()

    def check_agreement(self) -> None:
        """The table counts exactly the rounds the journal stored."""
        state = self.state
        if state.game_id is not None:
            stored = self.journal.games[state.game_id]
            assert stored.played == state.game.played, "the table and the journal disagree"


def _action(event: Pressed | Press) -> Action:
    return event.press.action if isinstance(event, Pressed) else event.action


def started() -> Table:
    """A game of four, started and its table cleared."""
    table = Table()
    table.play(Push(Action.CONFIRM), 0.0)
    table.play(Clear(), 0.0)
    assert table.state.phase is Phase.WAITING and table.state.game_id == 1
    return table


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_play_keeps_the_table_and_the_journal_in_step(data: st.DataObject) -> None:
    table = started()
    for _ in range(data.draw(st.integers(30, 80), label="moves")):
        move = data.draw(WEIGHTED[data.draw(KINDS)][1])
        table.play(move, data.draw(PAUSES))


@settings(max_examples=40, deadline=None)
@given(VOTES, st.lists(st.sampled_from([Tick(), Clear(), Again()]), max_size=6), PAUSES)
def test_undo_after_confirm_gives_back_the_totals_and_the_table_waits_for_a_press(
    votes: tuple[int, int, int], between: list[Move], pause: float
) -> None:
    table = started()
    before = dict(table.state.game.totals)
    table.play(Lay(votes, True), 1.0)
    assert table.state.phase is Phase.PROPOSAL
    table.play(Push(Action.CONFIRM), 0.1)
    assert len(table.state.game.played) == 1
    for move in between:
        table.play(move, pause)
    assert len(table.state.game.played) == 1, "the round written again"
    table.play(Push(Action.UNDO), pause)
    assert dict(table.state.game.totals) == before
    assert table.journal.games[1].played == ()
    table.play(Lay(votes, True), 0.1)
    for _ in range(3):
        table.play(Tick(), 2.0)
        table.play(Again(), 0.0)
    assert table.state.game.played == (), "a round undone confirmed itself"
    table.play(Push(Action.CONFIRM), 0.1)
    assert len(table.journal.games[1].played) == 1


@settings(max_examples=40, deadline=None)
@given(VOTES, st.integers(1, 5))
def test_a_full_card_writes_nothing_and_the_round_waits_for_a_press(
    votes: tuple[int, int, int], ticks: int
) -> None:
    table = started()
    table.play(Card(True), 0.0)
    table.play(Lay(votes, True), 1.0)
    table.play(Push(Action.CONFIRM), 0.1)
    assert table.state.game.played == () and table.state.phase is Phase.PROPOSAL
    says = table.state.says(table.now)
    assert says is not None and "make room and confirm again" in str(says)
    table.play(Card(False), 0.0)
    for _ in range(ticks):
        table.play(Tick(), 2.0)
    assert table.state.game.played == (), "a round not saved confirmed itself"
    table.play(Push(Action.CONFIRM), 0.1)
    assert len(table.journal.games[1].played) == 1
    assert [type(e) for e in table.journal.effects].count(WriteRound) == 2
