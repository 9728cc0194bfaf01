"""The game state machine: turns, storyteller rotation, piles, end of game, undo.

A `Game` is an immutable value: `play` returns the game with one more round and
`undo` the game with one less, so undo, replay and rescoring from a corrected round
are free, like python-chess's move stack without the mutation.
"""

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.errors import (
    CorrectionError,
    GameOverError,
    IllegalRoundError,
    InvalidOptionError,
    NothingToUndoError,
    RulesError,
    SeatingError,
)
from companion.phrases import Phrase, phrase, plural
from companion.rules.round import Reveal, Round, RoundScore
from companion.rules.rulesets import Ruleset
from companion.rules.seating import Seating
from companion.wording import round_span_phrase, rounds_played_phrase


class Termination(enum.Enum):
    """Why a game ended: the value in English, `words` in the table's language."""

    TARGET = "a score reached the target"
    STORYTELLER_TURNS = "every player has told their turns"
    ROUND_LIMIT = "the round limit was reached"
    DRAW_PILE = "the draw pile ran out"

    @property
    def words(self) -> Phrase:
        """Why the game ended, to be shown in the table's language."""
        return _TERMINATION_WORDS[self]


_TERMINATION_WORDS = {
    Termination.TARGET: phrase("a score reached the target"),
    Termination.STORYTELLER_TURNS: phrase("every player has told their turns"),
    Termination.ROUND_LIMIT: phrase("the round limit was reached"),
    Termination.DRAW_PILE: phrase("the draw pile ran out"),
}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, and who won."""

    termination: Termination
    """Why it ended."""
    after_round: int
    """The last round played."""
    winners: tuple[str, ...]
    """The players (or teams) with the highest total; several on a tie."""


@dataclass(frozen=True)
class Piles:
    """Cards in the draw and discard piles, once hands are refilled."""

    draw: int
    """Cards left in the draw pile."""
    discard: int
    """Cards in the discard pile."""


@dataclass(frozen=True)
class PlayedRound:
    """A scored round with the state of the game right after it."""

    score: RoundScore
    """The round and its points."""
    totals: Mapping[str, int]
    """Every scorer's total after this round."""
    piles: Piles
    """The piles after hands were refilled."""
    ended: Termination | None
    """Why the game ended with this round, if it did."""


@dataclass(frozen=True)
class Game:
    """A game of one ruleset at one table, with every round played so far."""

    ruleset: Ruleset
    """The rules, options included."""
    seating: Seating
    """Players in clockwise order."""
    first_storyteller: str
    """Who told in round 1."""
    played: tuple[PlayedRound, ...] = ()
    """The rounds played, oldest first."""

    def __post_init__(self) -> None:
        n = len(self.seating)
        self.ruleset.check_players(n)
        if self.first_storyteller not in self.seating:
            raise SeatingError(
                phrase(
                    "first storyteller {player} is not one of the players",
                    player=repr(self.first_storyteller),
                )
            )
        hand = self.ruleset.hand_size(n)
        if self.ruleset.deck < n * hand:
            raise InvalidOptionError(
                phrase(
                    "{ruleset}: a deck of {deck} cannot deal {hand} to each of {players}",
                    ruleset=self.ruleset.name,
                    deck=plural("{n} card", "{n} cards", self.ruleset.deck),
                    hand=plural("{n} card", "{n} cards", hand),
                    players=plural("{n} player", "{n} players", n),
                )
            )

    @classmethod
    def start(cls, ruleset: Ruleset, players: Sequence[str], first_storyteller: str) -> "Game":
        """A new game; raises if the players or options do not fit the ruleset."""
        return cls(ruleset, Seating(tuple(players)), first_storyteller)

    @property
    def round_number(self) -> int:
        """The number of the next round to play (1 before the first)."""
        return len(self.played) + 1

    @property
    def storyteller(self) -> str:
        """Who tells in the next round."""
        return self.seating.storyteller(self.first_storyteller, self.round_number)

    @property
    def hand_size(self) -> int:
        """Cards each player holds."""
        return self.ruleset.hand_size(len(self.seating))

    @property
    def cards_per_round(self) -> int:
        """Cards laid out each round."""
        return len(self.ruleset.scoring.layers(self.seating, self.storyteller))

    @property
    def scorers(self) -> tuple[str, ...]:
        """Who scores: players, or teams."""
        return self.ruleset.scorers(self.seating)

    @property
    def totals(self) -> Mapping[str, int]:
        """Every scorer's total so far, in seating order."""
        return self._totals_after(self._last)

    @property
    def piles(self) -> Piles:
        """The draw and discard piles now."""
        return self._piles_after(self._last)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._outcome_after(len(self.played), self._last)

    def next_round(self, reveal: Reveal) -> Round:
        """The reveal placed as the next round of this game."""
        return Round(self.round_number, self.storyteller, reveal)

    def problems(self, reveal: Reveal) -> tuple[IllegalRoundError, ...]:
        """Everything wrong with a reveal as the next round (empty when it can be scored)."""
        return self.ruleset.problems(self.seating, self.next_round(reveal))

    def score(self, reveal: Reveal) -> RoundScore:
        """The score the reveal would get as the next round, without playing it."""
        return self._score_after(len(self.played), self._last, reveal)

    def play(self, reveal: Reveal) -> "Game":
        """The game with the reveal scored as its next round."""
        return self.play_all((reveal,))

    def play_all(self, reveals: Iterable[Reveal]) -> "Game":
        """The game with each reveal scored in turn as its next round: `play` for each,
        in time linear in the rounds (a game is a value, so each `play` copies the
        rounds before it; a game file or an import of thousands of rounds would be
        quadratic)."""
        played = list(self.played)
        for reveal in reveals:
            played.append(self._round_after(len(played), played[-1] if played else None, reveal))
        return Game(self.ruleset, self.seating, self.first_storyteller, tuple(played))

    @property
    def _last(self) -> PlayedRound | None:
        return self.played[-1] if self.played else None

    def _totals_after(self, last: PlayedRound | None) -> Mapping[str, int]:
        if last is not None:
            return last.totals
        return MappingProxyType(dict.fromkeys(self.scorers, 0))

    def _piles_after(self, last: PlayedRound | None) -> Piles:
        if last is not None:
            return last.piles
        n = len(self.seating)
        return Piles(draw=self.ruleset.deck - n * self.hand_size, discard=0)

    def _outcome_after(self, count: int, last: PlayedRound | None) -> Outcome | None:
        """How the game ended after its first `count` rounds, the last of them `last`."""
        if last is None or last.ended is None:
            return None
        best = max(last.totals.values())
        winners = tuple(s for s, total in last.totals.items() if total == best)
        return Outcome(last.ended, count, winners)

    def _score_after(self, count: int, last: PlayedRound | None, reveal: Reveal) -> RoundScore:
        """The score of `reveal` as round `count + 1`, after `last`."""
        outcome = self._outcome_after(count, last)
        if outcome is not None:
            raise GameOverError(
                phrase(
                    "round {number}: {problem}",
                    number=count + 1,
                    problem=phrase(
                        "the game ended after round {round} ({why})",
                        round=outcome.after_round,
                        why=outcome.termination.words,
                    ),
                )
            )
        number = count + 1
        storyteller = self.seating.storyteller(self.first_storyteller, number)
        return self.ruleset.score(self.seating, Round(number, storyteller, reveal))

    def _round_after(self, count: int, last: PlayedRound | None, reveal: Reveal) -> PlayedRound:
        """`reveal` scored as round `count + 1`, after `last`, with the game's state then."""
        score = self._score_after(count, last, reveal)
        before = self._totals_after(last)
        totals = {s: before[s] + score.deltas[s] for s in self.scorers}
        piles, ran_out = self._refill(self._piles_after(last), len(reveal.cards))
        ended = self._termination(count + 1, totals, ran_out)
        return PlayedRound(score, MappingProxyType(totals), piles, ended)

    def before_round(self, number: int) -> "Game":
        """The game as it stood before round `number` was played."""
        return Game(self.ruleset, self.seating, self.first_storyteller, self.played[: number - 1])

    def corrected(self, number: int, reveal: Reveal) -> "Game":
        """The game with round `number` replaced by `reveal` and every later round
        scored again: the one way a past round is corrected, by the table's editor
        (which shows the result before it is saved) and by the journal alike.

        An illegal `reveal` raises the rules error that scoring it raises; a round
        that was not played, or a correction after which a later round could not
        have been played (the game would have ended sooner, say), raises
        `CorrectionError`.
        """
        played = len(self.played)
        if not 1 <= number <= played:
            raise CorrectionError(
                plural(
                    "there is no round {number} to correct ({played} played)",
                    "there is no round {number} to correct ({played} played)",
                    played,
                    number=number,
                    played=rounds_played_phrase(played),
                )
            )
        game = self.before_round(number).play(reveal)
        for later, kept in enumerate(self.played[number:], start=number + 1):
            try:
                game = game.play(kept.score.round.reveal)
            except RulesError as err:
                raise CorrectionError(
                    plural(
                        "with round {number} corrected, {rounds} could not have been played "
                        "({problem})",
                        "with round {number} corrected, {rounds} could not have been played "
                        "({problem})",
                        played - later + 1,
                        number=number,
                        rounds=round_span_phrase(later, played),
                        problem=err.phrase,
                    )
                ) from err
        return game

    def undo(self) -> "Game":
        """The game without its last round."""
        if not self.played:
            raise NothingToUndoError(
                phrase("no round has been played yet, so there is nothing to undo")
            )
        return Game(self.ruleset, self.seating, self.first_storyteller, self.played[:-1])

    def _refill(self, piles: Piles, laid: int) -> tuple[Piles, bool]:
        """Discard the cards laid out and draw as many; say if the draw pile ran out."""
        draw, discard = piles.draw, piles.discard + laid
        if self.ruleset.reshuffle:
            if draw < laid:
                draw, discard = draw + discard, 0
            return Piles(draw - laid, discard), False
        return Piles(max(draw - laid, 0), discard), draw <= laid

    def _termination(
        self, number: int, totals: Mapping[str, int], ran_out: bool
    ) -> Termination | None:
        """Whether round `number`, being played, ends the game, and why."""
        rules = self.ruleset
        if rules.target is not None and max(totals.values()) >= rules.target:
            return Termination.TARGET
        turns = rules.storyteller_turns
        if turns is not None and number >= turns * len(self.seating):
            return Termination.STORYTELLER_TURNS
        if rules.round_limit is not None and number >= rules.round_limit:
            return Termination.ROUND_LIMIT
        if ran_out:
            return Termination.DRAW_PILE
        return None
