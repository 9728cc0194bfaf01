"""What every scoring scheme shares: who lays cards, who votes, and the checks on both.

A scheme (storyteller, Party, Teams) answers a few questions about a round (how many
cards each player lays, who votes and how often, which slots a voter may not vote
for) and this base class turns the answers into the checks that every scheme needs,
so each illegal table is caught in one place with one wording.
"""

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping

from companion.errors import (
    CardError,
    DuplicateVoteError,
    EmptySlotVoteError,
    ExtraVoteError,
    IllegalRoundError,
    MalformedRoundError,
    MissingCardError,
    MissingVoteError,
    OwnCardVoteError,
    StorytellerVoteError,
    TrapError,
    UnexpectedCardError,
)
from companion.phrases import Phrase, phrase
from companion.rules.round import Award, AwardKind, Round
from companion.rules.seating import Seating
from companion.wording import cards, slots_phrase, votes


class Scoring(ABC):
    """A scoring scheme: the checks and the points of one kind of Dixit round."""

    has_trap: bool = False
    """Whether the storyteller sets a trap (Party)."""
    own_card_votes: bool = False
    """Whether a player may vote for their own card (Party)."""

    def scorers(self, seating: Seating) -> tuple[str, ...]:
        """Who gets points: the players, in seating order (teams override)."""
        return seating.players

    @abstractmethod
    def layers(self, seating: Seating, storyteller: str) -> tuple[tuple[str, ...], ...]:
        """Who lays the cards of a round: one entry per card, naming the players who may
        lay it (one name where the card is that player's to lay, a team's two members
        where either may)."""

    def card_problems(self, seating: Seating, rnd: Round) -> Iterator[IllegalRoundError]:
        """Cards laid by the wrong players, missing cards, too many cards.

        Here for schemes where every card is one given player's to lay; Teams override.
        """
        expected = dict.fromkeys(seating.players, 0)
        for (player,) in self.layers(seating, rnd.storyteller):
            expected[player] += 1
        yield from self.count_problems(rnd, expected)

    @abstractmethod
    def voters(self, seating: Seating, rnd: Round) -> tuple[str, ...]:
        """The players who must vote this round."""

    def non_voter_error(self, seating: Seating, rnd: Round, player: str) -> IllegalRoundError:
        """The error for a vote cast by `player`, who is not among the voters.

        In the storyteller rulesets only the storyteller does not vote; Teams override.
        """
        return StorytellerVoteError(
            phrase("{player} is the storyteller and does not vote", player=player),
            round_number=rnd.number,
            player=player,
            slot=rnd.reveal.votes[player][0],
        )

    @abstractmethod
    def max_votes(self, seating: Seating) -> int:
        """How many votes (on different slots) one voter may cast."""

    @abstractmethod
    def award(
        self, seating: Seating, rnd: Round, bonus_cap: int | None
    ) -> Mapping[str, tuple[Award, ...]]:
        """The points of a legal round, scorer to awards, in `scorers` order."""

    def forbidden_slots(self, seating: Seating, rnd: Round, voter: str) -> tuple[int, ...]:
        """Slots `voter` may not vote for: their own cards, unless the scheme allows it."""
        if self.own_card_votes:
            return ()
        return rnd.reveal.slots_of(voter)

    def check_well_formed(self, seating: Seating, rnd: Round) -> None:
        """Raise `MalformedRoundError` for a round that does not describe this table."""
        reveal = rnd.reveal

        def malformed(problem: Phrase) -> MalformedRoundError:
            return MalformedRoundError(
                phrase("round {number}: {problem}", number=rnd.number, problem=problem)
            )

        for slot, owner in reveal.cards.items():
            if slot < 1:
                raise malformed(phrase("slot {slot} does not exist (slots start at 1)", slot=slot))
            if owner not in seating:
                raise malformed(
                    phrase(
                        "the card on slot {slot} belongs to {owner}, who is not playing",
                        slot=slot,
                        owner=repr(owner),
                    )
                )
        for voter, voted in reveal.votes.items():
            if voter not in seating:
                raise malformed(phrase("{voter} voted but is not playing", voter=repr(voter)))
            for slot in voted:
                if slot < 1:
                    raise malformed(
                        phrase(
                            "{voter} voted for slot {slot}, which does not exist",
                            voter=voter,
                            slot=slot,
                        )
                    )
        if reveal.trap is not None and reveal.trap < 1:
            raise malformed(
                phrase("the trap is on slot {slot}, which does not exist", slot=reveal.trap)
            )

    def problems(self, seating: Seating, rnd: Round) -> Iterator[IllegalRoundError]:
        """Every rule the round breaks, cards first, then the trap, then the votes."""
        yield from self.card_problems(seating, rnd)
        yield from self.trap_problems(rnd)
        yield from self.vote_problems(seating, rnd)

    def trap_problems(self, rnd: Round) -> Iterator[TrapError]:
        """A trap outside Party, a missing trap, or a trap on an empty slot."""
        trap = rnd.reveal.trap
        n = rnd.number
        if not self.has_trap:
            if trap is not None:
                yield TrapError(
                    phrase("a trap lies on slot {slot}, but this ruleset has no trap", slot=trap),
                    round_number=n,
                    slot=trap,
                )
        elif trap is None:
            yield TrapError(
                phrase("{player}, the storyteller, has not set the trap", player=rnd.storyteller),
                round_number=n,
                player=rnd.storyteller,
            )
        elif trap not in rnd.reveal.cards:
            yield TrapError(
                phrase("the trap is on slot {slot}, which holds no card", slot=trap),
                round_number=n,
                player=rnd.storyteller,
                slot=trap,
            )

    def vote_problems(self, seating: Seating, rnd: Round) -> Iterator[IllegalRoundError]:
        """Votes by non-voters, on empty or own slots, doubled, too many, or missing."""
        reveal = rnd.reveal
        n = rnd.number
        voters = self.voters(seating, rnd)
        allowed = self.max_votes(seating)
        for voter in seating.players:
            voted = reveal.votes.get(voter, ())
            if not voted:
                if voter in voters:
                    yield MissingVoteError(
                        phrase("{voter} has not voted", voter=voter), round_number=n, player=voter
                    )
                continue
            if voter not in voters:
                yield self.non_voter_error(seating, rnd, voter)
                continue
            forbidden = self.forbidden_slots(seating, rnd, voter)
            seen: set[int] = set()
            for slot in voted:
                if slot not in reveal.cards:
                    yield EmptySlotVoteError(
                        phrase(
                            "{voter} voted for slot {slot}, which holds no card",
                            voter=voter,
                            slot=slot,
                        ),
                        round_number=n,
                        player=voter,
                        slot=slot,
                    )
                elif slot in seen:
                    yield DuplicateVoteError(
                        phrase("{voter} voted twice for slot {slot}", voter=voter, slot=slot),
                        round_number=n,
                        player=voter,
                        slot=slot,
                    )
                elif slot in forbidden:
                    yield OwnCardVoteError(
                        phrase(
                            "{voter} voted for slot {slot}, their own card", voter=voter, slot=slot
                        ),
                        round_number=n,
                        player=voter,
                        slot=slot,
                    )
                seen.add(slot)
            if len(voted) > allowed:
                yield ExtraVoteError(
                    phrase(
                        "{voter} cast {cast} ({slots}); only {allowed} allowed",
                        voter=voter,
                        cast=votes(len(voted)),
                        slots=slots_phrase(voted),
                        allowed=votes(allowed),
                    ),
                    round_number=n,
                    player=voter,
                    slot=voted[allowed],
                )

    @staticmethod
    def count_problems(rnd: Round, expected: Mapping[str, int]) -> Iterator[CardError]:
        """Compare the cards each player laid with how many they must lay."""
        for player, wanted in expected.items():
            laid = rnd.reveal.slots_of(player)
            if len(laid) > wanted:
                yield UnexpectedCardError(
                    phrase(
                        "{player} laid {laid} ({slots}) but must not lay a card",
                        player=player,
                        laid=cards(len(laid)),
                        slots=slots_phrase(laid),
                    )
                    if wanted == 0
                    else phrase(
                        "{player} laid {laid} ({slots}) but must lay {wanted}",
                        player=player,
                        laid=cards(len(laid)),
                        slots=slots_phrase(laid),
                        wanted=cards(wanted),
                    ),
                    round_number=rnd.number,
                    player=player,
                    slot=laid[wanted],
                )
            elif len(laid) < wanted:
                yield MissingCardError(
                    phrase(
                        "{player} laid only {laid}; {wanted} expected",
                        player=player,
                        laid=cards(len(laid)),
                        wanted=cards(wanted),
                    )
                    if laid
                    else phrase(
                        "{player} has not laid a card; {wanted} expected",
                        player=player,
                        wanted=cards(wanted),
                    ),
                    round_number=rnd.number,
                    player=player,
                )


def capped(kind: AwardKind, points: int, reason: Phrase, cap: int | None) -> Award:
    """An award of `points`, cut down to `cap` with the cut said in the reason."""
    if cap is not None and points > cap:
        return Award(kind, cap, phrase("{reason}, capped at {cap}", reason=reason, cap=cap))
    return Award(kind, points, reason)
