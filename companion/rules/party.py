"""Scoring of Dixit Party (`party-1e`, `party`): vote for the most popular card.

Everybody, the storyteller included, lays one card and casts one vote, and may vote
for their own card. The storyteller also traps one slot. A player on the trapped slot
or alone on their slot scores 0; any other player scores the number of votes on their
slot, their own included, up to the cap (5 in the first edition, none later). Who laid
which card does not matter for the points.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from companion.phrases import phrase
from companion.rules.round import Award, AwardKind, Round
from companion.rules.scoring import Scoring, capped
from companion.rules.seating import Seating
from companion.wording import votes


@dataclass(frozen=True)
class PartyScoring(Scoring):
    """Popularity scoring with the storyteller's trap."""

    has_trap = True
    own_card_votes = True

    def layers(self, seating: Seating, storyteller: str) -> tuple[tuple[str, ...], ...]:
        return tuple((p,) for p in seating.players)

    def voters(self, seating: Seating, rnd: Round) -> tuple[str, ...]:
        return seating.players

    def max_votes(self, seating: Seating) -> int:
        return 1

    def award(
        self, seating: Seating, rnd: Round, bonus_cap: int | None
    ) -> Mapping[str, tuple[Award, ...]]:
        reveal = rnd.reveal
        awards: dict[str, tuple[Award, ...]] = {}
        for player in seating.players:
            (slot,) = reveal.votes[player]
            on_slot = len(reveal.votes_on(slot))
            if slot == reveal.trap:
                text = phrase("voted for slot {slot}, the trapped card", slot=slot)
                award = Award(AwardKind.POPULARITY, 0, text)
            elif on_slot == 1:
                award = Award(AwardKind.POPULARITY, 0, phrase("alone on slot {slot}", slot=slot))
            else:
                text = phrase(
                    "{votes} on slot {slot}, yours included", votes=votes(on_slot), slot=slot
                )
                award = capped(AwardKind.POPULARITY, on_slot, text, bonus_cap)
            awards[player] = (award,)
        return awards
