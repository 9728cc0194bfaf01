"""The simulated group at the demo's table: the game it sets up, and how.

A group sitting down sets up its game on the table's screens as a real group does:
a touch for the language and the edition, owner tokens laid on cards for the seats,
names typed on a phone, the options, who tells first. `setup_move` is its next touch
at each step; a step set up otherwise than the group wants (a setup the journal kept)
is gone back to.
"""

from dataclasses import dataclass

from companion.actions import Action, Press
from companion.errors import CompanionError, PlayerCountError
from companion.language import Language
from companion.rules import OPTION_NAMES, Ruleset, find_ruleset
from companion.runtime.loop import Loop
from companion.session.draft import KIT_COLOURS, Draft
from companion.session.setup import EDITIONS, LANGUAGES, OPTIONS
from companion.session.states import Phase, SessionState, TakingSeats
from companion.sim.players import Moment

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lea")
"""The names the group types for its seats, in seat order."""
SETUP_STEPS = (
    Phase.LANGUAGE,
    Phase.EDITION,
    Phase.SEATS,
    Phase.NAMES,
    Phase.OPTIONS,
    Phase.SETUP,
)
"""The setup steps in the order they come."""


@dataclass(frozen=True)
class Group:
    """The game the simulated group sets up."""

    language: Language
    """The language it touches at the first step."""
    ruleset: Ruleset
    """The edition it touches, with the options it plays by."""
    seats: tuple[str, ...]
    """Its kit colours in seat order (the slot each owner token is laid on)."""
    names: tuple[str, ...]
    """The names it types, in seat order."""

    @classmethod
    def of(
        cls,
        language: Language,
        ruleset: Ruleset,
        players: int,
        names: tuple[str, ...] | None = None,
    ) -> "Group":
        """`players` players with the first kit colours, named `names` (the first
        `NAMES` when None)."""
        named = NAMES[:players] if names is None else names
        if len(named) != players:
            raise PlayerCountError(f"{players} players cannot take {len(named)} names")
        return cls(language, ruleset, KIT_COLOURS[:players], named)

    @property
    def colours(self) -> dict[str, str]:
        """Each player's kit colour, in seat order."""
        return dict(zip(self.names, self.seats, strict=True))

    def kept(self, language: Language) -> Draft:
        """The draft a fresh setup starts from: the table's language, and the edition
        with the group's options (the options page offers only some values, and a
        benchmark plays a game without end)."""
        base = find_ruleset(self.ruleset.name)
        options = tuple(
            sorted(
                (name, getattr(self.ruleset, name))
                for name in OPTION_NAMES
                if getattr(self.ruleset, name) != getattr(base, name)
            )
        )
        return Draft(language=language, ruleset=self.ruleset.name, options=options)


@dataclass(frozen=True)
class Typed:
    """A name typed on a phone for a seat."""

    colour: str
    """The seat's kit colour."""
    name: str
    """The name."""


def setup_move(
    state: SessionState, group: Group, *, phone_names: bool = False
) -> Press | Typed | None:
    """The group's next touch at the setup step on the screen, or the next name it
    types; None while it waits for the table (its tokens to be read, or with
    `phone_names` every seat to be named on the phone page). A step set up otherwise
    than the group wants (a setup the journal kept) is gone back to."""
    draft, at = state.draft, state.at
    right = (
        draft.language is group.language,
        draft.ruleset == group.ruleset.name,
        draft.seats == group.seats,
        phone_names or dict(draft.names) == dict(zip(group.seats, group.names, strict=True)),
        all(draft.option(name) == getattr(group.ruleset, name) for name in OPTION_NAMES),
    )
    wrong = right.index(False) if False in right else len(right)
    if SETUP_STEPS.index(state.phase) > wrong:
        return Press(Action.BACK)
    match state.phase:
        case Phase.LANGUAGE:
            return Press(Action.PICK, LANGUAGES.index(group.language))
        case Phase.EDITION:
            return Press(Action.PICK, EDITIONS.index(group.ruleset.name))
        case Phase.SEATS:
            ready = right[2] and isinstance(at, TakingSeats) and not at.problems
            return Press(Action.PICK, len(KIT_COLOURS)) if ready else None
        case Phase.NAMES if phone_names:
            named = all(colour in dict(draft.names) for colour in draft.seats)
            return Press(Action.PICK, len(draft.seats)) if named else None
        case Phase.NAMES:
            given = dict(draft.names)
            for colour, name in zip(group.seats, group.names, strict=True):
                if given.get(colour) != name:
                    return Typed(colour, name)
            return Press(Action.PICK, len(draft.seats))
        case Phase.OPTIONS if right[4]:
            return Press(Action.PICK, len(OPTIONS))
        case Phase.OPTIONS:
            raise CompanionError(
                f"the setup kept in the journal plays {draft.rules.name} with other options "
                "than the demo's: run the demo without --resume"
            )
        case _:
            return None


def make_move(move: Press | Typed, loop: Loop, now: float) -> None:
    """Hand the group's move to the table: a touch goes through the loop, where real
    touches go; a name typed on a phone, straight to the session."""
    if isinstance(move, Typed):
        loop.session.name(move.colour, move.name, now)
    else:
        loop.post(move)


def leaves_list(state: SessionState, move: Press | Typed) -> bool:
    """Whether `move` leaves the seats or names step: its screen, filled, is saved."""
    return isinstance(move, Press) and state.phase in (Phase.SEATS, Phase.NAMES)


def moment(phase: Phase) -> Moment:
    """What the screen asks of the simulated players in `phase`."""
    match phase:
        case Phase.SEATS:
            return Moment.SEATING
        case Phase.NAMES | Phase.OPTIONS:
            return Moment.CLEARING
        case Phase.SETUP:
            return Moment.CHOOSING
        case Phase.WAITING | Phase.PROPOSAL:
            return Moment.LAYING
        case Phase.CLEARING | Phase.WINNER:
            return Moment.CLEARING
        case Phase.LANGUAGE | Phase.EDITION | Phase.EDITING | Phase.ABANDONING:
            return Moment.WATCHING
