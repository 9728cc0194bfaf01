"""The records of one round: what lay on the table, and what it scored.

`Reveal` is what the table shows at reveal (cards with their owners, votes, the trap):
it is what the camera reads or a person types in. `Round` adds the round number and
the storyteller, which follow from the game. `RoundScore` is the answer: points for
every player (or team) with the reasons behind them.
"""

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.phrases import ENGLISH, Phrase, Translations


def _frozen_cards(cards: Mapping[int, str]) -> Mapping[int, str]:
    return MappingProxyType(dict(sorted(cards.items())))


def _frozen_votes(votes: Mapping[str, tuple[int, ...]]) -> Mapping[str, tuple[int, ...]]:
    return MappingProxyType({voter: tuple(slots) for voter, slots in votes.items()})


@dataclass(frozen=True)
class Reveal:
    """What lies on the table once the votes are revealed."""

    cards: Mapping[int, str]
    """Slot number (1, 2, ...) to the player who laid the card on it."""
    votes: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Voter to the slots they voted for, in the order given."""
    trap: int | None = None
    """The slot the storyteller trapped (Party rulesets only)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _frozen_cards(self.cards))
        object.__setattr__(self, "votes", _frozen_votes(self.votes))

    def slots_of(self, player: str) -> tuple[int, ...]:
        """The slots holding cards laid by `player`."""
        return tuple(slot for slot, owner in self.cards.items() if owner == player)

    def votes_on(self, slot: int) -> tuple[str, ...]:
        """The voters with a vote on `slot`, one entry per vote."""
        return tuple(
            voter for voter, slots in self.votes.items() for voted in slots if voted == slot
        )


@dataclass(frozen=True)
class Round:
    """A reveal placed in its game: which round it is and who told."""

    number: int
    """1 for the first round of the game."""
    storyteller: str
    """The player who gave the clue this round."""
    reveal: Reveal
    """What lay on the table."""


class AwardKind(enum.Enum):
    """What an award is for, so that screens and checks can tell them apart."""

    STORYTELLER = "storyteller"
    """The storyteller's (or storyteller's team's) result: 0, 3, or 4."""
    GUESS = "guess"
    """A voter's result: found the storyteller's card or not, everybody or nobody did."""
    SINGLE_VOTE = "single vote"
    """Odyssey, 7+ players: found the card with a single vote."""
    VOTES_RECEIVED = "votes received"
    """The bonus for votes on one's own cards, capped by `bonus_cap`."""
    POPULARITY = "popularity"
    """Party: votes on the slot one voted for, capped by `bonus_cap`."""


@dataclass(frozen=True)
class Award:
    """Points scored for one reason."""

    kind: AwardKind
    """What the points are for."""
    points: int
    """How many points (0 when the reason explains why nothing was scored)."""
    reason: Phrase
    """Why, in words a player understands, without the points."""

    def render(self, translations: Translations = ENGLISH) -> str:
        """The award as a screen shows it: "+3 found the storyteller's card", or in the
        language of `translations`."""
        sign = f"+{self.points}" if self.points > 0 else str(self.points)
        return f"{sign} {self.reason.render(translations)}"

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class RoundScore:
    """The points of one round for every player, or every team in team rulesets."""

    round: Round
    """The round scored."""
    awards: Mapping[str, tuple[Award, ...]]
    """Scorer (player or team) to the awards behind their points, in seating order."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "awards", MappingProxyType(dict(self.awards)))

    @property
    def deltas(self) -> Mapping[str, int]:
        """Scorer to the points scored this round."""
        return {scorer: sum(a.points for a in awards) for scorer, awards in self.awards.items()}

    @property
    def reasons(self) -> Mapping[str, tuple[str, ...]]:
        """Scorer to the reasons as printed: "+3 found the storyteller's card"."""
        return self.reasons_in(ENGLISH)

    def reasons_in(self, translations: Translations) -> Mapping[str, tuple[str, ...]]:
        """Scorer to the reasons in the language of `translations`."""
        return {
            scorer: tuple(award.render(translations) for award in awards)
            for scorer, awards in self.awards.items()
        }
