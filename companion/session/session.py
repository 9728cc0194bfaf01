"""One table's games: setting one up, playing it round by round, the winner, and
setting up the next.

The session is the game loop's brain without its body: it takes events (a settled
table, a press, the time) and moves from one frozen `SessionState` to the next. It
never scores by itself (the rules engine does) and never keeps a round the journal
has not stored: a round counts once `Journal.commit_round` returned. Frames,
screens, buttons and clocks belong to `loop`; this module can be driven by a test
with nothing but a journal file. After every change it publishes a numbered
`Snapshot` of the state, which the screen, the LED strip and other threads read.

Three guards keep a table from being scored twice: after a commit nothing is
proposed until the table has been cleared (or a player says to go on); a table that
still shows the round as it was read when committed is never proposed again; and
after an undo, or a round the journal could not save, the same table waits for a
press instead of confirming itself.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.actions import Action, Press
from companion.errors import CompanionError, DiskFullError, SettingError, error_words
from companion.journal import Journal, RoundImages, StoredGame
from companion.language import Language
from companion.phrases import Phrase, phrase, plural, verbatim
from companion.rules import Game, Reveal, RoundScore, Ruleset
from companion.session.commands import Command, Correct, GiveUp, SetUp, Unkept, Verdict
from companion.session.draft import Draft
from companion.session.editor import RoundEditor
from companion.session.events import Event, Named, Pressed, Said, Seen, TableLost, Ticked
from companion.session.lineup import Lineup
from companion.session.setup import SetupSteps, placeholder, resumed_step
from companion.session.states import (
    Abandoning,
    Choosing,
    Clearing,
    Editing,
    Guards,
    Hop,
    PhaseState,
    Proposal,
    SessionState,
    SetupStep,
    Snapshot,
    TableRead,
    TakingSeats,
    Waiting,
    Winner,
)
from companion.session.table import read_table
from companion.vision.records import TableObservation

Pictures = Callable[[RoundScore | None], RoundImages]
"""Gives the frame and the annotated overlay (encoded images) a round is scored from:
those its proposal (when given) settled on, else the latest."""

MESSAGE_SECONDS = 6.0
"""How long a one-off message ("round 4 undone") stays on the screen."""
WINNER_GRACE_SECONDS = 2.0
"""How long the winner screen ignores Confirm: a bounced press on the last round's
Confirm must not throw the final standings away."""


def no_pictures(proposal: RoundScore | None) -> RoundImages:
    """No camera: rounds are kept without pictures."""
    return RoundImages(None, None)


def check_auto_confirm(seconds: float | None) -> float | None:
    """The auto-confirm delay, or `SettingError` for one that is not 0 or more seconds."""
    if seconds is not None and not (math.isfinite(seconds) and seconds >= 0):
        raise SettingError(f"auto-confirm must be 0 seconds or more, not {seconds}")
    return seconds


@dataclass(frozen=True)
class Settings:
    """How a café wants its table to behave."""

    slots: tuple[int, ...]
    """The board's slot numbers."""
    auto_confirm: float | None = None
    """Seconds after which a proposal confirms itself; None waits for a press."""
    language: Language = Language.ENGLISH
    """The language a new group is greeted in (the table's default)."""


def setup_state(ruleset: Ruleset, lineup: Lineup, language: Language) -> SessionState:
    """A new game of `ruleset` for `lineup` (set up on the command line), its first
    storyteller still to choose."""
    game = Game.start(ruleset, lineup.names, lineup.names[0])
    return SessionState(Choosing(), lineup, game, Draft.of_lineup(ruleset, lineup, language))


def resumed_state(stored: StoredGame, language: Language) -> SessionState:
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
    """One table's game: the current state, the transitions, and the published snapshot."""

    def __init__(
        self,
        journal: Journal,
        settings: Settings,
        start: SessionState,
        pictures: Pictures = no_pictures,
    ) -> None:
        self.journal = journal
        """Where every round is kept before it counts."""
        self.settings = settings
        self.pictures = pictures
        """Where a committed round's pictures come from (the loop's camera)."""
        self.steps = SetupSteps(journal, self._start)
        """The setup steps' transitions."""
        self._snapshot = Snapshot(0, start)

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        lineup: Lineup,
        journal: Journal,
        settings: Settings,
        pictures: Pictures = no_pictures,
    ) -> "Session":
        """A session that starts with choosing the first storyteller of a new game."""
        return cls(journal, settings, setup_state(ruleset, lineup, settings.language), pictures)

    @classmethod
    def setting_up(
        cls,
        journal: Journal,
        settings: Settings,
        pictures: Pictures = no_pictures,
    ) -> "Session":
        """A session that sets up a new game at the table, going on from the step the
        journal kept (a restart during setup loses nothing)."""
        draft = Draft(language=settings.language)
        step = "language"
        saved = _saved_setup(journal)
        if saved is not None:
            step, draft = saved
        lineup, game = placeholder(draft)
        state = SessionState(Choosing(), lineup, game, draft)
        session = cls(journal, settings, state, pictures)
        session._snapshot = Snapshot(0, resumed_step(step, state, session.steps))
        return session

    @classmethod
    def resumed(
        cls,
        stored: StoredGame,
        journal: Journal,
        settings: Settings,
        pictures: Pictures = no_pictures,
    ) -> "Session":
        """A session going on with a game the journal kept."""
        draft = _saved_draft(journal)
        language = draft.language if draft is not None else settings.language
        return cls(journal, settings, resumed_state(stored, language), pictures)

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
        return self._publish(self._next(self._snapshot.state, event))

    def _publish(self, after: SessionState) -> SessionState:
        """Publish the state a change left, with the next version, if it is new."""
        before = self._snapshot
        if after != before.state:
            self._snapshot = Snapshot(before.version + 1, after)
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

    def command(self, command: Command, now: float) -> Verdict:
        """Act on a command from the phone page; the verdict says why nothing was done
        when the table refused it (a press is never refused: it does what it does)."""
        state = self._snapshot.state
        refused: Phrase | Unkept | None = None
        match command:
            case Press():
                after = self._next(state, Pressed(command, now))
            case SetUp():
                after, refused = self.steps.set_up(state, command, now)
            case Correct():
                after, refused = self._correct(state, command, now)
            case GiveUp():
                after, refused = self._give_up(state, now)
        self._publish(after)
        return Verdict.of(self._snapshot.version, refused)

    def _next(self, state: SessionState, event: Event) -> SessionState:
        """The transition: the state that follows `event` in `state`."""
        match event:
            case Seen():
                return self._seen(state, event)
            case Pressed():
                return self._pressed(state, event.press, event.now)
            case Ticked():
                return self._ticked(state, event.now)
            case TableLost():
                at = Waiting() if isinstance(state.at, Proposal) else state.at
                return replace(state, table=None, at=at)
            case Said():
                return state.saying(event.text, event.now, MESSAGE_SECONDS)
            case Named() if state.setting_up:
                return self.steps.named(state, event.colour, event.name, event.now)
            case Named():
                return state

    def _seen(self, state: SessionState, event: Seen) -> SessionState:
        table = _read(state.game, state.lineup, event.observation, event.steady, event.blind)
        at, guards = state.at, state.guards
        if table.report.cleared:
            if isinstance(at, Choosing):
                at = replace(at, cleared=True)
            if not state.hopping(event.now):
                guards = replace(guards, to_clear=False)
        state = replace(state, table=table, at=at, guards=guards)
        match at:
            case TakingSeats():
                return self.steps.seen(state, at, event.observation, event.steady)
            case Choosing():
                return self._choose_by_token(state, at, event.now)
            case Waiting() | Proposal():
                return self._propose(state, event.now)
            case Clearing() if not guards.to_clear:
                return replace(state, at=Waiting())
            case _:
                return state

    def _pressed(self, state: SessionState, press: Press, now: float) -> SessionState:
        action, at = press.action, state.at
        if isinstance(at, SetupStep):
            return self.steps.pressed(state, at, press, now)
        if isinstance(at, Abandoning):
            return self._abandon_press(state, at, press, now)
        if action is Action.ABANDON:
            return self._ask_abandon(state)
        if action is Action.UNDO and not isinstance(at, Editing):
            return self._undo(state, now)
        match at:
            case Editing():
                return self._editor_press(state, at, press, now)
            case _ if action is Action.FIX:
                return self._open_editor(state)
            case Proposal() if action is Action.CONFIRM:
                return self._commit(state, at.score.round.reveal, now, at.score)
            case Clearing() if action in (Action.CONFIRM, Action.NEXT):
                state = replace(state, at=Waiting(), guards=replace(state.guards, to_clear=False))
                return self._propose(state, now)
            case Winner() if action in (Action.CONFIRM, Action.NEXT):
                if now - at.since < WINNER_GRACE_SECONDS or state.hopping(now):
                    return state
                if action is Action.CONFIRM:  # the same players again
                    again = self.steps.enter_first(state, _first_index(state))
                    return _reread(self.steps.keep(again, now))
                return self.steps.new_group(state, self.settings.language, now)
            case _:
                return state

    def _ticked(self, state: SessionState, now: float) -> SessionState:
        at, table = state.at, state.table
        blind = table is not None and table.blind
        if isinstance(at, Proposal) and state.countdown(now) == 0.0 and not blind:
            return self._commit(state, at.score.round.reveal, now, at.score)
        return state

    def _choose_by_token(self, state: SessionState, at: Choosing, now: float) -> SessionState:
        """An owner token laid alone on a card, on a table seen empty since setup
        began, names the first storyteller."""
        table = state.table
        if table is None or not table.steady or not at.cleared:
            return state
        report = table.report
        if len(report.reveal.cards) != 1 or report.tokens != 1:
            return state
        (player,) = report.reveal.cards.values()
        chosen = replace(at, chosen=state.lineup.names.index(player))
        return self._start(replace(state, at=chosen), now)

    def _start(self, state: SessionState, now: float) -> SessionState:
        """Start the game with the chosen storyteller; the table is cleared first."""
        at = state.at
        if not isinstance(at, Choosing):
            return state
        lineup = state.lineup
        first = lineup.names[at.chosen]
        game = Game.start(state.game.ruleset, lineup.names, first)
        colours = lineup.colour_by_player
        try:
            game_id = self.journal.start_game(game, colours)
        except (CompanionError, OSError) as error:
            failed = replace(state, at=replace(at, cleared=False))
            words = phrase("the journal cannot start a game: {error}", error=error_words(error))
            return _say(failed, words, now)
        self.steps.started(state)
        started = replace(
            state,
            at=Clearing(),
            game=game,
            game_id=game_id,
            guards=replace(state.guards, to_clear=True),
        )
        return _say(_reread(started), phrase("{player} tells first", player=first), now)

    def _propose(self, state: SessionState, now: float) -> SessionState:
        """Propose the table's round once it is legal and still, and withdraw the
        proposal as soon as the table changes (the table is already read against the
        game as it stands: every change of game reads the table again)."""
        table = state.table
        guards = state.guards
        if (
            table is not None
            and table.blind
            and isinstance(state.at, Proposal)
            and state.at.score.round.reveal == table.report.reveal
        ):
            return state  # a frame that missed most of the table is no news
        legal = (
            table is not None
            and table.report.ready
            and table.steady
            and not table.blind
            and not guards.to_clear
            and not state.already_scored()
        )
        if table is None or not legal:
            return replace(state, at=Waiting())
        reveal = table.report.reveal
        if isinstance(state.at, Proposal) and state.at.score.round.reveal == reveal:
            return state
        if reveal != guards.wait_for_press:
            guards = replace(guards, wait_for_press=None)
            state = replace(state, guards=guards)
        try:
            score = state.game.score(reveal)
        except CompanionError as error:
            return _say(replace(state, at=Waiting()), error.phrase, now)
        wait = None if reveal == guards.wait_for_press else self.settings.auto_confirm
        return replace(state, at=Proposal(score, now, wait))

    def _commit(
        self, state: SessionState, reveal: Reveal, now: float, proposal: RoundScore | None
    ) -> SessionState:
        """Score the round with the rules engine and keep it in the journal; only then
        does it count."""
        if state.game_id is None:
            return state
        game = state.game
        number = game.round_number
        try:
            played = game.play(reveal)
            images = self.pictures(proposal)
            kept_pictures = self.journal.commit_round(
                state.game_id, played, frame=images.frame, overlay=images.overlay
            )
        except (CompanionError, OSError) as error:
            at = replace(state.at, wait=None) if isinstance(state.at, Proposal) else state.at
            kept = replace(state, at=at, guards=replace(state.guards, wait_for_press=reveal))
            why = (
                phrase("the memory card is full; make room and confirm again")
                if isinstance(error, DiskFullError)
                else error_words(error)
            )
            words = phrase("round {number} was NOT saved: {error}", number=number, error=why)
            return _say(kept, words, now)
        table = state.table
        guards = replace(
            state.guards,
            scored_table=table.report.reveal if table is not None else reveal,
            to_clear=True,
        )
        committed = replace(
            state,
            at=Winner(now) if played.outcome is not None else Clearing(),
            game=played,
            guards=guards,
            hop=Hop(dict(game.totals), dict(played.totals), now),
        )
        said = (
            phrase("round {number} scored", number=number)
            if kept_pictures or (images.frame is None and images.overlay is None)
            else phrase(
                "round {number} scored, without its pictures: the memory card is full",
                number=number,
            )
        )
        return _say(_reread(committed), said, now)

    def _undo(self, state: SessionState, now: float) -> SessionState:
        game = state.game
        if state.game_id is None or not game.played:
            return _say(state, phrase("there is no round to undo"), now)
        number = len(game.played)
        undone = game.played[-1].score.round.reveal
        try:
            back = self.journal.undo_round(state.game_id)
        except (CompanionError, OSError) as error:
            words = phrase(
                "round {number} could not be undone: {error}",
                number=number,
                error=error_words(error),
            )
            return _say(state, words, now)
        scored = back.played[-1].score.round.reveal if back.played else None
        undone_state = replace(
            state,
            at=Waiting(),
            game=back,
            guards=Guards(scored_table=scored, to_clear=False, wait_for_press=undone),
            hop=Hop(dict(game.totals), dict(back.totals), now),
        )
        return _say(_reread(undone_state), phrase("round {number} undone", number=number), now)

    def _ask_abandon(self, state: SessionState) -> SessionState:
        """A long hold asks whether to give up the game in progress."""
        at = state.at
        if state.game_id is None or state.game.outcome is not None:
            return state
        if isinstance(at, Waiting | Proposal | Clearing | Editing):
            return replace(state, at=Abandoning(at))
        return state

    def _abandon_press(
        self, state: SessionState, at: Abandoning, press: Press, now: float
    ) -> SessionState:
        """Confirm gives the game up; anything else goes back to it (a proposal is made
        afresh from the table as it now lies, its countdown from the start)."""
        number = state.game_id
        if press.action is not Action.CONFIRM or number is None:
            back = at.opened_from
            if isinstance(back, Proposal):
                return self._propose(replace(state, at=Waiting()), now)
            return replace(state, at=back)
        try:
            self.journal.abandon_game(number)
        except (CompanionError, OSError) as error:
            words = phrase(
                "game {number} could not be given up: {error}",
                number=number,
                error=error_words(error),
            )
            return _say(replace(state, at=at.opened_from), words, now)
        left = replace(state, game_id=None, hop=None, guards=Guards())
        left = self.steps.new_group(left, self.settings.language, now)
        return _say(
            left, phrase("game {number} given up; it stays in the journal", number=number), now
        )

    def _give_up(self, state: SessionState, now: float) -> tuple[SessionState, Phrase | None]:
        """Abandon the game in progress without the table's question."""
        at = state.at
        if isinstance(at, Abandoning):
            at = at.opened_from
        if state.game_id is None or state.game.outcome is not None or state.setting_up:
            return state, phrase("there is no game in progress to give up")
        if not isinstance(at, Waiting | Proposal | Clearing | Editing):
            return state, phrase("there is no game in progress to give up")
        left = self._abandon_press(state, Abandoning(at), Press(Action.CONFIRM), now)
        if left.game_id is not None:
            return left, left.says(now)
        return left, None

    def _correct(
        self, state: SessionState, command: Correct, now: float
    ) -> tuple[SessionState, Phrase | None]:
        """A past round corrected from the page, rescored as the table's editor does."""
        number, played = command.number, len(state.game.played)
        if state.game_id is None or state.setting_up:
            return state, phrase("there is no game in progress to correct")
        if command.game_id != state.game_id:
            words = phrase(
                "only the game at the table can be corrected, and game {number} is not",
                number=command.game_id,
            )
            return state, words
        reveal = command.reveal
        off_board = sorted(
            {*reveal.cards, *(s for slots in reveal.votes.values() for s in slots)}
            - set(self.settings.slots)
            | ({reveal.trap} - set(self.settings.slots) if reveal.trap is not None else set())
        )
        if off_board:
            return state, phrase("this board has no slot {slot}", slot=off_board[0])
        if isinstance(state.at, Editing | Abandoning):
            return state, phrase("the table is busy with a question: answer it there first")
        if not 1 <= number <= played:
            return state, plural(
                "there is no round {number}: the game has {n} round",
                "there is no round {number}: the game has {n} rounds",
                played,
                number=number,
            )
        try:
            game = self.journal.correct_round(state.game_id, number, reveal)
        except (CompanionError, OSError) as error:
            return state, error_words(error)
        at: PhaseState = state.at
        if game.outcome is not None and not isinstance(at, Winner):
            at = Winner(now)
        elif game.outcome is None and isinstance(at, Winner | Proposal):
            at = Clearing() if state.guards.to_clear else Waiting()
        corrected = replace(
            state, at=at, game=game, hop=Hop(dict(state.game.totals), dict(game.totals), now)
        )
        words = phrase("round {number} corrected and the game rescored", number=number)
        corrected = _reread(_say(corrected, words, now))
        if isinstance(corrected.at, Waiting):
            corrected = self._propose(corrected, now)
        return corrected, None

    def _open_editor(self, state: SessionState) -> SessionState:
        if state.game_id is None:
            return state
        at = state.at
        if isinstance(at, SetupStep | Editing | Abandoning):
            return state
        live = state.table.report.reveal if state.table is not None else Reveal({})
        editor = RoundEditor.open(state.game, self.settings.slots, live)
        return replace(state, at=Editing(editor, at))

    def _editor_press(
        self, state: SessionState, at: Editing, press: Press, now: float
    ) -> SessionState:
        editor = at.editor
        match press.action:
            case Action.UP:
                editor = editor.move(-1)
            case Action.DOWN | Action.FIX:
                editor = editor.move(1)
            case Action.PICK if press.target is not None:
                editor = editor.pick(press.target)
            case Action.LEFT:
                editor = editor.change(-1)
            case Action.RIGHT | Action.NEXT:
                editor = editor.change(1)
            case Action.BACK | Action.UNDO:
                return _close_editor(state, at, now)
            case Action.CONFIRM:
                return self._apply(state, replace(at, editor=editor, problems=()), now)
            case _:
                pass
        return replace(state, at=replace(at, editor=editor, problems=()))

    def _apply(self, state: SessionState, at: Editing, now: float) -> SessionState:
        """Commit a round entered by hand, or rescore the game from a corrected round."""
        editor = at.editor
        problems = editor.problems()
        if problems:
            refused = (
                phrase(
                    "round {number} cannot be saved: {problem}",
                    number=editor.number,
                    problem=problems[0],
                ),
            )
            return replace(state, at=replace(at, problems=refused))
        if not editor.past:
            return self._commit(replace(state, at=at), editor.reveal(), now, None)
        if state.game_id is None:
            return state
        try:
            game = self.journal.correct_round(state.game_id, editor.number, editor.reveal())
        except (CompanionError, OSError) as error:
            return replace(state, at=replace(at, problems=(error_words(error),)))
        corrected = replace(
            state, game=game, hop=Hop(dict(state.game.totals), dict(game.totals), now)
        )
        words = phrase("round {number} corrected and the game rescored", number=editor.number)
        said = _say(corrected, words, now)
        return _close_editor(said, at, now)


def _read(
    game: Game, lineup: Lineup, observation: TableObservation, steady: bool, blind: bool = False
) -> TableRead:
    """A settled table read as the next round of `game`."""
    return TableRead(observation, read_table(observation, game, lineup), steady, blind)


def _reread(state: SessionState) -> SessionState:
    """The latest table read again against the game as it now stands (whenever the
    game moves on: a report of the round before must never be proposed)."""
    table = state.table
    if table is None:
        return state
    read = _read(state.game, state.lineup, table.observation, table.steady, table.blind)
    return replace(state, table=read)


def _say(state: SessionState, text: Phrase, now: float) -> SessionState:
    return state.saying(text, now, MESSAGE_SECONDS)


def _saved_setup(journal: Journal) -> tuple[str, Draft] | None:
    """The setup step and draft the journal kept, if it kept one this companion can use."""
    try:
        saved = journal.saved_setup()
        return None if saved is None else (saved[0], Draft.from_document(saved[1]))
    except (CompanionError, OSError):
        return None


def _saved_draft(journal: Journal) -> Draft | None:
    saved = _saved_setup(journal)
    return None if saved is None else saved[1]


def _first_index(state: SessionState) -> int:
    """Who told first in the last game: the next game offers the same."""
    names = state.lineup.names
    first = state.game.first_storyteller
    return names.index(first) if first in names else 0


def _close_editor(state: SessionState, editing: Editing, now: float) -> SessionState:
    """Back to where the game stands: the winner (since the game ended, or since now
    for a correction that ended it), the table to clear, or the round."""
    opened_from = editing.opened_from
    if state.game.outcome is not None:
        since = opened_from.since if isinstance(opened_from, Winner) else now
        at: Winner | Clearing | Waiting = Winner(since)
    elif state.guards.to_clear:
        at = Clearing()
    else:
        at = Waiting()
    return _reread(replace(state, at=at))
