"""What the session asks the runtime to do, what came of it, and one transition's step.

The transitions never touch the journal: each takes a state and an event and returns
a `Step`, the next state with the effects for the runtime to carry out (start this
game, write this round, mark this game abandoned, keep this setup). The runtime's
executor carries them out one at a time and hands back what came of each as a
result (`RoundWritten`, `Failed` with the reason), which the transitions take in
turn, before anything is published. So a round counts only once the journal has
stored it, as ever, and a test can drive the transitions with a fake executor.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from companion.phrases import Phrase
from companion.rules import Game, Reveal, RoundScore
from companion.session.commands import Refusal, SetUp
from companion.session.draft import Draft
from companion.session.states import SessionState


@dataclass(frozen=True)
class StartGame:
    """Store a new game, its first storyteller chosen, before its first round."""

    game: Game
    """The game as it starts (no round played)."""
    colours: Mapping[str, str]
    """Every player's kit colour, by name."""


@dataclass(frozen=True)
class WriteRound:
    """Store the round just played, with the pictures it was scored from."""

    game_id: int
    """The game's number in the journal."""
    played: Game
    """The game right after the round."""
    reveal: Reveal
    """The round as it lay (or as it was entered by hand)."""
    proposal: RoundScore | None
    """The proposal whose pictures go with the round; None for a round entered by
    hand (the latest pictures)."""

    @property
    def number(self) -> int:
        """The round's number (1 for the first)."""
        return len(self.played.played)


@dataclass(frozen=True)
class UndoRound:
    """Delete the last round of the game in progress."""

    game_id: int
    """The game's number in the journal."""
    number: int
    """The round deleted."""


@dataclass(frozen=True)
class CorrectRound:
    """Replace what lay on the table in a past round and rescore the game from there."""

    game_id: int
    """The game's number in the journal."""
    number: int
    """The round corrected (1 for the first)."""
    reveal: Reveal
    """What truly lay on the table."""
    asked: bool = False
    """Whether the phone page asked for it (it hears why it failed), rather than the
    table's editor."""


@dataclass(frozen=True)
class MarkAbandoned:
    """Mark the game in progress abandoned: it stays in the journal as it was."""

    game_id: int
    """The game's number in the journal."""
    asked: bool = False
    """Whether the phone page asked for it (it hears why it failed), rather than the
    table's question."""


@dataclass(frozen=True)
class KeepSetup:
    """Keep the setup step reached and the draft, so a restart goes on from there."""

    step: str
    """The step's name (`setup.STEP_NAMES`)."""
    draft: Draft
    """The game as set up so far."""
    told: bool = True
    """Whether the table says so when it could not be kept (not when it has more
    important news on the screen)."""
    asked: SetUp | None = None
    """A setup typed on a phone, taken only once it is kept (until then the state
    is the one before it)."""


@dataclass(frozen=True)
class RecallNames:
    """Read the names used at this table before, to offer them at the names step."""


@dataclass(frozen=True)
class RecallSetup:
    """Read the setup step and draft kept before a restart."""


Effect = (
    StartGame
    | WriteRound
    | UndoRound
    | CorrectRound
    | MarkAbandoned
    | KeepSetup
    | RecallNames
    | RecallSetup
)
"""Anything the runtime carries out for the session."""


@dataclass(frozen=True)
class GameStarted:
    """The game is stored."""

    start: StartGame
    """What was asked."""
    game_id: int
    """Its number in the journal."""


@dataclass(frozen=True)
class RoundWritten:
    """The round is stored: it counts."""

    write: WriteRound
    """What was asked."""
    pictures_dropped: bool = False
    """Whether the round was stored without its pictures (no room for them)."""


@dataclass(frozen=True)
class RoundUndone:
    """The last round is deleted."""

    undo: UndoRound
    """What was asked."""
    game: Game
    """The game without it."""


@dataclass(frozen=True)
class RoundCorrected:
    """The round is corrected and the game rescored."""

    correction: CorrectRound
    """What was asked."""
    game: Game
    """The game rescored."""


@dataclass(frozen=True)
class GameAbandoned:
    """The game is marked abandoned."""

    abandon: MarkAbandoned
    """What was asked."""


@dataclass(frozen=True)
class SetupKept:
    """The setup step and draft are kept."""

    keep: KeepSetup
    """What was asked."""


@dataclass(frozen=True)
class NamesRecalled:
    """The names used at this table before, newest first."""

    names: tuple[str, ...]
    """As the journal kept them (an older companion kept names of any length)."""


@dataclass(frozen=True)
class SetupRecalled:
    """The setup kept before a restart, if any."""

    saved: tuple[str, Mapping[str, Any]] | None
    """The step reached and the draft's document, or None."""


@dataclass(frozen=True)
class Failed:
    """An effect the runtime could not carry out: nothing of it was done."""

    effect: Effect
    """What was asked."""
    error: Phrase
    """Why, in words for the screen."""
    card_full: bool = False
    """Whether the card (or disk) holding the journal is full."""


Result = (
    GameStarted
    | RoundWritten
    | RoundUndone
    | RoundCorrected
    | GameAbandoned
    | SetupKept
    | NamesRecalled
    | SetupRecalled
    | Failed
)
"""What came of an effect."""


class Executor(Protocol):
    """Carries out the session's effects (the runtime's, or a test's fake)."""

    def run(self, effect: Effect) -> Result:
        """Carry out `effect`; what came of it (`Failed` when it could not be done)."""
        ...


@dataclass(frozen=True)
class Step:
    """What a transition gives: the next state, what the runtime is to do (in order),
    and why a command from the page was refused, if it was."""

    state: SessionState
    """The state after the event (before any effect is carried out)."""
    effects: tuple[Effect, ...] = ()
    """What the runtime is to carry out, in order."""
    refused: Refusal | None = None
    """Why a command was refused (None: done, or not a command)."""

    def map(self, change: Callable[[SessionState], SessionState]) -> "Step":
        """The same step with its state changed by `change`."""
        return replace(self, state=change(self.state))

    def then(self, more: Callable[[SessionState], "Step"]) -> "Step":
        """This step followed by `more` of its state: the effects of both, in order."""
        after = more(self.state)
        refused = after.refused if after.refused is not None else self.refused
        return Step(after.state, self.effects + after.effects, refused)
