"""What the screen shows while a group sets up its game: every word of every step.

Like `present`, this module decides what the setup screens say, in the table's
language, and leaves where it goes to the display. The step being shown is read
from a frozen `SessionState`.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from companion.colours import BY_NAME, WORDS
from companion.display.view import Choice, Group, StepView
from companion.errors import SeatingError
from companion.phrases import (
    Listing,
    Phrase,
    Translations,
    in_context,
    listing,
    phrase,
    plural,
    rendered,
)
from companion.rules import RULESET_OPTIONS, Ruleset, Seating, find_ruleset
from companion.session.draft import KIT_COLOURS, Draft, colour_name
from companion.session.setup import EDITIONS, LANGUAGES, OPTIONS, player_range, seats_on_table
from companion.session.states import (
    Choosing,
    Naming,
    PickingEdition,
    PickingLanguage,
    SessionState,
    SetupStep,
    TakingSeats,
    Tuning,
)

STEP_WORDS = (
    in_context("setup step", "Language"),
    in_context("setup step", "Edition"),
    in_context("setup step", "Players"),
    in_context("setup step", "Names"),
    in_context("setup step", "Options"),
    in_context("setup step", "First storyteller"),
)
"""The steps' short names, for the progress line."""

OPTION_WORDS: dict[str, Phrase] = {name: o.words for name, o in RULESET_OPTIONS.items()}
"""Each option's name on the options page."""

DONE = in_context("setup choice", "Done: go on")
"""The last line of a list step, which goes on to the next step."""

HINT_LIST = phrase("Touch a line, or press Next to move and Confirm to pick")
"""How to choose in the language and edition steps."""

START = in_context("button", "Start")
"""The button that starts the game, as the first-storyteller step's hint names it."""


@dataclass(frozen=True)
class _Page:
    """What every step's view shares: the language, the progress line, the game as set
    up so far, and a message to show beside the step's own problems."""

    words: Translations
    steps: tuple[str, ...]
    summary: str
    said: tuple[str, ...]

    def view(
        self,
        step: int,
        question: Phrase,
        choices: Iterable[Choice],
        hint: Phrase,
        *,
        problems: Iterable[Phrase] = (),
        groups: tuple[Group, ...] = (),
        columns: int = 1,
        summary: bool = True,
    ) -> StepView:
        """Step number `step` of `steps`, in the table's language."""
        words = self.words
        return StepView(
            self.steps,
            step,
            question.render(words),
            tuple(choices),
            hint.render(words),
            summary=self.summary if summary else "",
            problems=(*self.said, *(p.render(words) for p in problems)),
            groups=groups,
            columns=columns,
        )


def setup_view(state: SessionState, now: float, words: Translations) -> StepView:
    """The setup step the state is at, in the table's language."""
    at = state.at
    assert isinstance(at, SetupStep)
    draft = state.draft
    problem = state.says(now)
    page = _Page(
        words,
        tuple(w.render(words) for w in STEP_WORDS),
        game_summary(draft, words),
        (problem.render(words),) if problem is not None else (),
    )
    match at:
        case PickingLanguage():
            return page.view(
                0,
                phrase("Which language?"),
                (
                    Choice(language.native_name, selected=i == at.cursor, picked=i == at.cursor)
                    for i, language in enumerate(LANGUAGES)
                ),
                HINT_LIST,
                summary=False,
            )
        case PickingEdition():
            return page.view(
                1,
                phrase("Which edition?"),
                (
                    _edition(find_ruleset(name), i == at.cursor, draft, words)
                    for i, name in enumerate(EDITIONS)
                ),
                HINT_LIST,
            )
        case TakingSeats():
            return _seats(state, at, page)
        case Naming():
            return _names(draft, at, page)
        case Tuning():
            return _options(draft, at, page)
        case Choosing():
            lineup = state.lineup
            return page.view(
                5,
                phrase("Who tells first?"),
                (
                    Choice(
                        name,
                        colours=(lineup.rgb_of(name),),
                        selected=i == at.chosen,
                        picked=i == at.chosen,
                        badge=phrase("tells first").render(words) if i == at.chosen else "",
                    )
                    for i, name in enumerate(lineup.names)
                ),
                phrase(
                    "Press Next or touch a name, then {start}; or lay your owner token on a card",
                    start=START,
                ),
                columns=1 if len(lineup.names) <= 6 else 2,
            )


def game_summary(draft: Draft, words: Translations) -> str:
    """The game as set up so far: "Dixit Odyssey, 5 players, to 30 points"."""
    rules = draft.rules
    parts = [rules.title_words.render(words)]
    if draft.seats:
        parts.append(plural("{n} player", "{n} players", len(draft.seats)).render(words))
    parts.append(rendered(ends(rules), words))
    return ", ".join(parts)


def ends(rules: Ruleset) -> Listing:
    """When a game of these rules ends, in a few words."""
    terms: list[Phrase] = []
    if rules.target is not None:
        terms.append(phrase("to {target} points", target=rules.target))
    if rules.storyteller_turns is not None:
        terms.append(
            plural(
                "{n} turn as storyteller each",
                "{n} turns as storyteller each",
                rules.storyteller_turns,
            )
        )
    if rules.round_limit is not None:
        terms.append(plural("at most {n} round", "at most {n} rounds", rules.round_limit))
    if not terms:
        terms.append(phrase("until the deck runs out"))
    return listing(terms)


def _edition(rules: Ruleset, selected: bool, draft: Draft, words: Translations) -> Choice:
    detail = phrase("{summary} ({players})", summary=rules.summary, players=player_range(rules))
    return Choice(
        rules.title_words.render(words),
        detail.render(words),
        selected=selected,
        picked=rules.name == draft.ruleset,
    )


def _seats(state: SessionState, at: TakingSeats, page: _Page) -> StepView:
    draft, words = state.draft, page.words
    slots: dict[str, int] = {}
    table = state.table
    if table is not None:
        for slot, contents in table.observation.slots.items():
            for colour in contents.owners:
                slots.setdefault(colour, slot)
    choices = []
    for i, colour in enumerate(KIT_COLOURS):
        seat = draft.seats.index(colour) + 1 if colour in draft.seats else None
        badge = ""
        if seat is not None:
            badge = (
                phrase("seat {seat}, slot {slot}", seat=seat, slot=slots[colour])
                if colour in slots
                else phrase("seat {seat}", seat=seat)
            ).render(words)
        choices.append(
            Choice(
                colour_name(colour, draft.language),
                draft.name_of(colour) if seat is not None and dict(draft.names).get(colour) else "",
                colours=(BY_NAME[colour].rgb,),
                selected=i == at.cursor,
                picked=seat is not None,
                badge=badge,
            )
        )
    choices.append(Choice(DONE.render(words), selected=at.cursor == len(KIT_COLOURS)))
    problems = list(at.problems)
    if not at.cleared and table is not None and seats_on_table(table.observation).tokens:
        problems.append(phrase("clear the table first: the last game's tokens are still on it"))
    rules = find_ruleset(draft.ruleset)
    if draft.seats and not draft.seats_fit():
        needs = phrase(
            "{edition} needs {players}", edition=rules.title_words, players=player_range(rules)
        )
        problems.append(needs)
    return page.view(
        2,
        phrase("Who plays? Each player lays an owner token on a card"),
        choices,
        phrase(
            "The slot a token lies on is its player's seat: slot 1 first, then clockwise. "
            "Without tokens: Next moves, Confirm seats a colour"
        ),
        problems=problems,
        groups=_teams(draft, words),
        columns=2,
    )


def _teams(draft: Draft, words: Translations) -> tuple[Group, ...]:
    """The teams that follow from the seating (seats i and i + n/2), in team editions."""
    rules = find_ruleset(draft.ruleset)
    if not draft.seats_fit():
        return ()
    names = tuple(draft.name_of(c) for c in draft.seats)
    try:
        seating = Seating(names)
    except SeatingError:  # names the table refuses are refused where they enter
        return ()
    scorers = rules.scorers(seating)
    if scorers == names:
        return ()
    colour = dict(zip(names, draft.seats, strict=True))
    return tuple(
        Group(
            phrase("Team {number}", number=i + 1).render(words),
            tuple((p, BY_NAME[colour[p]].rgb) for p in pair),
        )
        for i, pair in enumerate(seating.pairs)
    )


def _names(draft: Draft, at: Naming, page: _Page) -> StepView:
    words = page.words
    given = dict(draft.names)
    choices = [
        Choice(
            draft.name_of(colour),
            phrase("seat {seat}", seat=i + 1).render(words)
            if colour in given
            else phrase(
                "seat {seat}, no name: plays as {colour}", seat=i + 1, colour=WORDS[colour]
            ).render(words),
            colours=(BY_NAME[colour].rgb,),
            selected=i == at.cursor,
            picked=colour in given,
        )
        for i, colour in enumerate(draft.seats)
    ]
    choices.append(Choice(DONE.render(words), selected=at.cursor == len(draft.seats)))
    hint = (
        phrase(
            "Names are optional. Touch a seat, or press Confirm, for a name used here "
            "before; names typed on a phone appear at once"
        )
        if at.offered
        else phrase("Names are optional: names typed on a phone appear at once")
    )
    return page.view(3, phrase("Names"), choices, hint, columns=1 if len(draft.seats) <= 6 else 2)


def _options(draft: Draft, at: Tuning, page: _Page) -> StepView:
    words = page.words
    preset = find_ruleset(draft.ruleset)
    choices = []
    for i, name in enumerate(OPTIONS):
        value = draft.option(name)
        shown = option_value(name, value).render(words)
        if value != getattr(preset, name):
            shown = phrase(
                "{value} (preset: {preset})",
                value=shown,
                preset=option_value(name, getattr(preset, name)),
            ).render(words)
        choices.append(Choice(OPTION_WORDS[name].render(words), shown, selected=i == at.cursor))
    choices.append(Choice(DONE.render(words), selected=at.cursor == len(OPTIONS)))
    return page.view(
        4,
        phrase("Options"),
        choices,
        phrase("Touch a line, or press Confirm, to change its value; Next moves to the next line"),
    )


def option_value(name: str, value: int | None) -> Phrase:
    """An option's value in words, as the options step says it (the phone page too)."""
    return phrase("no limit") if value is None else RULESET_OPTIONS[name].counted(value)
