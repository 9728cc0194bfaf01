"""The rulesets: one frozen record of parameters per edition, and their registry.

A ruleset is data: who may play, hand sizes, the scoring scheme, and the numbers a
café may override (`target`, `bonus_cap`, `storyteller_turns`, `deck`, `round_limit`).
Behaviour that differs between editions lives in the scoring scheme objects, never in
`if ruleset == ...` branches. `find_ruleset` is the one way in from a name.
"""

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.errors import (
    IllegalRoundError,
    InvalidOptionError,
    PlayerCountError,
    UnknownRulesetError,
)
from companion.phrases import Phrase, phrase, plural, verbatim
from companion.rules.party import PartyScoring
from companion.rules.round import Round, RoundScore
from companion.rules.scoring import Scoring
from companion.rules.seating import Seating
from companion.rules.storyteller import THREE_PLAYERS, StorytellerScoring
from companion.rules.teams import TeamScoring

CARDS_PER_BOX = 84
"""Cards in a base box or an expansion."""


@dataclass(frozen=True)
class RulesetOption:
    """One of the preset numbers a café may override: everything said about it anywhere
    (the command line, the setup's options page, the phone page, the game file) comes
    from here."""

    name: str
    """The `Ruleset` field it overrides, and its name in `--option NAME=VALUE`."""
    words: Phrase
    """Its name on the options page."""
    offered: tuple[int | None, ...]
    """The values the options page offers, in the order Next cycles them (None: no
    limit). A preset not in the list is offered too."""
    lowest: int
    """The least value a phone may set it to."""
    highest: int
    """The greatest value a phone may set it to (None, no limit, too, where the
    edition allows it)."""
    counted: Callable[[int], Phrase]
    """A value in words, as the options step says it."""


RULESET_OPTIONS: Mapping[str, RulesetOption] = MappingProxyType(
    {
        option.name: option
        for option in (
            RulesetOption(
                "target",
                phrase("Score to reach"),
                (None, 10, 15, 20, 25, 30, 35, 40, 50),
                10,
                100,
                lambda n: verbatim(str(n)),
            ),
            RulesetOption(
                "bonus_cap",
                phrase("Most bonus points"),
                (None, 0, 1, 2, 3, 4, 5),
                0,
                12,
                lambda n: verbatim(str(n)),
            ),
            RulesetOption(
                "storyteller_turns",
                phrase("Turns as storyteller"),
                (None, 1, 2, 3, 4),
                1,
                6,
                lambda n: plural("{n} turn", "{n} turns", n),
            ),
            RulesetOption(
                "deck",
                phrase("Cards in the deck"),
                (84, 168, 252, 336),
                CARDS_PER_BOX,
                12 * CARDS_PER_BOX,
                lambda n: plural("{n} card", "{n} cards", n),
            ),
            RulesetOption(
                "round_limit",
                phrase("Round limit"),
                (None, 4, 5, 6, 8, 10, 12, 15, 20),
                3,
                50,
                lambda n: plural("{n} round", "{n} rounds", n),
            ),
        )
    }
)
"""The preset numbers a café may override, by name, in the order the options page
lists them. What a phone may set lies around the rulebooks' presets (30 points; a
bonus of 3; once each; 84 cards a box, 84 more an expansion): a short game to 10, a
long one to 100, every box of a big collection (12 of 84 cards). Everything the
options page offers lies within it."""
OPTION_NAMES = tuple(RULESET_OPTIONS)
"""The preset numbers a café may override, by name."""


@dataclass(frozen=True)
class Ruleset:
    """One edition's rules, with the overridable numbers as plain fields."""

    name: str
    """The registry name: "classic", "odyssey", "party-1e" ..."""
    title: str
    """The edition's name as a player knows it, in English: the registry's title."""
    title_words: Phrase
    """The edition's name, in the table's language (French as the French rulebooks
    name it)."""
    summary: Phrase
    """What is special about the edition, in one line, for choosing it."""
    player_counts: tuple[int, ...]
    """The numbers of players this edition allows."""
    scoring: Scoring
    """The scheme that checks and scores a round."""
    hand: int
    """Cards in hand."""
    three_player_hand: int | None = None
    """Cards in hand with three players, where that differs."""
    reshuffle: bool = True
    """Whether the discard pile is reshuffled into a new draw pile when it runs short;
    without it the round in which the draw pile runs out is the last (first edition)."""
    target: int | None = 30
    """The score that ends the game at the end of a round; None for no target."""
    bonus_cap: int | None = None
    """The most points of vote bonus per player per round (per card in Teams; in Party,
    the most points per player per round); None for no cap."""
    storyteller_turns: int | None = None
    """The game ends once every player has told this many times; None for no limit."""
    deck: int = CARDS_PER_BOX
    """Cards in the draw pile at the start, before dealing."""
    round_limit: int | None = None
    """The game ends after this many rounds (a café's time slot: "play 8 rounds");
    None for no limit."""

    def __post_init__(self) -> None:
        for name in ("target", "storyteller_turns", "round_limit"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise InvalidOptionError(
                    phrase(
                        "{ruleset}: {option} must be at least 1, not {value}",
                        ruleset=self.name,
                        option=name,
                        value=value,
                    )
                )
        if self.bonus_cap is not None and self.bonus_cap < 0:
            raise InvalidOptionError(
                phrase(
                    "{ruleset}: bonus_cap must be 0 or more (or null for no cap), not {value}",
                    ruleset=self.name,
                    value=self.bonus_cap,
                )
            )
        if self.deck < 1:
            raise InvalidOptionError(
                phrase(
                    "{ruleset}: deck must be at least 1 card, not {value}",
                    ruleset=self.name,
                    value=self.deck,
                )
            )
        ends = (self.target, self.storyteller_turns, self.round_limit)
        if all(limit is None for limit in ends) and self.reshuffle:
            raise InvalidOptionError(
                phrase(
                    "{ruleset}: with no target, storyteller_turns or round_limit "
                    "the game never ends",
                    ruleset=self.name,
                )
            )

    def with_options(self, overrides: Mapping[str, int | None]) -> "Ruleset":
        """A copy with some of `OPTION_NAMES` overridden; None switches a limit off."""
        unknown = sorted(set(overrides) - set(OPTION_NAMES))
        if unknown:
            raise InvalidOptionError(
                phrase(
                    "{ruleset}: unknown option {unknown}; options are {options}",
                    ruleset=self.name,
                    unknown=", ".join(unknown),
                    options=", ".join(OPTION_NAMES),
                )
            )
        deck = overrides.get("deck", self.deck)
        if deck is None:
            raise InvalidOptionError(
                phrase("{ruleset}: deck must be a number of cards, not null", ruleset=self.name)
            )
        return dataclasses.replace(
            self,
            target=overrides.get("target", self.target),
            bonus_cap=overrides.get("bonus_cap", self.bonus_cap),
            storyteller_turns=overrides.get("storyteller_turns", self.storyteller_turns),
            deck=deck,
            round_limit=overrides.get("round_limit", self.round_limit),
        )

    def check_players(self, players: int) -> None:
        """Raise `PlayerCountError` unless this many players may play."""
        if players not in self.player_counts:
            raise PlayerCountError(
                phrase(
                    "{ruleset} is played by {counts} players, not {players}",
                    ruleset=self.name,
                    counts=", ".join(map(str, self.player_counts)),
                    players=players,
                )
            )

    def hand_size(self, players: int) -> int:
        """Cards each player holds."""
        if players == THREE_PLAYERS and self.three_player_hand is not None:
            return self.three_player_hand
        return self.hand

    def scorers(self, seating: Seating) -> tuple[str, ...]:
        """Who scores: players, or teams in team rulesets."""
        return self.scoring.scorers(seating)

    def problems(self, seating: Seating, rnd: Round) -> tuple[IllegalRoundError, ...]:
        """Every rule the round breaks, for showing all at once; raises if malformed."""
        self.scoring.check_well_formed(seating, rnd)
        return tuple(self.scoring.problems(seating, rnd))

    def score(self, seating: Seating, rnd: Round) -> RoundScore:
        """Score a round, raising the first problem if it is illegal."""
        self.check_players(len(seating))
        problems = self.problems(seating, rnd)
        if problems:
            raise problems[0]
        return RoundScore(rnd, self.scoring.award(seating, rnd, self.bonus_cap))


RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        r.name: r
        for r in (
            Ruleset(
                name="classic",
                title="Dixit (2021 edition)",
                title_words=phrase("Dixit (2021 edition)"),
                summary=phrase("the base game, to 30 points"),
                player_counts=tuple(range(3, 9)),
                scoring=StorytellerScoring(),
                hand=6,
                three_player_hand=7,
            ),
            Ruleset(
                name="classic-1e",
                title="Dixit, first edition",
                title_words=phrase("Dixit, first edition"),
                summary=phrase("the first rules, until the draw pile runs out"),
                player_counts=tuple(range(3, 7)),
                scoring=StorytellerScoring(lone_finder_scores_four=True),
                reshuffle=False,
                target=None,
                hand=6,
                three_player_hand=7,
            ),
            Ruleset(
                name="odyssey",
                title="Dixit Odyssey",
                title_words=phrase("Dixit Odyssey"),
                summary=phrase("the base game for up to 12, a second vote from 7 players"),
                player_counts=tuple(range(3, 13)),
                scoring=StorytellerScoring(second_vote_from=7),
                bonus_cap=3,
                hand=6,
                three_player_hand=7,
            ),
            Ruleset(
                name="party-1e",
                title="Dixit Party (Odyssey, first printing)",
                title_words=phrase("Dixit Party (Odyssey, first printing)"),
                summary=phrase(
                    "vote for the most popular card, beware the trap; everyone tells once"
                ),
                player_counts=tuple(range(6, 13)),
                scoring=PartyScoring(),
                hand=5,
                target=None,
                bonus_cap=5,
                storyteller_turns=1,
            ),
            Ruleset(
                name="party",
                title="Dixit Party (Odyssey, voting dials)",
                title_words=phrase("Dixit Party (Odyssey, voting dials)"),
                summary=phrase("vote for the most popular card, beware the trap; to 30 points"),
                player_counts=tuple(range(6, 13)),
                scoring=PartyScoring(),
                hand=4,
            ),
            Ruleset(
                name="teams-1e",
                title="Dixit in teams (Odyssey, first printing)",
                title_words=phrase("Dixit in teams (Odyssey, first printing)"),
                summary=phrase("partners sit opposite and score together; everyone tells once"),
                player_counts=(6, 8, 10, 12),
                scoring=TeamScoring(),
                hand=4,
                target=None,
                bonus_cap=3,
                storyteller_turns=1,
            ),
            Ruleset(
                name="teams",
                title="Dixit in teams (Odyssey, voting dials)",
                title_words=phrase("Dixit in teams (Odyssey, voting dials)"),
                summary=phrase("partners sit opposite and score together, to 30 points"),
                player_counts=(8, 10, 12),
                scoring=TeamScoring(),
                hand=4,
            ),
        )
    }
)
"""Every ruleset by name, with its preset options."""


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called `name`, or `UnknownRulesetError` naming the known ones."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRulesetError(
            phrase(
                "unknown ruleset {name}; known rulesets are {known}",
                name=repr(name),
                known=", ".join(RULESETS),
            )
        ) from None
