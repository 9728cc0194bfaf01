"""Carrying out the session's effects: the journal's writes and reads, and the pictures
kept with a round.

The session's transitions are pure: they return effects (`WriteRound`,
`MarkAbandoned`, `KeepSetup`, ...) and `JournalEffects` carries them out, one at a
time, on the loop's thread. What came of each goes back to the session as a result;
an effect the journal could not carry out (a full card, a damaged file) comes back as
`Failed`, with words for the screen, and the journal's own words (which name its
files) go to the café's log. Nothing is half done: the journal writes each in one
transaction, and a round with no room for its pictures is kept without them.
"""

import logging
from collections.abc import Callable

from companion.errors import CompanionError, DiskFullError, error_words
from companion.journal import Journal, RoundImages
from companion.rules import RoundScore
from companion.session.effects import (
    CorrectRound,
    Effect,
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
    UndoRound,
    WriteRound,
)

log = logging.getLogger(__name__)

Pictures = Callable[[RoundScore | None], RoundImages]
"""Gives the frame and the annotated overlay (encoded images) a round is scored from:
those its proposal (when given) settled on, else the latest."""


def no_pictures(proposal: RoundScore | None) -> RoundImages:
    """No camera: rounds are kept without pictures."""
    return RoundImages(None, None)


class JournalEffects:
    """The session's executor at a table: its effects carried out on the journal."""

    def __init__(self, journal: Journal, pictures: Pictures = no_pictures) -> None:
        self.journal = journal
        """Where every round is kept before it counts."""
        self.pictures = pictures
        """Where a written round's pictures come from (the loop's camera)."""

    def run(self, effect: Effect) -> Result:
        """Carry out `effect`; what came of it (`Failed` when the journal could not)."""
        try:
            return self._carry_out(effect)
        except (CompanionError, OSError) as error:
            log.warning("the journal could not %s: %s", _doing(effect), error)
            return Failed(effect, error_words(error), isinstance(error, DiskFullError))

    def _carry_out(self, effect: Effect) -> Result:
        journal = self.journal
        match effect:
            case StartGame():
                return GameStarted(effect, journal.start_game(effect.game, effect.colours))
            case WriteRound():
                images = self.pictures(effect.proposal)
                kept = journal.commit_round(
                    effect.game_id, effect.played, frame=images.frame, overlay=images.overlay
                )
                taken = images.frame is not None or images.overlay is not None
                return RoundWritten(effect, pictures_dropped=taken and not kept)
            case UndoRound():
                return RoundUndone(effect, journal.undo_round(effect.game_id))
            case CorrectRound():
                game = journal.correct_round(effect.game_id, effect.number, effect.reveal)
                return RoundCorrected(effect, game)
            case MarkAbandoned():
                journal.abandon_game(effect.game_id)
                return GameAbandoned(effect)
            case KeepSetup():
                journal.save_setup(effect.step, effect.draft.document())
                return SetupKept(effect)
            case RecallNames():
                return NamesRecalled(journal.recent_names())
            case RecallSetup():
                return SetupRecalled(journal.saved_setup())


def _doing(effect: Effect) -> str:
    """What the journal was asked, for the café's log."""
    match effect:
        case StartGame():
            return "start a game"
        case WriteRound():
            return f"store round {effect.number} of game {effect.game_id}"
        case UndoRound():
            return f"undo round {effect.number} of game {effect.game_id}"
        case CorrectRound():
            return f"correct round {effect.number} of game {effect.game_id}"
        case MarkAbandoned():
            return f"give up game {effect.game_id}"
        case KeepSetup():
            return "keep the setup"
        case RecallNames():
            return "read the names used before"
        case RecallSetup():
            return "read the setup kept"
