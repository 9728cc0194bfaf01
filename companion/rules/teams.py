"""Scoring of Dixit in teams (`teams-1e`, `teams`).

Partners sit opposite each other and score together. The storyteller's partner and
one member of every other team lay a card; the other member of each other team votes
once. Scoring follows the storyteller rules per team: all or none found the card is
0 for the storyteller's team and 2 for every other team; otherwise 3 for the
storyteller's team and for each team whose voter found it. Every card other than the
storyteller's earns its team 1 per vote, capped per card in the first edition.

Decision: a vote for the voter's partner's card is legal and scored like any other.
A team agrees aloud which member lays a card, "sans se montrer ni se décrire les
cartes qu'ils ont en main" (rulebook 004), and that member picks it secretly, so the
voter does not know which card is their partner's: such a vote happens at real
tables. It earns the team 1, like any vote on a card of one of its members (capped
per card in the first edition). A voter never lays a card, so nobody can vote for
their own.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from companion.errors import (
    IllegalRoundError,
    MissingCardError,
    TeamCardsError,
    VoterLaidCardError,
)
from companion.phrases import phrase
from companion.rules.round import Award, AwardKind, Round
from companion.rules.scoring import Scoring, capped
from companion.rules.seating import Seating
from companion.wording import slots_phrase, votes


@dataclass(frozen=True)
class TeamScoring(Scoring):
    """Find-the-storyteller's-card scoring between teams of two."""

    def scorers(self, seating: Seating) -> tuple[str, ...]:
        return seating.teams

    def layers(self, seating: Seating, storyteller: str) -> tuple[tuple[str, ...], ...]:
        others = tuple(pair for pair in seating.pairs if storyteller not in pair)
        return ((storyteller,), (seating.partner(storyteller),), *others)

    def card_problems(self, seating: Seating, rnd: Round) -> Iterator[IllegalRoundError]:
        teller = rnd.storyteller
        partner = seating.partner(teller)
        yield from self.count_problems(rnd, {teller: 1, partner: 1})
        for team, members in zip(seating.teams, seating.pairs, strict=True):
            if teller in members:
                continue
            laid = {m: rnd.reveal.slots_of(m) for m in members}
            layers = [m for m in members if laid[m]]
            if not layers:
                yield MissingCardError(
                    phrase("team {team} has not laid a card; one of them must", team=team),
                    round_number=rnd.number,
                    player=team,
                )
            elif len(layers) == 2:
                first, second = members
                yield TeamCardsError(
                    phrase(
                        "team {team} laid two cards ({first} on {first_slots}, "
                        "{second} on {second_slots}); only one member may",
                        team=team,
                        first=first,
                        first_slots=slots_phrase(laid[first]),
                        second=second,
                        second_slots=slots_phrase(laid[second]),
                    ),
                    round_number=rnd.number,
                    player=team,
                    slot=laid[members[1]][0],
                )
            else:
                yield from self.count_problems(rnd, {layers[0]: 1})

    def voters(self, seating: Seating, rnd: Round) -> tuple[str, ...]:
        teller_team = seating.team(rnd.storyteller)
        return tuple(
            p
            for p in seating.players
            if seating.team(p) != teller_team
            and not rnd.reveal.slots_of(p)
            and rnd.reveal.slots_of(seating.partner(p))
        )

    def non_voter_error(self, seating: Seating, rnd: Round, player: str) -> IllegalRoundError:
        if player == rnd.storyteller:
            return super().non_voter_error(seating, rnd, player)
        voted = rnd.reveal.votes[player]
        slots = slots_phrase(voted)
        if rnd.reveal.slots_of(player):
            message = phrase(
                "{player} voted ({slots}) but laid a card, so does not vote",
                player=player,
                slots=slots,
            )
        elif player == seating.partner(rnd.storyteller):
            message = phrase(
                "{player} voted ({slots}) but is the storyteller's partner and does not vote",
                player=player,
                slots=slots,
            )
        else:
            message = phrase(
                "{player} voted ({slots}) but did not lay a card, but neither did their "
                "teammate, so nobody of the team votes",
                player=player,
                slots=slots,
            )
        return VoterLaidCardError(
            message,
            round_number=rnd.number,
            player=player,
            slot=voted[0],
        )

    def max_votes(self, seating: Seating) -> int:
        return 1

    def award(
        self, seating: Seating, rnd: Round, bonus_cap: int | None
    ) -> Mapping[str, tuple[Award, ...]]:
        reveal = rnd.reveal
        teller = rnd.storyteller
        teller_team = seating.team(teller)
        (target,) = reveal.slots_of(teller)
        voters = self.voters(seating, rnd)
        finders = [v for v in voters if target in reveal.votes[v]]
        awards: dict[str, list[Award]] = {t: [] for t in seating.teams}

        if not finders or len(finders) == len(voters):
            if finders:
                told = phrase("every team found {teller}'s card", teller=teller)
                guessed = phrase("every team found the storyteller's card")
            else:
                told = phrase("nobody found {teller}'s card", teller=teller)
                guessed = phrase("nobody found the storyteller's card")
            awards[teller_team].append(Award(AwardKind.STORYTELLER, 0, told))
            for voter in voters:
                awards[seating.team(voter)].append(Award(AwardKind.GUESS, 2, guessed))
        else:
            told = phrase("some teams, not all, found {teller}'s card", teller=teller)
            awards[teller_team].append(Award(AwardKind.STORYTELLER, 3, told))
            for voter in voters:
                if voter in finders:
                    found = phrase("{voter} found the storyteller's card", voter=voter)
                    awards[seating.team(voter)].append(Award(AwardKind.GUESS, 3, found))
                else:
                    missed = phrase("{voter} did not find the storyteller's card", voter=voter)
                    awards[seating.team(voter)].append(Award(AwardKind.GUESS, 0, missed))

        for slot, owner in reveal.cards.items():
            received = len(reveal.votes_on(slot))
            if slot == target or not received:
                continue
            text = phrase("{votes} on {owner}'s card", votes=votes(received), owner=owner)
            awards[seating.team(owner)].append(
                capped(AwardKind.VOTES_RECEIVED, received, text, bonus_cap)
            )
        return {t: tuple(a) for t, a in awards.items()}
