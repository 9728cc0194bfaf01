"""What the screen shows, as plain values: the game loop builds a `ScreenView`, the
display draws it.

Nothing here knows pygame, and nothing in the display knows the rules: the loop
decides every word and number, the display only decides where they go. A test can
check a view without drawing it, and draw any view without playing a game.
"""

import enum
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.actions import Action
from companion.colours import RGB
from companion.phrases import Phrase
from companion.track import TRACK_LENGTH


class Level(enum.Enum):
    """How a notice is drawn."""

    INFO = "info"
    """Good to know: a code that is not ours in view, the camera mode."""
    WAITING = "waiting"
    """Something the table still lacks: votes, owner tokens."""
    PROBLEM = "problem"
    """Something wrong on the table that must be put right before scoring."""


@dataclass(frozen=True)
class Rabbit:
    """One player's (or team's) rabbit on the track."""

    name: str
    """The player or team, as shown ("Ann", "Ann + Bob")."""
    colours: tuple[RGB, ...]
    """Its colour; a team's rabbit has one colour per member."""
    total: int
    """The score written next to the name."""
    position: float
    """Where the rabbit stands now, in track spaces: equal to `total` at rest and
    between the old and new totals while it moves."""
    storyteller: bool = False
    """Whether this player (or a member of this team) tells in the current round."""


@dataclass(frozen=True)
class Notice:
    """A line in the list of what the table waits for and what is wrong."""

    text: str
    """The words, naming the player and slot ("Blue voted for their own card, slot 2")."""
    level: Level
    """How it is drawn."""


@dataclass(frozen=True)
class ScoreLine:
    """One scorer's points in a round."""

    name: str
    """The player or team."""
    colours: tuple[RGB, ...]
    """Their colour(s), for the swatch."""
    points: int
    """Points won this round."""
    reasons: tuple[str, ...]
    """Why, one short line per award ("+3 storyteller: some found the card")."""


@dataclass(frozen=True)
class Breakdown:
    """A round's points with their reasons."""

    title: str
    """"Proposed score: round 4" or "Round 3"."""
    lines: tuple[ScoreLine, ...]
    """Every scorer, in seating order."""


@dataclass(frozen=True)
class CameraView:
    """The small camera picture and what is known about the source."""

    image: npt.NDArray[np.uint8] | None
    """A small BGR picture with tags and slot assignments already drawn on it, or
    None when there is no frame to show."""
    status: Phrase | str
    """One line: "camera: simulated table, 10 fps" or why there is no picture. The
    camera says it as a phrase; `present` puts it into the table's language."""
    working: bool
    """False when the source has failed; the status then says what to do."""
    no_picture: str = "no picture yet"
    """Shown where the picture goes before the first frame."""
    failed: str = "Camera not working"
    """The heading of a failed camera's panel."""


@dataclass(frozen=True)
class OnScreenButton:
    """A button drawn on the screen, for mouse and touch."""

    label: str
    """The words on it ("Confirm")."""
    action: Action
    """What touching it does."""
    enabled: bool = True
    """Disabled buttons are drawn greyed out and do nothing."""


@dataclass(frozen=True)
class EditorView:
    """The round editor, one question at a time: a round entered or corrected by hand."""

    title: str
    """"Enter round 5 by hand" or "Correct round 3"."""
    question: str
    """What is asked ("Margot's card: which slot?"); on the summary, whether the round
    can be saved ("Save round 5?")."""
    answer: str
    """The answer as it stands ("5", "none"), which the arrows change; "" on the summary."""
    progress: str
    """How far along the questions are ("3 / 24")."""
    problem: str = ""
    """Why the answer is not allowed ("Lucien voted for slot 3, their own card"), or
    on the summary why the round cannot be saved; "" when nothing is wrong."""
    unanswered: bool = False
    """Whether `problem` only says that the question still wants an answer."""
    summary: tuple[str, ...] = ()
    """On the summary: a few short lines about the round as answered."""
    preview: Breakdown | None = None
    """On the summary: the score the round would get (for a past round: the new
    score), when it can be saved."""
    reviewing: bool = False
    """Whether this is the summary, after the last question."""


@dataclass(frozen=True)
class Choice:
    """One line of a setup step: a language, an edition, a seat, a name, an option."""

    label: str
    """The thing chosen ("Dixit Odyssey", "Red", "Target")."""
    detail: str = ""
    """A line about it: the edition's description, a seat's name, an option's value."""
    colours: tuple[RGB, ...] = ()
    """A swatch: the seat's or player's colour."""
    selected: bool = False
    """Whether Next's cursor is on it (Confirm acts on it)."""
    picked: bool = False
    """Whether it is part of the choice (the language spoken, a colour seated)."""
    badge: str = ""
    """A short mark at its end: the slot a seat's token lies on, "tells first"."""


@dataclass(frozen=True)
class Group:
    """Players shown together beside a step: a team in the team editions."""

    label: str
    """"Team 1"."""
    members: tuple[tuple[str, RGB], ...]
    """Its players, with their colours."""


@dataclass(frozen=True)
class StepView:
    """One step of setting up a game at the table."""

    steps: tuple[str, ...]
    """Every step's short name, in order ("Language", "Edition", ...)."""
    step: int
    """Which of `steps` this is (0 for the first)."""
    question: str
    """What the step asks ("Who plays? Lay your owner token on a card")."""
    choices: tuple[Choice, ...]
    """The lines to choose among; touching one posts a pick of its index."""
    hint: str
    """How to choose, by touch, buttons or tokens."""
    summary: str = ""
    """The game as set up so far ("Dixit Odyssey - 5 players - to 30 points")."""
    problems: tuple[str, ...] = ()
    """What stops the step (two tokens on one card, too few players)."""
    groups: tuple[Group, ...] = ()
    """Teams that follow from the seating, in team editions."""
    columns: int = 1
    """How many columns the choices are laid out in."""


@dataclass(frozen=True)
class WinnerView:
    """The end of the game."""

    winners: tuple[str, ...]
    """The winner, or those who share the win."""
    reason: str
    """Why the game ended ("a score reached 30 after round 9")."""
    standings: tuple[tuple[str, tuple[RGB, ...], int], ...]
    """Every scorer with colours and final total, best first."""
    heading: str = "Winner"
    """The word above a single winner's name."""
    shared_heading: str = "Winners"
    """The word above the names of those who share the win."""


@dataclass(frozen=True)
class ScreenView:
    """Everything on the screen at one moment."""

    title: str
    """Top line: edition and round ("Dixit Odyssey - round 4")."""
    headline: str
    """The one sentence that says what happens now, drawn large."""
    rabbits: tuple[Rabbit, ...]
    """Every scorer's rabbit, in seating order."""
    notices: tuple[Notice, ...] = ()
    """What the table waits for and what is wrong, most urgent first."""
    proposal: Breakdown | None = None
    """The score awaiting confirmation."""
    last_round: Breakdown | None = None
    """The last committed round's score."""
    camera: CameraView | None = None
    """The camera picture and status, when a source is in use."""
    buttons: tuple[OnScreenButton, ...] = ()
    """Buttons for mouse and touch, left to right."""
    countdown: float | None = None
    """Seconds left before the proposal confirms itself, when auto-confirm is on."""
    footer: str = ""
    """Small print: piles, turns left, the journal file."""
    editor: EditorView | None = None
    """The round editor, while a round is entered or corrected by hand."""
    setup: StepView | None = None
    """The step of setting up a new game, while one is set up."""
    winner: WinnerView | None = None
    """The final standings, once the game is over."""
    target: int | None = TRACK_LENGTH
    """The winning score, marked on the track when it is a score to reach."""
    more_notices: str = "+{n} more"
    """The last line of the notices when not all fit, `{n}` being how many are left out."""
    page: str | None = None
    """The phone page's address, shown as a QR code; None when there is no page."""
    details_elsewhere: str = "details on the phone page"
    """The line that says the reasons behind the points are on the phone page, when the
    screen cannot hold them at a size read from the seats."""
    page_caption: str = "Follow the game on your phone"
    """The words under the page's large QR code (setup and winner screens)."""
