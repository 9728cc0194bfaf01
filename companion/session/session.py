"""One table's games: setting one up, playing it round by round, the winner, and
setting up the next.

The session is the game loop's brain without its body: it takes events (a settled
table, a press, the time) and moves from one frozen `SessionState` to the next. It
is a thin shell around the pure transitions (`transitions`): it holds the state,
hands each event to them, and has the runtime's executor carry out the effects they
return (start a game, write a round, keep the setup), handing what came of each
back to them, before it publishes the state once. It never scores by itself (the
rules engine does) and never keeps a round the journal has not stored. Frames,
screens, buttons and clocks belong to the loop; a test can drive it with nothing
but an executor. After every change it publishes a numbered `Snapshot` of the
state, which the screen, the LED strip and other threads read.
"""

from collections.abc import Mapping
from typing import Protocol

from companion.actions import Press
from companion.errors import CompanionError
from companion.language import Language
from companion.phrases import Phrase, phrase, verbatim
from companion.rules import Game, Ruleset
from companion.session.commands import Command, Verdict
from companion.session.draft import Draft
from companion.session.effects import Executor, RecallSetup, SetupRecalled, Step
from companion.session.events import Event, Named, Pressed, Said, Seen, TableLost, Ticked
from companion.session.lineup import Lineup
from companion.session.play import MESSAGE_SECONDS
from companion.session.settings import Settings
from companion.session.setup import placeholder
from companion.session.setup_steps import resumed_step
from companion.session.states import Choosing, Guards, SessionState, Snapshot, Waiting, Winner
from companion.session.transitions import Transitions
from companion.session.versions import marked
from companion.vision.records import TableObservation

__all__ = ["KeptGame", "Session", "Settings", "resumed_state", "setup_state"]


class KeptGame(Protocol):
    """A game the journal kept (its `StoredGame`), as a session goes on with it."""

    @property
    def id(self) -> int:
        """The game's number in the journal."""
        ...

    @property
    def game(self) -> Game:
        """The game replayed from its stored rounds."""
        ...

    @property
    def colours(self) -> Mapping[str, str]:
        """Every player's kit colour, by name."""
        ...


def setup_state(ruleset: Ruleset, lineup: Lineup, language: Language) -> SessionState:
    """A new game of `ruleset` for `lineup` (set up on the command line), its first
    storyteller still to choose."""
    game = Game.start(ruleset, lineup.names, lineup.names[0])
    return SessionState(Choosing(), lineup, game, Draft.of_lineup(ruleset, lineup, language))


def resumed_state(stored: KeptGame, language: Language) -> SessionState:
    """The state of a game the journal kept: after a restart it goes on from the last
    committed round, reading the table afresh."""
    game = stored.game
    players = game.seating.players
    lineup = Lineup(players, tuple(stored.colours[p] for p in players))
    scored = game.played[-1].score.round.reveal if game.played else None
    state = SessionState(
        at=Winner(0.0) if game.outcome is not None else Waiting(),
        lineup=lineup,
        game=game,
        draft=Draft.of_lineup(game.ruleset, lineup, language),
        game_id=stored.id,
        guards=Guards(scored_table=scored),
    )
    words = phrase("game resumed after round {number}", number=len(game.played))
    return state.saying(words, 0.0, MESSAGE_SECONDS)


class Session:
    """One table's game: the current state, the pure transitions, the executor that
    carries out their effects, and the published snapshot."""

    def __init__(self, executor: Executor, settings: Settings, start: SessionState) -> None:
        self.executor = executor
        """Carries out the transitions' effects (the runtime's journal, in play)."""
        self.settings = settings
        self.transitions = Transitions(settings)
        """The table's transitions, all pure."""
        self._snapshot = Snapshot(0, start)

    @classmethod
    def new(
        cls, ruleset: Ruleset, lineup: Lineup, executor: Executor, settings: Settings
    ) -> "Session":
        """A session that starts with choosing the first storyteller of a new game."""
        return cls(executor, settings, setup_state(ruleset, lineup, settings.language))

    @classmethod
    def setting_up(cls, executor: Executor, settings: Settings) -> "Session":
        """A session that sets up a new game at the table, going on from the step the
        journal kept (a restart during setup loses nothing)."""
        draft = Draft(language=settings.language)
        step = "language"
        saved = _saved_setup(executor)
        if saved is not None:
            step, draft = saved
        lineup, game = placeholder(draft)
        session = cls(executor, settings, SessionState(Choosing(), lineup, game, draft))
        resumed = resumed_step(step, session.state, session.transitions.setup)
        session._snapshot = Snapshot(0, session._carry_out(resumed, 0.0).state)
        return session

    @classmethod
    def resumed(cls, stored: KeptGame, executor: Executor, settings: Settings) -> "Session":
        """A session going on with a game the journal kept."""
        saved = _saved_setup(executor)
        language = saved[1].language if saved is not None else settings.language
        return cls(executor, settings, resumed_state(stored, language))

    @property
    def state(self) -> SessionState:
        """The state now."""
        return self._snapshot.state

    @property
    def snapshot(self) -> Snapshot:
        """The state now with its version: replaced whole after every change, so any
        thread may read it at any time."""
        return self._snapshot

    def handle(self, event: Event) -> SessionState:
        """Move to the state that follows `event`, publish it, and return it."""
        step = self.transitions.step(self._snapshot.state, event)
        return self._publish(self._carry_out(step, event.now).state)

    def command(self, command: Command, now: float) -> Verdict:
        """Act on a command from the phone page; the verdict says why nothing was done
        when the table refused it (one that does not apply now, or whose meaning has
        changed since the snapshot it was made from, changes nothing)."""
        step = self.transitions.command(self._snapshot.state, command, now)
        done = self._carry_out(step, now)
        self._publish(done.state)
        return Verdict.of(self._snapshot.version, done.refused)

    def _carry_out(self, step: Step, now: float) -> Step:
        """Have the executor carry out the step's effects, in order, each result taken
        by the transitions (whose own effects come next): the step once none is left."""
        state, refused, waiting = step.state, step.refused, list(step.effects)
        while waiting:
            result = self.executor.run(waiting.pop(0))
            after = self.transitions.settle(state, result, now)
            state, waiting = after.state, [*after.effects, *waiting]
            refused = after.refused if after.refused is not None else refused
        return Step(state, (), refused)

    def _publish(self, after: SessionState) -> SessionState:
        """Publish the state a change left, with the next version, if it is new."""
        before = self._snapshot
        if after != before.state:
            version = before.version + 1
            self._snapshot = Snapshot(version, marked(before.state, after, version))
        return self._snapshot.state

    def see(
        self, observation: TableObservation, steady: bool, now: float, blind: bool = False
    ) -> SessionState:
        """Take the stabiliser's latest view of the table."""
        return self.handle(Seen(observation, steady, now, blind))

    def press(self, press: Press, now: float) -> SessionState:
        """Act on a player's request."""
        return self.handle(Pressed(press, now))

    def tick(self, now: float) -> SessionState:
        """Let time pass: the auto-confirm countdown."""
        return self.handle(Ticked(now))

    def lose_table(self, now: float) -> SessionState:
        """The camera failed: forget what it showed, so nothing stale is shown or
        confirmed; the game goes on by hand until it is back."""
        return self.handle(TableLost(now))

    def say(self, text: Phrase | str, now: float) -> SessionState:
        """Show a one-off message for a few seconds (a str is shown as it is)."""
        return self.handle(Said(text if isinstance(text, Phrase) else verbatim(text), now))

    def name(self, colour: str, name: str, now: float) -> SessionState:
        """A name typed elsewhere for the seat of `colour`, during setup."""
        return self.handle(Named(colour, name, now))


def _saved_setup(executor: Executor) -> tuple[str, Draft] | None:
    """The setup step and draft the journal kept, if it kept one this companion can use."""
    recalled = executor.run(RecallSetup())
    if not isinstance(recalled, SetupRecalled) or recalled.saved is None:
        return None
    step, document = recalled.saved
    try:
        return step, Draft.from_document(document)
    except CompanionError:
        return None
