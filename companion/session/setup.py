"""Setting up a game at the table: the transitions of the setup steps.

A group that sits down sets up its game on the table itself, with no keyboard:
language, edition, seats (each player lays an owner token on a card; the slot gives
the seat), names, options, and who tells first. Every step works by touch, by the
three buttons alone (Next moves, Confirm picks, a held Undo goes back) and, for the
seats and the first storyteller, by the camera. Each finished step is kept in the
journal, so a restart goes on from the last step done; going back never loses the
last game, which stays in the journal as it was.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.actions import Action, Press
from companion.colours import WORDS
from companion.errors import CompanionError
from companion.journal import Journal
from companion.kit.tags import parse_tag
from companion.language import Language
from companion.names import name_fault as unusable
from companion.names import player_name
from companion.phrases import Phrase, listing, phrase, plural
from companion.rules import RULESETS, Game, Ruleset, find_ruleset
from companion.session.commands import SetUp, Unkept, unkept
from companion.session.draft import KIT_COLOURS, OPTION_CHOICES, Draft
from companion.session.lineup import Lineup
from companion.session.setup_checks import asked_draft, name_fault
from companion.session.states import (
    Choosing,
    Guards,
    Naming,
    PickingEdition,
    PickingLanguage,
    SessionState,
    SetupStep,
    TakingSeats,
    Tuning,
    Winner,
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


class SetupSteps:
    """The setup steps' transitions, and the journal they keep the setup in."""

    def __init__(self, journal: Journal, start_game: Callable[[SessionState, float], SessionState]):
        self.journal = journal
        """Where each finished step is kept, and the names used before are read."""
        self.start_game = start_game
        """Starts the game once the first storyteller is chosen (the session's)."""

    def pressed(self, state: SessionState, at: SetupStep, press: Press, now: float) -> SessionState:
        """A press during setup."""
        action = press.action
        if action in (Action.BACK, Action.UNDO):
            return self.back(state, at, now)
        match at:
            case PickingLanguage():
                return self._language(state, at, press, now)
            case PickingEdition():
                return self._edition(state, at, press, now)
            case TakingSeats():
                return self._seats(state, at, press, now)
            case Naming():
                return self._names(state, at, press, now)
            case Tuning():
                return self._options(state, at, press, now)
            case Choosing():
                return self._first(state, at, press, now)

    def back(self, state: SessionState, at: SetupStep, now: float) -> SessionState:
        """One step back; from the first step, back to the last game's standings."""
        match at:
            case PickingLanguage():
                if state.game_id is None or state.game.outcome is None:
                    return state
                game, lineup = state.game, state.lineup
                draft = Draft.of_lineup(game.ruleset, lineup, state.language)
                return replace(state, draft=draft, at=Winner(now))
            case PickingEdition():
                return replace(state, at=PickingLanguage(LANGUAGES.index(state.language)))
            case TakingSeats():
                return replace(state, at=PickingEdition(EDITIONS.index(state.draft.ruleset)))
            case Naming():  # the tokens lying there are this group's own
                return replace(state, at=TakingSeats(cleared=True))
            case Tuning():
                return self._enter_names(state)
            case Choosing():
                return replace(state, at=Tuning())

    def seen(
        self, state: SessionState, at: TakingSeats, observation: TableObservation, steady: bool
    ) -> SessionState:
        """The table during the seats step: owner tokens laid on cards take seats."""
        read = seats_on_table(observation)
        cleared = at.cleared or read.tokens == 0
        at = replace(at, cleared=cleared, problems=read.problems if cleared else ())
        state = replace(state, at=at)
        if not cleared or not steady or read.seats == state.draft.seats:
            return state
        if not read.seats and not read.problems:  # seats chosen by hand stay
            return state
        return replace(state, draft=replace(state.draft, seats=read.seats))

    def named(self, state: SessionState, colour: str, name: str, now: float) -> SessionState:
        """A name typed elsewhere for a seat: shown at once, unless the table could not
        seat it (another seat's name, a character names may not hold)."""
        draft = state.draft
        if colour not in draft.seats:
            return state
        if name:
            fault = name_fault(draft, colour, name)
            if fault is not None:
                return state.saying(fault, now)
            name = player_name(name)
            at = state.at
            if isinstance(at, Naming) and name not in at.offered:  # offered again if undone
                state = replace(state, at=replace(at, offered=(name, *at.offered)))
        return with_draft(state, draft.with_name(colour, name))

    def set_up(
        self, before: SessionState, asked: SetUp, now: float
    ) -> tuple[SessionState, Phrase | Unkept | None]:
        """A setup typed on a phone: the edition, options and names, all taken (and kept
        in the journal) or, with the reason, none. A new edition moves a table still at
        the language or edition step on to the seats; one that no longer fits the seats
        goes back to them."""
        if not before.setting_up:
            return before, phrase("the table is not setting up a game: names wait for the next")
        draft, at, state = asked_draft(before.draft, asked), before.at, before
        if isinstance(draft, Phrase):
            return state, draft
        early = isinstance(at, PickingLanguage | PickingEdition)
        new_edition = draft.ruleset != state.draft.ruleset
        if (new_edition and not draft.seats_fit()) or (early and (new_edition or asked.options)):
            at = TakingSeats(cleared=True)
        state = replace(state, at=at)
        if isinstance(at, Choosing):
            state = self.enter_first(replace(state, draft=draft), at.chosen)
        else:
            state = with_draft(state, draft)
        at = state.at
        if isinstance(at, Naming):
            typed = [n for n in dict(draft.names).values() if n not in at.offered]
            state = replace(state, at=replace(at, offered=(*typed, *at.offered)))
        fault = self.kept(state)
        return (before.saying(fault.words, now), fault) if fault else (state, None)

    def new_group(self, state: SessionState, language: Language, now: float) -> SessionState:
        """From the standings (or an abandoned game): set up a game for a new group."""
        draft = Draft(language=language, ruleset=state.draft.ruleset)
        fresh = replace(state, draft=draft, at=PickingLanguage(LANGUAGES.index(language)))
        return self.keep(fresh, now)

    def started(self, state: SessionState) -> None:
        """A game has started from the draft: a restart without a game in progress sets
        up the next group's game, offering this one's language and edition."""
        draft = state.draft
        try:
            self.journal.save_setup(
                STEP_NAMES[PickingLanguage], Draft(draft.language, draft.ruleset).document()
            )
        except (CompanionError, OSError):
            return

    def _language(
        self, state: SessionState, at: PickingLanguage, press: Press, now: float
    ) -> SessionState:
        cursor = _moved(at.cursor, press, len(LANGUAGES))
        if cursor is None:
            return state
        draft = replace(state.draft, language=LANGUAGES[cursor])
        state = replace(state, draft=draft, at=replace(at, cursor=cursor))
        if not _picks(press):
            return state
        at_edition = PickingEdition(EDITIONS.index(draft.ruleset))
        return self.keep(replace(state, at=at_edition), now)

    def _edition(
        self, state: SessionState, at: PickingEdition, press: Press, now: float
    ) -> SessionState:
        cursor = _moved(at.cursor, press, len(EDITIONS))
        if cursor is None:
            return state
        state = replace(state, at=replace(at, cursor=cursor))
        if not _picks(press):
            return state
        name = EDITIONS[cursor]
        draft = state.draft
        if name != draft.ruleset:
            draft = replace(draft, ruleset=name, options=())
        return self.keep(replace(state, draft=draft, at=TakingSeats()), now)

    def _seats(
        self, state: SessionState, at: TakingSeats, press: Press, now: float
    ) -> SessionState:
        places = len(KIT_COLOURS) + 1
        cursor = _moved(at.cursor, press, places)
        if cursor is None:
            return state
        state = replace(state, at=replace(at, cursor=cursor))
        if not _picks(press):
            return state
        draft = state.draft
        if cursor < len(KIT_COLOURS):
            colour = KIT_COLOURS[cursor]
            if colour in draft.seats:
                draft = replace(draft, seats=tuple(c for c in draft.seats if c != colour))
            else:
                draft = replace(draft, seats=(*draft.seats, colour))
            return replace(state, draft=draft)
        if at.problems:
            first = at.problems[0]
            return state.saying(phrase("put the table right first: {problem}", problem=first), now)
        if not draft.seats_fit():
            return state.saying(_count_problem(draft), now)
        return self.keep(self._enter_names(state), now)

    def _enter_names(self, state: SessionState) -> SessionState:
        try:  # an older companion kept names of any length: only usable ones are offered
            offered = tuple(n for n in self.journal.recent_names() if not unusable(n))
        except (CompanionError, OSError):
            offered = ()
        return replace(state, at=Naming(offered=offered))

    def _names(self, state: SessionState, at: Naming, press: Press, now: float) -> SessionState:
        seats = state.draft.seats

        def change(line: int, step: int) -> Draft:
            return _next_name(state.draft, at, seats[line], step)

        def done(state: SessionState) -> SessionState:
            return self.keep(replace(state, at=Tuning()), now)

        return _lines(state, at, press, len(seats), change, done)

    def _options(self, state: SessionState, at: Tuning, press: Press, now: float) -> SessionState:
        def change(line: int, step: int) -> Draft:
            return _next_option(state.draft, OPTIONS[line], step)

        def done(state: SessionState) -> SessionState:
            return self.keep(self.enter_first(state), now)

        return _lines(state, at, press, len(OPTIONS), change, done)

    def enter_first(self, state: SessionState, chosen: int = 0) -> SessionState:
        """The last step: the game about to start, and who tells first (the seats step
        instead, for a draft whose seats do not fit its edition)."""
        draft = state.draft
        if not draft.seats_fit():
            return replace(state, at=TakingSeats(cleared=True))
        lineup = draft.lineup()
        game = Game.start(draft.rules, lineup.names, lineup.names[0])
        at = Choosing(min(chosen, len(lineup.names) - 1))
        return replace(
            state, at=at, lineup=lineup, game=game, game_id=None, hop=None, guards=Guards()
        )

    def _first(self, state: SessionState, at: Choosing, press: Press, now: float) -> SessionState:
        count = len(state.lineup.names)
        match press.action:
            case Action.NEXT | Action.RIGHT | Action.DOWN:
                return replace(state, at=replace(at, chosen=(at.chosen + 1) % count))
            case Action.LEFT | Action.UP:
                return replace(state, at=replace(at, chosen=(at.chosen - 1) % count))
            case Action.PICK if press.target is not None and 0 <= press.target < count:
                return replace(state, at=replace(at, chosen=press.target))
            case Action.CONFIRM:
                return self.start_game(state, now)
            case _:
                return state

    def keep(self, state: SessionState, now: float) -> SessionState:
        """Keep the step reached and the draft in the journal: a restart goes on from
        here. A journal that cannot keep it does not stop the setup at the table."""
        fault = self.kept(state)
        return state if fault is None else state.saying(fault.words, now)

    def kept(self, state: SessionState) -> Unkept | None:
        """Keep the step and draft of `state`; why not, in plain words, when it failed."""
        try:
            self.journal.save_setup(STEP_NAMES[type(state.at)], state.draft.document())
        except (CompanionError, OSError) as error:
            return unkept(error, "the setup")
        return None


def resumed_step(step: str, state: SessionState, steps: SetupSteps) -> SessionState:
    """The state of a setup the journal kept, at the step it had reached."""
    draft = state.draft
    match step:
        case "edition":
            return replace(state, at=PickingEdition(EDITIONS.index(draft.ruleset)))
        case "seats":
            return replace(state, at=TakingSeats())
        case "names" if draft.seats_fit():
            return steps._enter_names(state)
        case "options" if draft.seats_fit():
            return replace(state, at=Tuning())
        case "first storyteller" if draft.seats_fit():
            return steps.enter_first(state)
        case "names" | "options" | "first storyteller":
            return replace(state, at=TakingSeats())
        case _:
            return replace(state, at=PickingLanguage(LANGUAGES.index(draft.language)))


def _lines(
    state: SessionState,
    at: Naming | Tuning,
    press: Press,
    count: int,
    change: Callable[[int, int], Draft],
    done: Callable[[SessionState], SessionState],
) -> SessionState:
    """A step that is a list of lines to change (names, options) and a last line that
    goes on: Next moves; a touch or Confirm on a line gives it its next value, and
    `<` `>` its previous or next; on the last line they go on."""
    if press.action in (Action.LEFT, Action.RIGHT) and at.cursor < count:
        step = 1 if press.action is Action.RIGHT else -1
        return replace(state, draft=change(at.cursor, step))
    cursor = _moved(at.cursor, press, count + 1)
    if cursor is None:
        return state
    state = replace(state, at=replace(at, cursor=cursor))
    if not _picks(press):
        return state
    if cursor < count:
        return replace(state, draft=change(cursor, 1))
    return done(state)


def _moved(cursor: int, press: Press, places: int) -> int | None:
    """Where the cursor goes on a press (None: the press means nothing here)."""
    match press.action:
        case Action.NEXT | Action.DOWN | Action.RIGHT:
            return (cursor + 1) % places
        case Action.UP | Action.LEFT:
            return (cursor - 1) % places
        case Action.PICK if press.target is not None and 0 <= press.target < places:
            return press.target
        case Action.CONFIRM:
            return cursor
        case _:
            return None


def _picks(press: Press) -> bool:
    return press.action in (Action.CONFIRM, Action.PICK)


def _next_name(draft: Draft, at: Naming, colour: str, step: int) -> Draft:
    """The seat's next name: its colour's own name, then the names used at this table
    before that no other seat has taken."""
    given = dict(draft.names)
    taken = {n for c, n in given.items() if c != colour and c in draft.seats}
    current = given.get(colour, "")
    choices = ["", *(n for n in at.offered if n not in taken)]
    if current not in choices:
        choices.insert(1, current)
    index = choices.index(current) if current in choices else 0
    return draft.with_name(colour, choices[(index + step) % len(choices)])


def _next_option(draft: Draft, name: str, step: int) -> Draft:
    """The option's next value the edition accepts (values that would leave the game
    without an end are skipped)."""
    preset = getattr(find_ruleset(draft.ruleset), name)
    values = list(OPTION_CHOICES[name])
    if preset not in values:
        values = sorted([*values, preset], key=lambda v: -1 if v is None else v)
    current = draft.option(name)
    index = values.index(current) if current in values else 0
    for turn in range(1, len(values) + 1):
        candidate = draft.with_option(name, values[(index + step * turn) % len(values)])
        try:
            _ = candidate.rules
        except CompanionError:
            continue
        return candidate
    return draft


def player_range(rules: Ruleset) -> Phrase:
    """The numbers of players an edition allows: "3 to 12 players", "6, 8 or 10 players"."""
    counts = rules.player_counts
    if counts[-1] - counts[0] == len(counts) - 1:
        return phrase("{low} to {high} players", low=counts[0], high=counts[-1])
    return phrase("{counts} players", counts=listing([str(c) for c in counts]))


def _count_problem(draft: Draft) -> Phrase:
    rules = find_ruleset(draft.ruleset)
    return plural(
        "{edition} is played by {players}, and {n} is seated",
        "{edition} is played by {players}, and {n} are seated",
        len(draft.seats),
        edition=rules.title_words,
        players=player_range(rules),
    )
