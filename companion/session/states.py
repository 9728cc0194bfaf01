"""The session's state as frozen records: one record per phase, one record for the whole.

A table is always in exactly one phase, and each phase holds what only it needs: a
`Proposal` its score and countdown, `Editing` its editor, `Winner` the moment the
game ended. What lasts across phases (the game, the table as last read, the guards
against scoring a table twice, the rabbits' hop, a message) sits beside it in
`SessionState`. Nothing here changes in place: the session's transitions take a
state and an event and return the next state (with the effects for the runtime to
carry out), and the screen, the LED strip and the web page read a `Snapshot` of it,
safely from any thread.
"""

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from companion.language import Language
from companion.phrases import Phrase
from companion.rules import Game, Reveal, RoundScore
from companion.session.draft import Draft
from companion.session.editor import RoundEditor
from companion.session.lineup import Lineup
from companion.session.questions import Questions
from companion.session.table import TableReport
from companion.vision.records import TableObservation

ANIMATION_SECONDS = 1.5
"""How long the rabbits take to hop to their new totals."""


class Phase(enum.Enum):
    """Which phase the table is in: the name of each phase record."""

    LANGUAGE = "language"
    """Setting up a game: the table's language."""
    EDITION = "edition"
    """Setting up a game: which edition of Dixit."""
    SEATS = "seats"
    """Setting up a game: who plays, and where each player sits."""
    NAMES = "names"
    """Setting up a game: the players' names (optional)."""
    OPTIONS = "options"
    """Setting up a game: the edition's presets, changed or not."""
    SETUP = "setup"
    """Setting up a game, last step: who tells first."""
    ABANDONING = "abandoning"
    """Asking whether to give up the game in progress."""
    WAITING = "waiting"
    """The round is being laid out; the table is read as it changes."""
    PROPOSAL = "proposal"
    """A legal round has settled: its score awaits confirmation."""
    CLEARING = "clearing"
    """The round is committed; the rabbits move; the table is to be cleared."""
    EDITING = "editing"
    """A round is entered or corrected by hand."""
    WINNER = "winner"
    """The game is over."""


@dataclass(frozen=True)
class PickingLanguage:
    """Setup: the language the table speaks to this group."""

    phase: ClassVar[Phase] = Phase.LANGUAGE
    cursor: int = 0
    """The language Next has moved to, in `Language` order."""


@dataclass(frozen=True)
class PickingEdition:
    """Setup: the edition, each with its one-line description and player range."""

    phase: ClassVar[Phase] = Phase.EDITION
    cursor: int = 0
    """The edition Next has moved to, in the registry's order."""


@dataclass(frozen=True)
class TakingSeats:
    """Setup: each player lays an owner token on a card; its slot gives the seat."""

    phase: ClassVar[Phase] = Phase.SEATS
    cursor: int = 0
    """The kit colour Next has moved to (the last place is "done")."""
    cleared: bool = False
    """Whether an empty table has been seen since this step began: the last game's
    tokens must not seat anybody."""
    problems: tuple[Phrase, ...] = ()
    """What on the table cannot be a seat (two tokens on one card, another kit's)."""


@dataclass(frozen=True)
class Naming:
    """Setup: names for the seats (optional); names used at this table are offered."""

    phase: ClassVar[Phase] = Phase.NAMES
    cursor: int = 0
    """The seat Next has moved to (the last place is "done")."""
    offered: tuple[str, ...] = ()
    """Names to offer: those typed on a phone during this step, then those used at
    this table before, newest first."""


@dataclass(frozen=True)
class Tuning:
    """Setup: the edition's presets, and a round limit for a café's time slots."""

    phase: ClassVar[Phase] = Phase.OPTIONS
    cursor: int = 0
    """The option Next has moved to (the last place is "done")."""


@dataclass(frozen=True)
class Choosing:
    """Before round 1: who tells first, by Next, a touch, or an owner token."""

    phase: ClassVar[Phase] = Phase.SETUP
    chosen: int = 0
    """Index (in seating order) of the player chosen to tell first."""
    cleared: bool = False
    """Whether an empty table has been seen since setup began: an owner token left
    from the last game must not choose the first storyteller."""


@dataclass(frozen=True)
class Waiting:
    """The round is being laid out; nothing can be confirmed yet."""

    phase: ClassVar[Phase] = Phase.WAITING


@dataclass(frozen=True)
class Proposal:
    """A legal round held still: its score waits for Confirm (or the countdown)."""

    phase: ClassVar[Phase] = Phase.PROPOSAL
    score: RoundScore
    """The rules engine's score of the table as it lies."""
    since: float
    """When it was proposed."""
    wait: float | None
    """Seconds after `since` at which it confirms itself; None when it waits for a
    press (no auto-confirm, or a table that was undone or could not be saved)."""


@dataclass(frozen=True)
class Clearing:
    """The round is kept; the table is to be cleared before the next one."""

    phase: ClassVar[Phase] = Phase.CLEARING


@dataclass(frozen=True)
class Editing:
    """A round entered by hand, or a past one corrected."""

    phase: ClassVar[Phase] = Phase.EDITING
    editor: RoundEditor
    """The round as the rows say."""
    opened_from: "Waiting | Proposal | Clearing | Winner"
    """The phase the editor was opened from."""
    problems: tuple[Phrase, ...] = ()
    """Why the last Save did not go through (the rules' own problems are the editor's)."""
    reviewing: bool = False
    """Whether the summary is shown, after the last question (Confirm saves there)."""

    @property
    def questions(self) -> Questions:
        """The editor as the screen asks it, one question at a time."""
        return Questions(self.editor, self.reviewing)


@dataclass(frozen=True)
class Winner:
    """The game is over: the final standings."""

    phase: ClassVar[Phase] = Phase.WINNER
    since: float
    """When the game ended; Confirm is ignored for a moment after (a bounced press)."""


@dataclass(frozen=True)
class Abandoning:
    """Asking whether to give up the game in progress: Confirm gives it up (it stays in
    the journal, marked abandoned), anything else goes back to it."""

    phase: ClassVar[Phase] = Phase.ABANDONING
    opened_from: "Waiting | Proposal | Clearing | Editing"
    """The phase the question was asked from."""


SetupStep = PickingLanguage | PickingEdition | TakingSeats | Naming | Tuning | Choosing
"""A step of setting up a game, in the order they come."""

PhaseState = (
    PickingLanguage
    | PickingEdition
    | TakingSeats
    | Naming
    | Tuning
    | Choosing
    | Waiting
    | Proposal
    | Clearing
    | Editing
    | Winner
    | Abandoning
)
"""One phase record."""


@dataclass(frozen=True)
class TableRead:
    """The table as the stabiliser last showed it, read as the game's next round."""

    observation: TableObservation
    """What lies where."""
    report: TableReport
    """The next round as it lies, and what stops it being scored."""
    steady: bool
    """Whether the table has held still long enough to be scored."""
    blind: bool = False
    """Whether the latest frame missed most of the table: a proposal on the screen
    stays, but none starts and none confirms itself on such a frame."""


@dataclass(frozen=True)
class Guards:
    """What keeps a table from being scored twice."""

    scored_table: Reveal | None = None
    """The last committed round as it was read from the table: never proposed again."""
    to_clear: bool = False
    """Whether the last committed round's table has yet to be cleared."""
    wait_for_press: Reveal | None = None
    """A table that must not confirm itself (undone, or not saved): it waits for
    Confirm until the table changes."""


@dataclass(frozen=True)
class Hop:
    """Rabbits moving from the old totals to the new ones."""

    start: Mapping[str, int]
    """Totals before."""
    end: Mapping[str, int]
    """Totals after."""
    began: float
    """When the hop started."""


@dataclass(frozen=True)
class Message:
    """A one-off message ("round 4 undone"), shown until a moment."""

    text: Phrase
    """The words."""
    until: float
    """When it goes."""


@dataclass(frozen=True)
class Marks:
    """The snapshot versions at which what a press or a command acts on last changed
    (set as each snapshot is published, by `versions.marked`): a Confirm made from an
    older snapshot than `phase`, or an Undo older than `rounds`, meant something else."""

    version: int = 0
    """The version this state was published as."""
    phase: int = 0
    """Since when the table has been in this phase (for a proposal: this proposal)."""
    rounds: int = 0
    """Since when the game at the table has had these rounds (or been this game)."""


@dataclass(frozen=True)
class SessionState:
    """Everything about one table's game at one moment."""

    at: PhaseState
    """The phase, with what only it holds."""
    lineup: Lineup
    """Who plays in which colour."""
    game: Game
    """The game as committed (before round 1: the game about to start; while a new
    game is set up, the last one, which the setup can go back to)."""
    draft: Draft
    """The next game as set up, or the game being played as it was set up; its
    language is the table's."""
    game_id: int | None = None
    """The game's number in the journal, once started."""
    table: TableRead | None = None
    """The latest settled table, read against the game as it stands; None without a
    camera or after it failed."""
    guards: Guards = field(default_factory=Guards)
    """Against double scoring."""
    hop: Hop | None = None
    """The last hop of the rabbits."""
    message: Message | None = None
    """The last one-off message."""
    marks: Marks = field(default_factory=Marks)
    """The versions at which the phase and the game's rounds last changed."""

    @property
    def phase(self) -> Phase:
        """Which phase the table is in."""
        return self.at.phase

    @property
    def proposal(self) -> RoundScore | None:
        """The score awaiting confirmation, in `Phase.PROPOSAL`."""
        return self.at.score if isinstance(self.at, Proposal) else None

    @property
    def editor(self) -> RoundEditor | None:
        """The round editor, in `Phase.EDITING`."""
        return self.at.editor if isinstance(self.at, Editing) else None

    @property
    def language(self) -> Language:
        """The language the table speaks."""
        return self.draft.language

    @property
    def setting_up(self) -> bool:
        """Whether a new game is being set up."""
        return isinstance(self.at, SetupStep)

    def saying(self, text: Phrase, now: float, seconds: float = 6.0) -> "SessionState":
        """The state with a one-off message on the screen for `seconds` from `now`."""
        return dataclasses.replace(self, message=Message(text, now + seconds))

    def says(self, now: float) -> Phrase | None:
        """The one-off message still on the screen at `now`."""
        message = self.message
        return message.text if message is not None and now < message.until else None

    def hopping(self, now: float) -> bool:
        """Whether the rabbits are still moving."""
        return self.hop is not None and now - self.hop.began < ANIMATION_SECONDS

    def positions(self, now: float) -> Mapping[str, float]:
        """Where each scorer's rabbit stands now, between spaces while hopping."""
        totals = self.game.totals
        if self.hop is None or not self.hopping(now):
            return {s: float(t) for s, t in totals.items()}
        share = (now - self.hop.began) / ANIMATION_SECONDS
        eased = share * share * (3 - 2 * share)
        start, end = self.hop.start, self.hop.end
        return {s: start.get(s, 0) + (end.get(s, 0) - start.get(s, 0)) * eased for s in totals}

    def countdown(self, now: float) -> float | None:
        """Seconds left before the proposal confirms itself, if it will."""
        at = self.at
        if not isinstance(at, Proposal) or at.wait is None:
            return None
        return max(0.0, at.wait - (now - at.since))

    def already_scored(self) -> bool:
        """Whether the table still shows the last committed round as it was read."""
        table = self.table
        return (
            table is not None
            and bool(table.report.tokens)
            and table.report.reveal == self.guards.scored_table
        )


@dataclass(frozen=True)
class Snapshot:
    """The state as published after a change, numbered so a reader can tell it is new."""

    version: int
    """Goes up by one with every change of state."""
    state: SessionState
    """The state after that change."""
