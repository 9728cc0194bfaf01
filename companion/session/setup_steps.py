"""Setting up a game at the table: the transitions of the setup steps.

Every step works by touch, by the three buttons alone (Next moves, Confirm picks, a
held Undo goes back) and, for the seats and the first storyteller, by the camera.
Each finished step is kept in the journal (a `KeepSetup` effect), so a restart goes
on from the last step done; going back never loses the last game, which stays in the
journal as it was. The transitions are pure: each returns a `Step`, and the runtime
carries out its effects.
"""

from collections.abc import Callable
from dataclasses import replace

from companion.actions import Action, Press
from companion.errors import CompanionError
from companion.language import Language
from companion.names import name_fault as unusable
from companion.names import player_name
from companion.phrases import Phrase, phrase
from companion.rules import Game, find_ruleset
from companion.session.commands import SetUp, unkept
from companion.session.draft import KIT_COLOURS, OPTION_CHOICES, Draft
from companion.session.effects import Failed, KeepSetup, RecallNames, Step
from companion.session.setup import (
    EDITIONS,
    LANGUAGES,
    OPTIONS,
    STEP_NAMES,
    count_problem,
    seats_on_table,
    with_draft,
)
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
from companion.vision.records import TableObservation

StartGame = Callable[[SessionState, float], Step]
"""Starts the game once the first storyteller is chosen (the play's transition)."""


class SetupSteps:
    """The setup steps' transitions."""

    def __init__(self, start_game: StartGame) -> None:
        self.start_game = start_game
        """Starts the game once the first storyteller is chosen."""

    def pressed(self, state: SessionState, at: SetupStep, press: Press, now: float) -> Step:
        """A press during setup."""
        if press.action in (Action.BACK, Action.UNDO):
            return self.back(state, at, now)
        match at:
            case PickingLanguage():
                return self._language(state, at, press)
            case PickingEdition():
                return self._edition(state, at, press)
            case TakingSeats():
                return self._seats(state, at, press, now)
            case Naming():
                return self._names(state, at, press)
            case Tuning():
                return self._options(state, at, press)
            case Choosing():
                return self._first(state, at, press, now)

    def back(self, state: SessionState, at: SetupStep, now: float) -> Step:
        """One step back; from the first step, back to the last game's standings."""
        match at:
            case PickingLanguage():
                if state.game_id is None or state.game.outcome is None:
                    return Step(state)
                game, lineup = state.game, state.lineup
                draft = Draft.of_lineup(game.ruleset, lineup, state.language)
                return Step(replace(state, draft=draft, at=Winner(now)))
            case PickingEdition():
                return Step(replace(state, at=PickingLanguage(LANGUAGES.index(state.language))))
            case TakingSeats():
                edition = PickingEdition(EDITIONS.index(state.draft.ruleset))
                return Step(replace(state, at=edition))
            case Naming():  # the tokens lying there are this group's own
                return Step(replace(state, at=TakingSeats(cleared=True)))
            case Tuning():
                return self.enter_names(state)
            case Choosing():
                return Step(replace(state, at=Tuning()))

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

    def set_up(self, before: SessionState, asked: SetUp) -> Step:
        """A setup typed on a phone: the edition, options and names, all taken (once
        the journal has kept them) or, with the reason, none. Until it is kept the
        state stays as it was (`typed` gives the state it leads to)."""
        after = self.typed(before, asked)
        if isinstance(after, Phrase):
            return Step(before, refused=after)
        return Step(before, (KeepSetup(STEP_NAMES[type(after.at)], after.draft, asked=asked),))

    def typed(self, before: SessionState, asked: SetUp) -> SessionState | Phrase:
        """The state a setup typed on a phone leads to, or why it is refused. A new
        edition moves a table still at the language or edition step on to the seats;
        one that no longer fits the seats goes back to them."""
        if not before.setting_up:
            return phrase("the table is not setting up a game: names wait for the next")
        draft, at, state = asked_draft(before.draft, asked), before.at, before
        if isinstance(draft, Phrase):
            return draft
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
        return state

    def kept(self, state: SessionState, keep: KeepSetup) -> Step:
        """The setup is kept: a setup typed on a phone is taken now."""
        if keep.asked is None:
            return Step(state)
        after = self.typed(state, keep.asked)
        return Step(state, refused=after) if isinstance(after, Phrase) else Step(after)

    def not_kept(self, state: SessionState, keep: KeepSetup, failed: Failed, now: float) -> Step:
        """The setup could not be kept: a setup typed on a phone is refused with the
        reason; a step is said to be not kept (unless more important news is on the
        screen), and the setup goes on."""
        fault = unkept(failed.card_full)
        if keep.asked is not None:
            return Step(state.saying(fault.words, now), refused=fault)
        return Step(state.saying(fault.words, now) if keep.told else state)

    def new_group(self, state: SessionState, language: Language, told: bool = True) -> Step:
        """From the standings (or an abandoned game): set up a game for a new group."""
        draft = Draft(language=language, ruleset=state.draft.ruleset)
        fresh = replace(state, draft=draft, at=PickingLanguage(LANGUAGES.index(language)))
        return self.keep(fresh, told)

    def _language(self, state: SessionState, at: PickingLanguage, press: Press) -> Step:
        cursor = _moved(at.cursor, press, len(LANGUAGES))
        if cursor is None:
            return Step(state)
        draft = replace(state.draft, language=LANGUAGES[cursor])
        state = replace(state, draft=draft, at=replace(at, cursor=cursor))
        if not _picks(press):
            return Step(state)
        at_edition = PickingEdition(EDITIONS.index(draft.ruleset))
        return self.keep(replace(state, at=at_edition))

    def _edition(self, state: SessionState, at: PickingEdition, press: Press) -> Step:
        cursor = _moved(at.cursor, press, len(EDITIONS))
        if cursor is None:
            return Step(state)
        state = replace(state, at=replace(at, cursor=cursor))
        if not _picks(press):
            return Step(state)
        name = EDITIONS[cursor]
        draft = state.draft
        if name != draft.ruleset:
            draft = replace(draft, ruleset=name, options=())
        return self.keep(replace(state, draft=draft, at=TakingSeats()))

    def _seats(self, state: SessionState, at: TakingSeats, press: Press, now: float) -> Step:
        places = len(KIT_COLOURS) + 1
        cursor = _moved(at.cursor, press, places)
        if cursor is None:
            return Step(state)
        state = replace(state, at=replace(at, cursor=cursor))
        if not _picks(press):
            return Step(state)
        draft = state.draft
        if cursor < len(KIT_COLOURS):
            colour = KIT_COLOURS[cursor]
            if colour in draft.seats:
                draft = replace(draft, seats=tuple(c for c in draft.seats if c != colour))
            else:
                draft = replace(draft, seats=(*draft.seats, colour))
            return Step(replace(state, draft=draft))
        if at.problems:
            first = at.problems[0]
            words = phrase("put the table right first: {problem}", problem=first)
            return Step(state.saying(words, now))
        if not draft.seats_fit():
            return Step(state.saying(count_problem(draft), now))
        return self.enter_names(state).then(self.keep)

    def enter_names(self, state: SessionState) -> Step:
        """The names step, offering the names used at this table before (once read)."""
        return Step(replace(state, at=Naming()), (RecallNames(),))

    def names_recalled(self, state: SessionState, names: tuple[str, ...]) -> SessionState:
        """The names used before, offered at the names step (only those names may
        hold: an older companion kept names of any length)."""
        at = state.at
        if not isinstance(at, Naming):
            return state
        usable = tuple(n for n in names if not unusable(n) and n not in at.offered)
        return replace(state, at=replace(at, offered=(*at.offered, *usable)))

    def _names(self, state: SessionState, at: Naming, press: Press) -> Step:
        seats = state.draft.seats

        def change(line: int, step: int) -> Draft:
            return _next_name(state.draft, at, seats[line], step)

        def done(state: SessionState) -> Step:
            return self.keep(replace(state, at=Tuning()))

        return _lines(state, at, press, len(seats), change, done)

    def _options(self, state: SessionState, at: Tuning, press: Press) -> Step:
        def change(line: int, step: int) -> Draft:
            return _next_option(state.draft, OPTIONS[line], step)

        def done(state: SessionState) -> Step:
            return self.keep(self.enter_first(state))

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

    def _first(self, state: SessionState, at: Choosing, press: Press, now: float) -> Step:
        count = len(state.lineup.names)
        match press.action:
            case Action.NEXT | Action.RIGHT | Action.DOWN:
                return Step(replace(state, at=replace(at, chosen=(at.chosen + 1) % count)))
            case Action.LEFT | Action.UP:
                return Step(replace(state, at=replace(at, chosen=(at.chosen - 1) % count)))
            case Action.PICK if press.target is not None and 0 <= press.target < count:
                return Step(replace(state, at=replace(at, chosen=press.target)))
            case Action.CONFIRM:
                return self.start_game(state, now)
            case _:
                return Step(state)

    def keep(self, state: SessionState, told: bool = True) -> Step:
        """Keep the step reached and the draft in the journal: a restart goes on from
        here. A journal that cannot keep it does not stop the setup at the table."""
        return Step(state, (KeepSetup(STEP_NAMES[type(state.at)], state.draft, told),))


def resumed_step(step: str, state: SessionState, steps: SetupSteps) -> Step:
    """The state of a setup the journal kept, at the step it had reached."""
    draft = state.draft
    match step:
        case "edition":
            return Step(replace(state, at=PickingEdition(EDITIONS.index(draft.ruleset))))
        case "seats":
            return Step(replace(state, at=TakingSeats()))
        case "names" if draft.seats_fit():
            return steps.enter_names(state)
        case "options" if draft.seats_fit():
            return Step(replace(state, at=Tuning()))
        case "first storyteller" if draft.seats_fit():
            return Step(steps.enter_first(state))
        case "names" | "options" | "first storyteller":
            return Step(replace(state, at=TakingSeats()))
        case _:
            return Step(replace(state, at=PickingLanguage(LANGUAGES.index(draft.language))))


def _lines(
    state: SessionState,
    at: Naming | Tuning,
    press: Press,
    count: int,
    change: Callable[[int, int], Draft],
    done: Callable[[SessionState], Step],
) -> Step:
    """A step that is a list of lines to change (names, options) and a last line that
    goes on: Next moves; a touch or Confirm on a line gives it its next value, and
    `<` `>` its previous or next; on the last line they go on."""
    if press.action in (Action.LEFT, Action.RIGHT) and at.cursor < count:
        step = 1 if press.action is Action.RIGHT else -1
        return Step(replace(state, draft=change(at.cursor, step)))
    cursor = _moved(at.cursor, press, count + 1)
    if cursor is None:
        return Step(state)
    state = replace(state, at=replace(at, cursor=cursor))
    if not _picks(press):
        return Step(state)
    if cursor < count:
        return Step(replace(state, draft=change(cursor, 1)))
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
