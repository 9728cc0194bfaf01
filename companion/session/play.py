"""Playing a game round by round: the pure transitions of the play phases.

Who tells first, the table proposed as a round once it is legal and still, the round
confirmed (by a press or the countdown) and written, the table to clear, undo. Each
transition returns a `Step`; a round is asked to be written (`WriteRound`) and counts
only once the journal has stored it (`RoundWritten`), as a game starts only once it
is stored (`GameStarted`).

Three guards keep a table from being scored twice: after a commit nothing is
proposed until the table has been cleared (or a player says to go on); a table that
still shows the round as it was read when committed is never proposed again; and
after an undo, or a round the journal could not save, the same table waits for a
press instead of confirming itself.
"""

from dataclasses import replace

from companion.errors import CompanionError, error_words
from companion.phrases import Phrase, phrase
from companion.rules import Game, Reveal, RoundScore
from companion.session.draft import Draft
from companion.session.effects import (
    Failed,
    GameStarted,
    KeepSetup,
    RoundUndone,
    RoundWritten,
    StartGame,
    Step,
    UndoRound,
    WriteRound,
)
from companion.session.settings import Settings
from companion.session.setup import STEP_NAMES
from companion.session.states import (
    Choosing,
    Clearing,
    Guards,
    Hop,
    PickingLanguage,
    Proposal,
    SessionState,
    TableRead,
    Waiting,
    Winner,
)
from companion.session.table import clearing_report, read_table
from companion.vision.records import TableObservation

MESSAGE_SECONDS = 6.0
"""How long a one-off message ("round 4 undone") stays on the screen."""
WINNER_GRACE_SECONDS = 2.0
"""How long the winner screen ignores Confirm: a bounced press on the last round's
Confirm must not throw the final standings away."""


class Play:
    """The play phases' transitions."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        """The auto-confirm delay."""

    def choose_by_token(self, state: SessionState, at: Choosing, now: float) -> Step:
        """An owner token laid alone on a card, on a table seen empty since setup
        began, names the first storyteller."""
        table = state.table
        if table is None or not table.steady or not at.cleared:
            return Step(state)
        report = table.report
        if len(report.reveal.cards) != 1 or report.tokens != 1:
            return Step(state)
        (player,) = report.reveal.cards.values()
        chosen = replace(at, chosen=state.lineup.names.index(player))
        return self.start(replace(state, at=chosen), now)

    def start(self, state: SessionState, now: float) -> Step:
        """Start the game with the chosen storyteller, once the journal has stored it."""
        at = state.at
        if not isinstance(at, Choosing):
            return Step(state)
        lineup = state.lineup
        game = Game.start(state.game.ruleset, lineup.names, lineup.names[at.chosen])
        return Step(state, (StartGame(game, lineup.colour_by_player),))

    def started(self, state: SessionState, result: GameStarted, now: float) -> Step:
        """The game is stored: the table is cleared first. A restart without a game in
        progress sets up the next group's game, offering this one's language and
        edition."""
        game = result.start.game
        started = replace(
            state,
            at=Clearing(),
            game=game,
            game_id=result.game_id,
            guards=replace(state.guards, to_clear=True),
        )
        draft = state.draft
        next_group = Draft(draft.language, draft.ruleset)
        keep = KeepSetup(STEP_NAMES[PickingLanguage], next_group, told=False)
        words = phrase("{player} tells first", player=game.first_storyteller)
        return Step(say(reread(started), words, now), (keep,))

    def not_started(self, state: SessionState, failed: Failed, now: float) -> Step:
        """The journal could not store the game: the first storyteller is chosen again
        (a token needs an empty table first)."""
        at = state.at
        if isinstance(at, Choosing):
            state = replace(state, at=replace(at, cleared=False))
        words = phrase("the journal cannot start a game: {error}", error=failed.error)
        return Step(say(state, words, now))

    def propose(self, state: SessionState, now: float) -> SessionState:
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
            return say(replace(state, at=Waiting()), error.phrase, now)
        wait = None if reveal == guards.wait_for_press else self.settings.auto_confirm
        return replace(state, at=Proposal(score, now, wait))

    def ticked(self, state: SessionState, now: float) -> Step:
        """Time passes: a proposal whose countdown ran out confirms itself, unless the
        latest frame missed most of the table."""
        at, table = state.at, state.table
        blind = table is not None and table.blind
        if isinstance(at, Proposal) and state.countdown(now) == 0.0 and not blind:
            return self.commit(state, at.score.round.reveal, now, at.score)
        return Step(state)

    def go_on(self, state: SessionState, now: float) -> SessionState:
        """A player says the table is cleared (Confirm or Next while clearing): the
        table is read as the next round from now on."""
        state = replace(state, at=Waiting(), guards=replace(state.guards, to_clear=False))
        return self.propose(reread(state), now)

    def commit(
        self, state: SessionState, reveal: Reveal, now: float, proposal: RoundScore | None
    ) -> Step:
        """Score the round with the rules engine and ask for it to be written; only
        once it is does it count."""
        if state.game_id is None:
            return Step(state)
        game = state.game
        try:
            played = game.play(reveal)
        except CompanionError as error:
            return Step(unsaved(state, reveal, game.round_number, error_words(error), now))
        return Step(state, (WriteRound(state.game_id, played, reveal, proposal),))

    def written(self, state: SessionState, result: RoundWritten, now: float) -> Step:
        """The round is stored: it counts, and the table is to be cleared."""
        write = result.write
        game, played, table = state.game, write.played, state.table
        guards = replace(
            state.guards,
            scored_table=table.report.reveal if table is not None else write.reveal,
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
            phrase(
                "round {number} scored, without its pictures: the memory card is full",
                number=write.number,
            )
            if result.pictures_dropped
            else phrase("round {number} scored", number=write.number)
        )
        return Step(say(reread(committed), said, now))

    def not_written(
        self, state: SessionState, write: WriteRound, failed: Failed, now: float
    ) -> Step:
        """The journal could not store the round: it does not count, and the same
        table waits for a press."""
        why = (
            phrase("the memory card is full; make room and confirm again")
            if failed.card_full
            else failed.error
        )
        return Step(unsaved(state, write.reveal, write.number, why, now))

    def undo(self, state: SessionState, now: float) -> Step:
        """Undo the last round, once the journal has deleted it."""
        game = state.game
        if state.game_id is None or not game.played:
            return Step(say(state, phrase("there is no round to undo"), now))
        return Step(state, (UndoRound(state.game_id, len(game.played)),))

    def undone(self, state: SessionState, result: RoundUndone, now: float) -> Step:
        """The last round is deleted: the rabbits go back, and the table as it lay for
        that round waits for a press."""
        game, back = state.game, result.game
        undone = game.played[-1].score.round.reveal if game.played else None
        scored = back.played[-1].score.round.reveal if back.played else None
        undone_state = replace(
            state,
            at=Waiting(),
            game=back,
            guards=Guards(scored_table=scored, to_clear=False, wait_for_press=undone),
            hop=Hop(dict(game.totals), dict(back.totals), now),
        )
        words = phrase("round {number} undone", number=result.undo.number)
        return Step(say(reread(undone_state), words, now))

    def not_undone(self, state: SessionState, undo: UndoRound, failed: Failed, now: float) -> Step:
        """The journal could not delete the round: nothing changes."""
        words = phrase(
            "round {number} could not be undone: {error}", number=undo.number, error=failed.error
        )
        return Step(say(state, words, now))


def unsaved(
    state: SessionState, reveal: Reveal, number: int, why: Phrase, now: float
) -> SessionState:
    """A round that was not saved: the proposal stays, waiting for a press, and so does
    the same table until it changes."""
    at = replace(state.at, wait=None) if isinstance(state.at, Proposal) else state.at
    kept = replace(state, at=at, guards=replace(state.guards, wait_for_press=reveal))
    words = phrase("round {number} was NOT saved: {error}", number=number, error=why)
    return say(kept, words, now)


def read(
    state: SessionState, observation: TableObservation, steady: bool, blind: bool = False
) -> TableRead:
    """A settled table read as the next round of the state's game; while the last
    round's table is being cleared, only what is left to clear."""
    report = read_table(observation, state.game, state.lineup)
    if isinstance(state.at, Clearing) and state.guards.to_clear:
        report = clearing_report(report)
    return TableRead(observation, report, steady, blind)


def reread(state: SessionState) -> SessionState:
    """The latest table read again against the game as it now stands (whenever the
    game moves on: a report of the round before must never be proposed)."""
    table = state.table
    if table is None:
        return state
    return replace(state, table=read(state, table.observation, table.steady, table.blind))


def say(state: SessionState, text: Phrase, now: float) -> SessionState:
    """The state with a one-off message for `MESSAGE_SECONDS`."""
    return state.saying(text, now, MESSAGE_SECONDS)
