"""One game at one table, from choosing the first storyteller to the winner.

The session is the game loop's brain without its body: it takes settled tables,
presses and the time, and keeps the phase, the proposal, the editor and the moving
rabbits. It never scores by itself (the rules engine does) and never keeps a round
the journal has not stored: a round counts once `Journal.commit_round` returned.
Frames, screens, buttons and clocks belong to `loop`; this module can be driven by
a test with nothing but a journal file.

Three guards keep a table from being scored twice: after a commit nothing is
proposed until the table has been cleared (or a player says to go on); a table that
still shows the round as it was read when committed is never proposed again; and
after an undo, or a round the journal could not save, the same table waits for a
press instead of confirming itself.
"""

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.app.editor import RoundEditor
from companion.app.lineup import Lineup
from companion.app.table import TableReport, read_table
from companion.controls.actions import Action, Press
from companion.display.view import Phase
from companion.errors import CompanionError, SettingError
from companion.journal import Journal, RoundImages, StoredGame
from companion.rules import Game, Reveal, RoundScore, Ruleset
from companion.vision.records import TableObservation

Pictures = Callable[[], RoundImages]
"""Gives the frame and the annotated overlay (encoded images) a round is scored from."""

ANIMATION_SECONDS = 1.5
"""How long the rabbits take to hop to their new totals."""
MESSAGE_SECONDS = 6.0
"""How long a one-off message ("round 4 undone") stays on the screen."""
WINNER_GRACE_SECONDS = 2.0
"""How long the winner screen ignores Confirm: a bounced press on the last round's
Confirm must not throw the final standings away."""


def no_pictures() -> RoundImages:
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


@dataclass(frozen=True)
class Hop:
    """Rabbits moving from the old totals to the new ones."""

    start: Mapping[str, int]
    """Totals before."""
    end: Mapping[str, int]
    """Totals after."""
    began: float
    """When the hop started."""


class Session:
    """The state of one table's game; fed by the loop, shown by `present`."""

    def __init__(
        self,
        ruleset: Ruleset,
        lineup: Lineup,
        journal: Journal,
        settings: Settings,
        pictures: Pictures = no_pictures,
    ) -> None:
        self.ruleset = ruleset
        self.lineup = lineup
        self.journal = journal
        self.settings = settings
        self.pictures = pictures
        self.phase = Phase.SETUP
        self.chosen = 0
        """Index of the player chosen to tell first (setup)."""
        self.game = Game.start(ruleset, lineup.names, lineup.names[0])
        self.game_id: int | None = None
        self.observation: TableObservation | None = None
        """The latest settled table, read again whenever the game moves on."""
        self.report: TableReport | None = None
        self.steady = False
        self.proposal: RoundScore | None = None
        self.proposed_at = 0.0
        self.wait_for_press: Reveal | None = None
        """A table that must not confirm itself (undone, or not saved): it waits for
        Confirm until the table changes."""
        self.scored_table: Reveal | None = None
        """The last committed round as it was read from the table."""
        self.to_clear = False
        """Whether the last committed round's table has yet to be cleared."""
        self.setup_cleared = False
        """Whether an empty table has been seen since setup began (an owner token
        left from the last game must not choose the first storyteller)."""
        self.winner_since = 0.0
        self.editor: RoundEditor | None = None
        self.editor_problems: tuple[str, ...] = ()
        self.hop: Hop | None = None
        self.message = ""
        self.message_until = 0.0

    @classmethod
    def resumed(cls, stored: StoredGame, journal: Journal, settings: Settings) -> "Session":
        """The session of a game the journal kept: after a restart it goes on from the
        last committed round, reading the table afresh."""
        game = stored.game
        players = game.seating.players
        lineup = Lineup(players, tuple(stored.colours[p] for p in players))
        session = cls(game.ruleset, lineup, journal, settings)
        session.game = game
        session.game_id = stored.id
        session.chosen = lineup.names.index(game.first_storyteller)
        session.phase = Phase.WINNER if game.outcome is not None else Phase.WAITING
        if game.played:
            session.scored_table = game.played[-1].score.round.reveal
        session.say(f"game resumed after round {len(game.played)}", 0.0)
        return session

    def say(self, message: str, now: float) -> None:
        """Show a one-off message for a few seconds."""
        self.message = message
        self.message_until = now + MESSAGE_SECONDS

    def see(self, observation: TableObservation, steady: bool, now: float) -> None:
        """Take the stabiliser's latest view of the table."""
        self.observation = observation
        self.steady = steady
        self._read()
        report = self.report
        assert report is not None
        if report.cleared:
            self.setup_cleared = True
            if not self.hopping(now):
                self.to_clear = False
        match self.phase:
            case Phase.SETUP:
                self._choose_by_token(now)
            case Phase.WAITING | Phase.PROPOSAL:
                self._propose(now)
            case Phase.CLEARING if not self.to_clear:
                self.phase = Phase.WAITING
            case _:
                pass

    def lose_table(self) -> None:
        """The camera failed: forget what it showed, so nothing stale is shown or
        confirmed; the game goes on by hand until it is back."""
        self.observation = self.report = None
        self.steady = False
        if self.phase is Phase.PROPOSAL:
            self.phase, self.proposal = Phase.WAITING, None

    def press(self, press: Press, now: float) -> None:
        """Act on a player's request."""
        action = press.action
        if action is Action.UNDO and self.phase not in (Phase.SETUP, Phase.EDITING):
            self._undo(now)
            return
        match self.phase:
            case Phase.SETUP:
                self._setup_press(press, now)
            case Phase.EDITING:
                self._editor_press(press, now)
            case _ if action is Action.FIX:
                self._open_editor()
            case Phase.PROPOSAL if action is Action.CONFIRM and self.proposal is not None:
                self._commit(self.proposal.round.reveal, now)
            case Phase.CLEARING if action in (Action.CONFIRM, Action.NEXT):
                self.to_clear = False
                self.phase = Phase.WAITING
                self._propose(now)
            case Phase.WINNER if action is Action.CONFIRM:
                if now - self.winner_since >= WINNER_GRACE_SECONDS and not self.hopping(now):
                    self._new_game()
            case _:
                pass

    def tick(self, now: float) -> None:
        """Let time pass: the auto-confirm countdown."""
        if self.countdown(now) == 0.0 and self.proposal is not None:
            self._commit(self.proposal.round.reveal, now)

    def hopping(self, now: float) -> bool:
        """Whether the rabbits are still moving."""
        return self.hop is not None and now - self.hop.began < ANIMATION_SECONDS

    def countdown(self, now: float) -> float | None:
        """Seconds left before the proposal confirms itself, if it will."""
        wait = self.settings.auto_confirm
        proposal = self.proposal
        if self.phase is not Phase.PROPOSAL or wait is None or proposal is None:
            return None
        if proposal.round.reveal == self.wait_for_press:
            return None
        return max(0.0, wait - (now - self.proposed_at))

    def positions(self, now: float) -> Mapping[str, float]:
        """Where each scorer's rabbit stands now, between spaces while hopping."""
        totals = self.game.totals
        if self.hop is None or not self.hopping(now):
            return {s: float(t) for s, t in totals.items()}
        share = (now - self.hop.began) / ANIMATION_SECONDS
        eased = share * share * (3 - 2 * share)
        start, end = self.hop.start, self.hop.end
        return {s: start.get(s, 0) + (end.get(s, 0) - start.get(s, 0)) * eased for s in totals}

    def already_scored(self) -> bool:
        """Whether the table still shows the last committed round as it was read."""
        report = self.report
        return report is not None and bool(report.tokens) and report.reveal == self.scored_table

    def _read(self) -> None:
        """The latest table read as the game's next round (again whenever the game
        moves on: a report of the round before must never be proposed)."""
        if self.observation is None:
            self.report = None
            return
        self.report = read_table(self.observation, self.game, self.lineup)

    def _choose_by_token(self, now: float) -> None:
        """An owner token laid alone on a card, on a table seen empty since setup
        began, names the first storyteller."""
        report = self.report
        if report is None or not self.steady or not self.setup_cleared:
            return
        if len(report.reveal.cards) != 1 or report.tokens != 1:
            return
        (player,) = report.reveal.cards.values()
        self.chosen = self.lineup.names.index(player)
        self._start(now)

    def _setup_press(self, press: Press, now: float) -> None:
        count = len(self.lineup.names)
        match press.action:
            case Action.NEXT | Action.RIGHT | Action.DOWN:
                self.chosen = (self.chosen + 1) % count
            case Action.LEFT | Action.UP:
                self.chosen = (self.chosen - 1) % count
            case Action.PICK if press.target is not None and 0 <= press.target < count:
                self.chosen = press.target
            case Action.CONFIRM:
                self._start(now)
            case _:
                pass

    def _start(self, now: float) -> None:
        """Start the game with the chosen storyteller; the table is cleared first."""
        first = self.lineup.names[self.chosen]
        game = Game.start(self.ruleset, self.lineup.names, first)
        colours = dict(zip(self.lineup.names, self.lineup.colours, strict=True))
        try:
            self.game_id = self.journal.start_game(game, colours)
        except (CompanionError, OSError) as error:
            self.setup_cleared = False
            self.say(f"the journal cannot start a game: {error}", now)
            return
        self.game = game
        self.to_clear = True
        self.phase = Phase.CLEARING
        self._read()
        self.say(f"{first} tells first", now)

    def _new_game(self) -> None:
        """Back to choosing the first storyteller, with the same players and rules."""
        self.game = Game.start(self.ruleset, self.lineup.names, self.lineup.names[0])
        self.game_id = None
        self.hop = self.proposal = self.scored_table = None
        self.setup_cleared = False
        self.phase = Phase.SETUP
        self._read()

    def _propose(self, now: float) -> None:
        """Propose the table's round once it is legal and still, and withdraw the
        proposal as soon as the table changes (the report is already read against the
        game as it stands: every change of game reads the table again)."""
        report = self.report
        legal = (
            report is not None
            and report.ready
            and self.steady
            and not self.to_clear
            and not self.already_scored()
        )
        if report is None or not legal:
            self.phase, self.proposal = Phase.WAITING, None
            return
        if self.proposal is not None and self.proposal.round.reveal == report.reveal:
            return
        if report.reveal != self.wait_for_press:
            self.wait_for_press = None
        try:
            self.proposal = self.game.score(report.reveal)
        except CompanionError as error:
            self.phase, self.proposal = Phase.WAITING, None
            self.say(str(error), now)
            return
        self.proposed_at = now
        self.phase = Phase.PROPOSAL

    def _commit(self, reveal: Reveal, now: float) -> None:
        """Score the round with the rules engine and keep it in the journal; only then
        does it count."""
        if self.game_id is None:
            return
        before = self.game.totals
        number = self.game.round_number
        try:
            played = self.game.play(reveal)
            images = self.pictures()
            self.journal.commit_round(
                self.game_id, played, frame=images.frame, overlay=images.overlay
            )
        except (CompanionError, OSError) as error:
            self.wait_for_press = reveal
            self.say(f"round {number} was NOT saved: {error}", now)
            return
        self.game = played
        self.proposal = None
        self.scored_table = self.report.reveal if self.report is not None else reveal
        self.to_clear = True
        self.hop = Hop(dict(before), dict(played.totals), now)
        self._read()
        if played.outcome is not None:
            self.phase, self.winner_since = Phase.WINNER, now
        else:
            self.phase = Phase.CLEARING
        self.say(f"round {number} scored", now)

    def _undo(self, now: float) -> None:
        if self.game_id is None or not self.game.played:
            self.say("there is no round to undo", now)
            return
        number = len(self.game.played)
        before = self.game.totals
        undone = self.game.played[-1].score.round.reveal
        try:
            self.game = self.journal.undo_round(self.game_id)
        except (CompanionError, OSError) as error:
            self.say(f"round {number} could not be undone: {error}", now)
            return
        self.hop = Hop(dict(before), dict(self.game.totals), now)
        self.proposal = None
        self.to_clear = False
        self.scored_table = self.game.played[-1].score.round.reveal if self.game.played else None
        self.wait_for_press = undone
        self.phase = Phase.WAITING
        self._read()
        self.say(f"round {number} undone", now)

    def _open_editor(self) -> None:
        if self.game_id is None:
            return
        live = self.report.reveal if self.report is not None else Reveal({})
        self.editor = RoundEditor.open(self.game, self.settings.slots, live)
        self.editor_problems = ()
        self.phase = Phase.EDITING

    def _editor_press(self, press: Press, now: float) -> None:
        editor = self.editor
        if editor is None:
            self._close_editor()
            return
        self.editor_problems = ()
        match press.action:
            case Action.UP:
                self.editor = editor.move(-1)
            case Action.DOWN | Action.FIX:
                self.editor = editor.move(1)
            case Action.PICK if press.target is not None:
                self.editor = editor.pick(press.target)
            case Action.LEFT:
                self.editor = editor.change(-1)
            case Action.RIGHT | Action.NEXT:
                self.editor = editor.change(1)
            case Action.BACK | Action.UNDO:
                self._close_editor()
            case Action.CONFIRM:
                self._apply(editor, now)
            case _:
                pass

    def _apply(self, editor: RoundEditor, now: float) -> None:
        """Commit a round entered by hand, or rescore the game from a corrected round."""
        problems = editor.problems()
        if problems:
            self.editor_problems = (f"round {editor.number} cannot be saved: {problems[0]}",)
            return
        if not editor.past:
            self._commit(editor.reveal(), now)
            if self.phase is not Phase.EDITING:
                self.editor = None
            return
        if self.game_id is None:
            return
        before = self.game.totals
        try:
            self.game = self.journal.correct_round(self.game_id, editor.number, editor.reveal())
        except (CompanionError, OSError) as error:
            self.editor_problems = (str(error),)
            return
        self.hop = Hop(dict(before), dict(self.game.totals), now)
        self.say(f"round {editor.number} corrected and the game rescored", now)
        self._close_editor()

    def _close_editor(self) -> None:
        """Back to where the game stands: the winner, the table to clear, or the round."""
        self.editor = None
        self.proposal = None
        self._read()
        if self.game.outcome is not None:
            self.phase = Phase.WINNER
        elif self.to_clear:
            self.phase = Phase.CLEARING
        else:
            self.phase = Phase.WAITING
