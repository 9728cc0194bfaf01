"""The next game as a group sets it up: language, edition, seats, names and options.

A `Draft` is what the setup screens change, one step at a time, and what the
journal keeps after each finished step, so that a restart in the middle of setting
up goes on from the last step done. A game starts from it once the first
storyteller is chosen; until then nothing about it is final.
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.colours import BY_NAME, COLOURS, WORDS
from companion.errors import CompanionError, SettingError
from companion.language import Language, find_language, translations
from companion.names import name_fault
from companion.rules import RULESET_OPTIONS, RULESETS, Ruleset, Seating, find_ruleset
from companion.session.lineup import Lineup

DEFAULT_RULESET = "odyssey"
"""The edition a new table offers first."""

OPTION_CHOICES: Mapping[str, tuple[int | None, ...]] = {
    name: option.offered for name, option in RULESET_OPTIONS.items()
}
"""The values the options page offers for each option (`RulesetOption.offered`)."""
OPTION_RANGES: Mapping[str, tuple[int, int]] = {
    name: (option.lowest, option.highest) for name, option in RULESET_OPTIONS.items()
}
"""The values a phone may set each option to, lowest and highest (None, no limit, too,
where the edition allows it)."""


def colour_name(colour: str, language: Language) -> str:
    """A kit colour's name in a language, capitalised as a player's name: "Rouge"."""
    words = WORDS[colour].render(translations(language))
    return words[:1].upper() + words[1:]


@dataclass(frozen=True)
class Draft:
    """The next game as set up so far."""

    language: Language = Language.ENGLISH
    """The table's language for this group."""
    ruleset: str = DEFAULT_RULESET
    """The edition's registry name."""
    options: tuple[tuple[str, int | None], ...] = ()
    """The edition's presets the group changed, by name."""
    seats: tuple[str, ...] = ()
    """The players' kit colours in seating order (slot 1 first, then clockwise)."""
    names: tuple[tuple[str, str], ...] = ()
    """The names given, by kit colour; a colour without one plays under its name."""

    @property
    def rules(self) -> Ruleset:
        """The edition with the group's options."""
        ruleset = find_ruleset(self.ruleset)
        return ruleset.with_options(dict(self.options)) if self.options else ruleset

    def option(self, name: str) -> int | None:
        """An option's value as the game will have it."""
        value: int | None = getattr(self.rules, name)
        return value

    def name_of(self, colour: str) -> str:
        """The name a seat plays under: the given name, or the colour's own name."""
        return dict(self.names).get(colour) or colour_name(colour, self.language)

    def lineup(self) -> Lineup:
        """The players in seating order with their colours."""
        return Lineup(tuple(self.name_of(c) for c in self.seats), self.seats)

    def seats_fit(self) -> bool:
        """Whether the edition can be played by this many seats."""
        return len(self.seats) in find_ruleset(self.ruleset).player_counts

    def with_option(self, name: str, value: int | None) -> "Draft":
        """The draft with one option set (a preset value drops the override)."""
        options = dict(self.options)
        options[name] = value
        if getattr(find_ruleset(self.ruleset), name) == value:
            del options[name]
        return replace(self, options=tuple(sorted(options.items())))

    def with_name(self, colour: str, name: str) -> "Draft":
        """The draft with a seat's name given (empty: the colour's name again)."""
        names = {c: n for c, n in self.names if c != colour}
        if name:
            names[colour] = name
        return replace(self, names=tuple(sorted(names.items())))

    def document(self) -> dict[str, Any]:
        """The draft as JSON, as the journal keeps it."""
        return {
            "language": self.language.value,
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "seats": list(self.seats),
            "names": dict(self.names),
        }

    @classmethod
    def from_document(cls, doc: object) -> "Draft":
        """A draft the journal kept; `SettingError` for one this companion cannot use. A
        name the rule refuses now (an older companion let in a name of any length) is
        left out: its seat plays under its colour, and the setup goes on."""
        if not isinstance(doc, dict):
            raise SettingError(f"a setup is a JSON object, not {type(doc).__name__}")
        try:
            ruleset = str(doc.get("ruleset", DEFAULT_RULESET))
            if ruleset not in RULESETS:
                raise SettingError(f"unknown edition {ruleset!r}")
            options = {str(k): (None if v is None else int(v)) for k, v in doc["options"].items()}
            seats = tuple(str(c) for c in doc["seats"])
            names = {str(c): str(n) for c, n in doc["names"].items()}
            names = {c: n for c, n in names.items() if name_fault(n.strip()) is None}
            if any(c not in BY_NAME for c in (*seats, *names)) or len(set(seats)) != len(seats):
                raise SettingError(f"seats {seats} are not distinct kit colours")
            draft = cls(
                find_language(str(doc["language"])),
                ruleset,
                tuple(sorted(options.items())),
                seats,
                tuple(sorted(names.items())),
            )
            _ = draft.rules
            Seating(tuple(draft.name_of(c) for c in seats))
        except (KeyError, TypeError, ValueError, AttributeError, CompanionError) as error:
            raise SettingError(f"the setup kept in the journal cannot be used: {error}") from None
        return draft

    @classmethod
    def of_lineup(cls, ruleset: Ruleset, lineup: Lineup, language: Language) -> "Draft":
        """The draft of a game set up on the command line (or the game just played)."""
        base = find_ruleset(ruleset.name)
        options = tuple(
            (name, getattr(ruleset, name))
            for name in OPTION_CHOICES
            if getattr(ruleset, name) != getattr(base, name)
        )
        names = tuple(
            (colour, name)
            for name, colour in zip(lineup.names, lineup.colours, strict=True)
            if name != colour_name(colour, language)
        )
        return cls(language, ruleset.name, options, lineup.colours, tuple(sorted(names)))


KIT_COLOURS = tuple(c.name for c in COLOURS)
"""Every colour a seat can take, in the kit's order."""
