"""Rounds entered by hand and past rounds corrected: the editor's transitions, the
page's corrections, and what came of them.

When the camera fails the game goes on by hand, and when a past round was scored from
a misplaced token it is put right: at the table with the round editor, or from the
phone page. A round entered by hand is written as a confirmed one is (`WriteRound`);
a correction asks the journal to rescore the game from that round (`CorrectRound`),
and the table shows the rescored game only once the journal has done so.
"""

from dataclasses import replace

from companion.actions import Action, Press
from companion.errors import RulesError
from companion.phrases import Phrase, phrase, plural
from companion.rules import Game, Reveal
from companion.session.commands import Correct
from companion.session.editor import RoundEditor
from companion.session.effects import CorrectRound, Failed, RoundCorrected, Step
from companion.session.play import Play, reread, say
from companion.session.settings import Settings
from companion.session.states import (
    Abandoning,
    Clearing,
    Editing,
    Hop,
    PhaseState,
    Proposal,
    SessionState,
    SetupStep,
    Waiting,
    Winner,
)


class Correcting:
    """The transitions of the round editor and of the page's corrections."""

    def __init__(self, settings: Settings, play: Play) -> None:
        self.settings = settings
        """The board's slots, the values a card or a vote may take."""
        self.play = play
        """Writes a round entered by hand, and proposes once a correction is done."""

    def open(self, state: SessionState) -> SessionState:
        """The editor on the next round (the last one once the game is over), showing
        the table as last read."""
        if state.game_id is None:
            return state
        at = state.at
        if isinstance(at, SetupStep | Editing | Abandoning):
            return state
        live = state.table.report.reveal if state.table is not None else Reveal({})
        editor = RoundEditor.open(state.game, self.settings.slots, live)
        return replace(state, at=Editing(editor, at))

    def pressed(self, state: SessionState, at: Editing, press: Press, now: float) -> Step:
        """A press in the editor: the next or previous question, another answer, the
        summary, save (Confirm on a summary that can be saved), or cancel."""
        if press.action in (Action.BACK, Action.UNDO):
            return Step(close_editor(state, at, now))
        asked = at.questions
        if asked.saves(press):
            return self._save(state, replace(at, problems=()), now)
        after = asked.pressed(press)
        return Step(
            replace(
                state, at=replace(at, editor=after.editor, reviewing=after.reviewing, problems=())
            )
        )

    def _save(self, state: SessionState, at: Editing, now: float) -> Step:
        """Write a round entered by hand, or rescore the game from a corrected round."""
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
            return Step(replace(state, at=replace(at, problems=refused)))
        if not editor.past:
            return self.play.commit(replace(state, at=at), editor.reveal(), now, None)
        if state.game_id is None:
            return Step(state)
        correction = CorrectRound(state.game_id, editor.number, editor.reveal())
        return Step(replace(state, at=at), (correction,))

    def correct(self, state: SessionState, command: Correct, now: float) -> Step:
        """A past round corrected from the page, rescored as the table's editor does;
        the round being played, entered from the page, written as the editor writes it."""
        refused = self._refusal(state, command)
        if refused is not None or state.game_id is None:
            return Step(state, refused=refused)
        if command.number == state.game.round_number and state.game.outcome is None:
            try:
                state.game.score(command.reveal)
            except RulesError as error:
                return Step(state, refused=error.phrase)
            return self.play.commit(state, command.reveal, now, None)
        correction = CorrectRound(state.game_id, command.number, command.reveal, asked=True)
        return Step(state, (correction,))

    def _refusal(self, state: SessionState, command: Correct) -> Phrase | None:
        """Why the page's correction cannot be made at the table now, if it cannot."""
        number, played = command.number, len(state.game.played)
        if state.game_id is None or state.setting_up:
            return phrase("there is no game in progress to correct")
        if command.game_id != state.game_id:
            return phrase(
                "only the game at the table can be corrected, and game {number} is not",
                number=command.game_id,
            )
        reveal, slots = command.reveal, set(self.settings.slots)
        laid = {*reveal.cards, *(s for voted in reveal.votes.values() for s in voted)}
        off_board = sorted(
            laid - slots | ({reveal.trap} - slots if reveal.trap is not None else set())
        )
        if off_board:
            return phrase("this board has no slot {slot}", slot=off_board[0])
        if isinstance(state.at, Editing | Abandoning):
            return phrase("the table is busy with a question: answer it there first")
        playing = number == played + 1 and state.game.outcome is None
        if not 1 <= number <= played and not playing:
            return plural(
                "there is no round {number}: the game has {n} round",
                "there is no round {number}: the game has {n} rounds",
                played,
                number=number,
            )
        return None

    def corrected(self, state: SessionState, result: RoundCorrected, now: float) -> Step:
        """The journal rescored the game: the rabbits move, and the table goes on from
        the game as it now stands (the editor closes)."""
        game, number = result.game, result.correction.number
        hop = Hop(dict(state.game.totals), dict(game.totals), now)
        words = phrase("round {number} corrected and the game rescored", number=number)
        at = state.at
        if not result.correction.asked and isinstance(at, Editing):
            said = say(replace(state, game=game, hop=hop), words, now)
            return Step(close_editor(said, at, now))
        return Step(self._rescored(state, game, hop, words, now))

    def _rescored(
        self, state: SessionState, game: Game, hop: Hop, words: Phrase, now: float
    ) -> SessionState:
        """The table after a correction from the page: the winner if it ended the game,
        the round again if it no longer does."""
        at: PhaseState = state.at
        if game.outcome is not None and not isinstance(at, Winner):
            at = Winner(now)
        elif game.outcome is None and isinstance(at, Winner | Proposal):
            at = Clearing() if state.guards.to_clear else Waiting()
        corrected = reread(say(replace(state, at=at, game=game, hop=hop), words, now))
        if isinstance(corrected.at, Waiting):
            corrected = self.play.propose(corrected, now)
        return corrected

    def not_corrected(self, state: SessionState, correction: CorrectRound, failed: Failed) -> Step:
        """The journal could not rescore the game: the editor says why, as the page
        does."""
        at = state.at
        if correction.asked or not isinstance(at, Editing):
            return Step(state, refused=failed.error)
        return Step(replace(state, at=replace(at, problems=(failed.error,))))


def close_editor(state: SessionState, editing: Editing, now: float) -> SessionState:
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
    return reread(replace(state, at=at))
