"""The table's transitions in one place: `(state, event) -> Step(next state, effects)`.

`Transitions` routes each event, command from the page, and result of an effect to
the phase's own transitions (`play`, `setup_steps`, `correcting`, `give_up`). All of
it is pure: nothing here reads a clock, a camera or the journal, and the same state
and event always give the same step. The `Session` holds the state and has the
runtime carry out the effects.
"""

from dataclasses import replace

from companion.actions import Action, Press
from companion.session.commands import Command, Correct, GiveUp, SetUp
from companion.session.correcting import Correcting
from companion.session.effects import (
    CorrectRound,
    Failed,
    GameAbandoned,
    GameStarted,
    KeepSetup,
    MarkAbandoned,
    NamesRecalled,
    RecallNames,
    RecallSetup,
    Result,
    RoundCorrected,
    RoundUndone,
    RoundWritten,
    SetupKept,
    SetupRecalled,
    StartGame,
    Step,
    UndoRound,
    WriteRound,
)
from companion.session.events import Event, Named, Pressed, Said, Seen, TableLost, Ticked
from companion.session.give_up import GivingUp
from companion.session.play import MESSAGE_SECONDS, WINNER_GRACE_SECONDS, Play, read, reread
from companion.session.settings import Settings
from companion.session.setup_steps import SetupSteps
from companion.session.states import (
    Abandoning,
    Choosing,
    Clearing,
    Editing,
    Proposal,
    SessionState,
    SetupStep,
    TakingSeats,
    Waiting,
    Winner,
)
from companion.session.versions import SCREEN_MOVED, refusal, stale


class Transitions:
    """Every transition of one table, for the café's settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.play = Play(settings)
        """Choosing who tells first, proposing, confirming, undoing."""
        self.setup = SetupSteps(self.play.start)
        """The setup steps."""
        self.giving_up = GivingUp(self.play, self.setup, settings.language)
        """The question whether to give up, and the page's command."""
        self.correcting = Correcting(settings, self.play)
        """The round editor and the page's corrections."""

    def step(self, state: SessionState, event: Event) -> Step:
        """What follows `event` in `state`."""
        match event:
            case Seen():
                return self._seen(state, event)
            case Pressed():
                return self._pressed(state, event.press, event.now)
            case Ticked():
                return self.play.ticked(state, event.now)
            case TableLost():
                at = Waiting() if isinstance(state.at, Proposal) else state.at
                return Step(replace(state, table=None, at=at))
            case Said():
                return Step(state.saying(event.text, event.now, MESSAGE_SECONDS))
            case Named() if state.setting_up:
                return Step(self.setup.named(state, event.colour, event.name, event.now))
            case Named():
                return Step(state)

    def command(self, state: SessionState, command: Command, now: float) -> Step:
        """What follows a command from the phone page (its `refused` says why nothing
        was done: one that does not apply now, or was made from a snapshot whose
        meaning has changed, leaves the state as it was)."""
        refused = refusal(state, command)
        if refused is not None:
            return Step(state, refused=refused)
        match command:
            case Press():
                return self._pressed(state, command, now)
            case SetUp():
                return self.setup.set_up(state, command)
            case Correct():
                return self.correcting.correct(state, command, now)
            case GiveUp():
                return self.giving_up.give_up(state)

    def settle(self, state: SessionState, result: Result, now: float) -> Step:
        """What follows what came of an effect, at `now` (the moment of the event that
        asked for it)."""
        match result:
            case GameStarted():
                return self.play.started(state, result, now)
            case RoundWritten():
                return self.play.written(state, result, now)
            case RoundUndone():
                return self.play.undone(state, result, now)
            case RoundCorrected():
                return self.correcting.corrected(state, result, now)
            case GameAbandoned():
                return self.giving_up.abandoned(state, result, now)
            case SetupKept():
                return self.setup.kept(state, result.keep)
            case NamesRecalled():
                return Step(self.setup.names_recalled(state, result.names))
            case SetupRecalled():
                return Step(state)
            case Failed():
                return self._failed(state, result, now)

    def _failed(self, state: SessionState, failed: Failed, now: float) -> Step:
        """An effect that could not be carried out: nothing of it was done."""
        match failed.effect:
            case StartGame():
                return self.play.not_started(state, failed, now)
            case WriteRound() as write:
                return self.play.not_written(state, write, failed, now)
            case UndoRound() as undo:
                return self.play.not_undone(state, undo, failed, now)
            case CorrectRound() as correction:
                return self.correcting.not_corrected(state, correction, failed)
            case MarkAbandoned() as abandon:
                return self.giving_up.not_abandoned(state, abandon, failed, now)
            case KeepSetup() as keep:
                return self.setup.not_kept(state, keep, failed, now)
            case RecallNames() | RecallSetup():  # nothing to offer, or a setup from the start
                return Step(state)

    def _seen(self, state: SessionState, event: Seen) -> Step:
        table = read(state, event.observation, event.steady, event.blind)
        at, guards = state.at, state.guards
        if table.report.cleared:
            if isinstance(at, Choosing):
                at = replace(at, cleared=True)
            if not state.hopping(event.now):
                guards = replace(guards, to_clear=False)
        state = replace(state, table=table, at=at, guards=guards)
        match at:
            case TakingSeats():
                return Step(self.setup.seen(state, at, event.observation, event.steady))
            case Choosing():
                return self.play.choose_by_token(state, at, event.now)
            case Waiting() | Proposal():
                return Step(self.play.propose(state, event.now))
            case Clearing() if not guards.to_clear:
                return Step(replace(state, at=Waiting()))
            case _:
                return Step(state)

    def _pressed(self, state: SessionState, press: Press, now: float) -> Step:
        action, at = press.action, state.at
        if isinstance(at, SetupStep):
            return self.setup.pressed(state, at, press, now)
        if not isinstance(at, Editing) and stale(state, action, press.seen):
            return Step(state.saying(SCREEN_MOVED, now, MESSAGE_SECONDS))
        if isinstance(at, Abandoning):
            return self.giving_up.pressed(state, at, press, now)
        if action is Action.ABANDON:
            return Step(self.giving_up.ask(state))
        if action is Action.UNDO and not isinstance(at, Editing):
            return self.play.undo(state, now)
        match at:
            case Editing():
                return self.correcting.pressed(state, at, press, now)
            case _ if action is Action.FIX:
                return Step(self.correcting.open(state))
            case Proposal() if action is Action.CONFIRM:
                return self.play.commit(state, at.score.round.reveal, now, at.score)
            case Clearing() if action in (Action.CONFIRM, Action.NEXT):
                return Step(self.play.go_on(state, now))
            case Winner() if action in (Action.CONFIRM, Action.NEXT):
                return self._after_winner(state, at, action, now)
            case _:
                return Step(state)

    def _after_winner(self, state: SessionState, at: Winner, action: Action, now: float) -> Step:
        """Confirm plays again with the same players; Next sets up for a new group (not
        for a moment after the game ended, nor while the rabbits move)."""
        if now - at.since < WINNER_GRACE_SECONDS or state.hopping(now):
            return Step(state)
        if action is Action.CONFIRM:  # the same players again
            again = self.setup.enter_first(state, _first_index(state))
            return self.setup.keep(reread(again))
        return self.setup.new_group(state, self.settings.language)


def _first_index(state: SessionState) -> int:
    """Who told first in the last game: the next game offers the same."""
    names = state.lineup.names
    first = state.game.first_storyteller
    return names.index(first) if first in names else 0
