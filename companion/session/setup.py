"""Setting up a game at the table: the steps, their choices, and the seats on the table.

A group that sits down sets up its game on the table itself, with no keyboard:
language, edition, seats (each player lays an owner token on a card; the slot gives
the seat), names, options, and who tells first. This module holds what the screens
and the page read of it (the choices each step offers, the seats the owner tokens
give); the steps' transitions are `setup_steps`.
"""

from dataclasses import dataclass, replace

from companion.colours import WORDS
from companion.errors import CompanionError
from companion.kit.tags import parse_tag
from companion.language import Language
from companion.phrases import Phrase, listing, phrase, plural
from companion.rules import RULESETS, Game, Ruleset, find_ruleset
from companion.session.draft import OPTION_CHOICES, Draft
from companion.session.lineup import Lineup
from companion.session.states import (
    Choosing,
    Naming,
    PickingEdition,
    PickingLanguage,
    SessionState,
    TakingSeats,
    Tuning,
)
from companion.vision.assign import token_label
from companion.vision.records import TableObservation

LANGUAGES = tuple(Language)
"""The languages in the order the first step offers them."""
EDITIONS = tuple(RULESETS)
"""The editions in the order the edition step offers them."""
OPTIONS = tuple(OPTION_CHOICES)
"""The options in the order the options step lists them."""

STEP_NAMES: dict[type, str] = {
    PickingLanguage: "language",
    PickingEdition: "edition",
    TakingSeats: "seats",
    Naming: "names",
    Tuning: "options",
    Choosing: "first storyteller",
}
"""Each step's name, as the journal keeps the step a setup has reached (every step
before it done)."""


def placeholder(draft: Draft) -> tuple[Lineup, Game]:
    """The lineup and game a state holds before any game was set up: the edition's
    smallest table, never shown (the setup screens show the draft)."""
    rules = draft.rules
    lineup = Lineup.of_colours(min(rules.player_counts))
    return lineup, Game.start(rules, lineup.names, lineup.names[0])


def with_draft(state: SessionState, draft: Draft) -> SessionState:
    """The state with a changed draft; once the seats fit the edition, the lineup and
    the game about to start follow it (the first-storyteller step shows them)."""
    state = replace(state, draft=draft)
    if isinstance(state.at, Choosing) and draft.seats_fit():
        lineup = draft.lineup()
        game = Game.start(draft.rules, lineup.names, lineup.names[0])
        chosen = min(state.at.chosen, len(lineup.names) - 1)
        state = replace(state, lineup=lineup, game=game, at=replace(state.at, chosen=chosen))
    return state


@dataclass(frozen=True)
class SeatsOnTable:
    """The seats the owner tokens on the table give, and what cannot be a seat."""

    seats: tuple[str, ...]
    """Kit colours in seat order (by slot number)."""
    problems: tuple[Phrase, ...]
    """Conflicts, naming the colours and slots."""
    tokens: int
    """How many of the kit's tokens lie on the table."""


def seats_on_table(observation: TableObservation) -> SeatsOnTable:
    """Read the seats from the owner tokens: the slot a token lies on is its seat. A
    token hidden under another is a problem, as at play: an owner token under another
    would leave its player out of the seats unseen."""
    seats: list[str] = []
    problems: list[Phrase] = []
    tokens = len(observation.unplaced)
    for slot, contents in observation.slots.items():
        tokens += len(contents.owners) + len(contents.votes) + int(contents.trap)
        if len(contents.owners) > 1:
            colours = listing([WORDS[c] for c in contents.owners])
            problems.append(
                phrase(
                    "{colours} lie on slot {slot}: one seat per card, move one of them",
                    colours=colours,
                    slot=slot,
                )
            )
        elif contents.owners:
            seats.append(contents.owners[0])
    for duplicate in observation.duplicates:
        tokens += len(duplicate.slots) + duplicate.off_cards
        colour = parse_tag(duplicate.text).colour
        if colour is not None:
            problems.append(
                phrase(
                    "a {colour} token is on the table twice: one token per player",
                    colour=WORDS[colour],
                )
            )
    for covered in observation.covered:
        tokens += 1
        below, above = (token_label(parse_tag(t)) for t in (covered.text, covered.by))
        problems.append(covered.worded(below, above))
    kits = sorted({kit for kit in map(_kit_of, observation.foreign) if kit is not None})
    problems += [
        phrase("a token of another kit ({kit}) is on the table: take it away", kit=kit)
        for kit in kits
    ]
    return SeatsOnTable(tuple(seats), tuple(problems), tokens)


def _kit_of(text: str) -> str | None:
    try:
        return parse_tag(text).kit
    except CompanionError:
        return None


def player_range(rules: Ruleset) -> Phrase:
    """The numbers of players an edition allows: "3 to 12 players", "6, 8 or 10 players"."""
    counts = rules.player_counts
    if counts[-1] - counts[0] == len(counts) - 1:
        return phrase("{low} to {high} players", low=counts[0], high=counts[-1])
    return phrase("{counts} players", counts=listing([str(c) for c in counts]))


def count_problem(draft: Draft) -> Phrase:
    """Why the seats do not fit the draft's edition."""
    rules = find_ruleset(draft.ruleset)
    return plural(
        "{edition} is played by {players}, and {n} is seated",
        "{edition} is played by {players}, and {n} are seated",
        len(draft.seats),
        edition=rules.title_words,
        players=player_range(rules),
    )
