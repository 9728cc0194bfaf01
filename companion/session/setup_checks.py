"""What a setup may hold: the checks a name or an option passes before the table
takes it, wherever it comes from (a phone, the table's own keyboard).

Everything a phone sends is bounded here, in the table's language, and refused
whole rather than cut short: a name of at most `MAX_NAME_CHARS` characters that the
screen can draw whole (`companion.display.fonts.name_fits`), and options within
`OPTION_RANGES`.
"""

import unicodedata
from dataclasses import replace

from companion.colours import WORDS
from companion.display.fonts import name_fits
from companion.errors import CompanionError
from companion.names import MAX_NAME_CHARS, player_name
from companion.phrases import Phrase, phrase, plural
from companion.rules import RULESETS
from companion.rules.seating import TEAM_JOINER
from companion.session.commands import SetUp
from companion.session.draft import OPTION_CHOICES, OPTION_RANGES, Draft


def name_fault(draft: Draft, colour: str, name: str) -> Phrase | None:
    """Why `name` cannot be the name of `colour`'s seat, or None when it can."""
    if len(unicodedata.normalize("NFC", name.strip())) > MAX_NAME_CHARS:
        return plural(
            "a name may have at most {n} character: choose a shorter one",
            "a name may have at most {n} characters: choose a shorter one",
            MAX_NAME_CHARS,
        )
    try:
        name = player_name(name)
    except CompanionError as error:
        return error.phrase
    if not name_fits(name):
        return phrase("{name} is too wide for the screen: choose a shorter name", name=name)
    others = {draft.name_of(c).casefold() for c in draft.seats if c != colour}
    if name.casefold() in others:
        return phrase("{name} is already the name of another seat", name=name)
    if TEAM_JOINER in name:
        return phrase("a name may not hold {joiner}", joiner=TEAM_JOINER)
    return None


def option_fault(name: str, value: int | None) -> Phrase | None:
    """Why an option cannot be set to `value` from a phone, or None when it can (the
    edition then says whether the game still has an end)."""
    if name not in OPTION_CHOICES:
        return phrase("there is no option {name}", name=name)
    low, high = OPTION_RANGES[name]
    if value is not None and not low <= value <= high:
        return phrase("{option} must be from {low} to {high}", option=name, low=low, high=high)
    return None


def asked_draft(draft: Draft, asked: SetUp) -> Draft | Phrase:
    """The draft with what a phone asked for, or why the first part at fault cannot be."""
    if asked.ruleset is not None and asked.ruleset != draft.ruleset:
        if asked.ruleset not in RULESETS:
            return phrase("there is no edition {name}", name=asked.ruleset)
        draft = replace(draft, ruleset=asked.ruleset, options=())
    for name, value in asked.options.items():
        fault = option_fault(name, value)
        if fault is not None:
            return fault
        draft = draft.with_option(name, value)
        try:
            _ = draft.rules
        except CompanionError as error:
            return error.phrase
    for colour, name in asked.names.items():
        if colour not in draft.seats:
            return phrase("no player sits in {colour}", colour=WORDS.get(colour, colour[:40]))
        if name:
            fault = name_fault(draft, colour, name)
            if fault is not None:
                return fault
            name = player_name(name)
        draft = draft.with_name(colour, name)
    return draft
