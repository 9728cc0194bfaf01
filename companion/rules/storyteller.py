"""Scoring of the storyteller rulesets: `classic`, `classic-1e` and `odyssey`.

The storyteller's card is the one to find. Everybody or nobody finding it is the
storyteller's failure (0 for them, 2 for each voter); otherwise the storyteller and
the finders score 3. Each non-storyteller then scores 1 per vote on a card of theirs,
up to the bonus cap. The variations between editions are the two switches below.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from companion.phrases import phrase
from companion.rules.round import Award, AwardKind, Round
from companion.rules.scoring import Scoring, capped
from companion.rules.seating import Seating
from companion.wording import votes

THREE_PLAYERS = 3
"""With three players each non-storyteller lays two cards (and holds one more)."""

NOBODY_FOUND = (phrase("nobody found your card"), phrase("nobody found the storyteller's card"))
"""The storyteller's reason and the voters' when nobody found the card."""
EVERYBODY_FOUND = (
    phrase("everybody found your card"),
    phrase("everybody found the storyteller's card"),
)
"""The storyteller's reason and the voters' when everybody found the card."""
LONE_FINDER = (phrase("only one player found your card"), phrase("found the storyteller's card"))
"""The storyteller's reason and the finder's when one voter alone found the card."""
LONE_FINDER_FOUR = (
    phrase("only one player found your card (3-player rule)"),
    phrase("found the storyteller's card (3-player rule)"),
)
"""As `LONE_FINDER`, when the first edition's 3-player rule gives them 4."""
SOME_FOUND = (
    phrase("some players, not all, found your card"),
    phrase("found the storyteller's card"),
)
"""The storyteller's reason and the finders' when some voters, not all, found the card."""
MISSED = phrase("did not find the storyteller's card")
"""A voter's reason for 0 when others found the card."""
SINGLE_VOTE = phrase("found it with a single vote")
"""Odyssey's extra point for finding the card with one vote."""


@dataclass(frozen=True)
class StorytellerScoring(Scoring):
    """Find-the-storyteller's-card scoring, with each edition's variations."""

    second_vote_from: int | None = None
    """Player count from which a voter may cast a second vote, and a voter who cast a
    single vote and found the storyteller's card scores 1 more (Odyssey: 7)."""
    lone_finder_scores_four: bool = False
    """First edition, 3 players: when exactly one voter finds the card, that voter and
    the storyteller score 4 instead of 3."""

    def cards_per_player(self, seating: Seating) -> int:
        """Cards each non-storyteller lays: two with three players, else one."""
        return 2 if len(seating) == THREE_PLAYERS else 1

    def layers(self, seating: Seating, storyteller: str) -> tuple[tuple[str, ...], ...]:
        each = self.cards_per_player(seating)
        others = [(p,) for p in seating.players if p != storyteller for _ in range(each)]
        return ((storyteller,), *others)

    def voters(self, seating: Seating, rnd: Round) -> tuple[str, ...]:
        return tuple(p for p in seating.players if p != rnd.storyteller)

    def max_votes(self, seating: Seating) -> int:
        if self.second_vote_from is not None and len(seating) >= self.second_vote_from:
            return 2
        return 1

    def award(
        self, seating: Seating, rnd: Round, bonus_cap: int | None
    ) -> Mapping[str, tuple[Award, ...]]:
        reveal = rnd.reveal
        teller = rnd.storyteller
        (target,) = reveal.slots_of(teller)
        voters = self.voters(seating, rnd)
        finders = [v for v in voters if target in reveal.votes[v]]
        awards: dict[str, list[Award]] = {p: [] for p in seating.players}

        if not finders or len(finders) == len(voters):
            if finders:
                told, guessed = EVERYBODY_FOUND
            else:
                told, guessed = NOBODY_FOUND
            awards[teller].append(Award(AwardKind.STORYTELLER, 0, told))
            for voter in voters:
                awards[voter].append(Award(AwardKind.GUESS, 2, guessed))
        else:
            lone = self.lone_finder_scores_four and len(finders) == 1
            points = 4 if lone and len(seating) == THREE_PLAYERS else 3
            if points == 4:
                told, guessed = LONE_FINDER_FOUR
            elif len(finders) == 1:
                told, guessed = LONE_FINDER
            else:
                told, guessed = SOME_FOUND
            awards[teller].append(Award(AwardKind.STORYTELLER, points, told))
            for voter in voters:
                if voter in finders:
                    awards[voter].append(Award(AwardKind.GUESS, points, guessed))
                else:
                    awards[voter].append(Award(AwardKind.GUESS, 0, MISSED))

        if self.max_votes(seating) > 1:
            for voter in finders:
                if len(reveal.votes[voter]) == 1:
                    awards[voter].append(Award(AwardKind.SINGLE_VOTE, 1, SINGLE_VOTE))

        for player in voters:
            mine = reveal.slots_of(player)
            received = sum(len(reveal.votes_on(slot)) for slot in mine)
            if received:
                text = (
                    phrase("{votes} on your card", votes=votes(received))
                    if len(mine) == 1
                    else phrase("{votes} on your cards", votes=votes(received))
                )
                awards[player].append(capped(AwardKind.VOTES_RECEIVED, received, text, bonus_cap))
        return {p: tuple(a) for p, a in awards.items()}
