"""Giving up the game in progress: the table's question, the page's command, and what
came of marking the game abandoned.

A long hold asks whether to give the game up; Confirm gives it up, anything else goes
back to it. The staff may give it up from the page without the question. Either way
the game is marked abandoned in the journal (`MarkAbandoned`), where it stays as it
was, and only then does the table set up the next group's game.
"""

from dataclasses import replace

from companion.actions import Action, Press
from companion.language import Language
from companion.phrases import phrase
from companion.session.effects import Failed, GameAbandoned, MarkAbandoned, Step
from companion.session.play import Play, say
from companion.session.setup_steps import SetupSteps
from companion.session.states import (
    Abandoning,
    Clearing,
    Editing,
    Guards,
    Proposal,
    SessionState,
    Waiting,
)


class GivingUp:
    """The transitions of giving up a game."""

    def __init__(self, play: Play, setup: SetupSteps, language: Language) -> None:
        self.play = play
        """Proposes afresh when the question is answered No from a proposal."""
        self.setup = setup
        """Sets up the next group's game once this one is given up."""
        self.language = language
        """The language the next group is greeted in."""

    def ask(self, state: SessionState) -> SessionState:
        """A long hold asks whether to give up the game in progress."""
        at = state.at
        if state.game_id is None or state.game.outcome is not None:
            return state
        if isinstance(at, Waiting | Proposal | Clearing | Editing):
            return replace(state, at=Abandoning(at))
        return state

    def pressed(self, state: SessionState, at: Abandoning, press: Press, now: float) -> Step:
        """Confirm gives the game up; anything else goes back to it (a proposal is made
        afresh from the table as it now lies, its countdown from the start)."""
        if press.action is not Action.CONFIRM or state.game_id is None:
            back = at.opened_from
            if isinstance(back, Proposal):
                return Step(self.play.propose(replace(state, at=Waiting()), now))
            return Step(replace(state, at=back))
        return Step(state, (MarkAbandoned(state.game_id),))

    def give_up(self, state: SessionState) -> Step:
        """The page gives up the game in progress without the table's question."""
        at = state.at
        if isinstance(at, Abandoning):
            at = at.opened_from
        game_id, over = state.game_id, state.game.outcome is not None
        if game_id is None or over or not isinstance(at, Waiting | Proposal | Clearing | Editing):
            return Step(state, refused=phrase("there is no game in progress to give up"))
        asking = replace(state, at=Abandoning(at))
        return Step(asking, (MarkAbandoned(game_id, asked=True),))

    def abandoned(self, state: SessionState, result: GameAbandoned, now: float) -> Step:
        """The game is marked abandoned: the table sets up the next group's game (the
        message that the game was given up counts more than one that the setup was
        not kept)."""
        left = replace(state, game_id=None, hop=None, guards=Guards())
        number = result.abandon.game_id
        words = phrase("game {number} given up; it stays in the journal", number=number)
        step = self.setup.new_group(left, self.language, told=False)
        return step.map(lambda s: say(s, words, now))

    def not_abandoned(
        self, state: SessionState, abandon: MarkAbandoned, failed: Failed, now: float
    ) -> Step:
        """The journal could not mark the game abandoned: back to it, saying why (the
        page hears it too)."""
        at = state.at
        back = replace(state, at=at.opened_from) if isinstance(at, Abandoning) else state
        words = phrase(
            "game {number} could not be given up: {error}",
            number=abandon.game_id,
            error=failed.error,
        )
        return Step(say(back, words, now), refused=words if abandon.asked else None)
