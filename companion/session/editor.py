"""The round editor: a round entered by hand, or a past round corrected.

When the camera fails the game goes on by hand, and when a past round was scored
from a misplaced token it is put right here. Both are the same job: say, for each
player, which slot their card and their votes are on. The editor is a plain value;
every key press gives a new editor, and the rules engine judges what it holds.
"""

import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.errors import CardError, IllegalRoundError, RulesError, TrapError, VoteError
from companion.phrases import Phrase, listing, phrase
from companion.rules import Game, Reveal, RoundScore
from companion.rules.seating import TEAM_JOINER


class RowKind(enum.Enum):
    """What a row of the editor sets."""

    ROUND = "round"
    CARD = "card"
    VOTE = "vote"
    TRAP = "trap"


@dataclass(frozen=True)
class Row:
    """One line of the editor."""

    kind: RowKind
    """What it sets."""
    player: str | None
    """Whose card or vote (None for the round and the trap)."""
    index: int
    """Which of the player's cards or votes (1 for the first)."""
    value: int | None
    """The slot (the round number for the round row), or None for none."""

    @property
    def key(self) -> tuple[RowKind, str | None, int]:
        """What the row stands for, whatever its value."""
        return (self.kind, self.player, self.index)


@dataclass(frozen=True)
class Fault:
    """Something that stops the round being scored, and the rows that answer for it."""

    words: Phrase
    """What is wrong, without the round number."""
    rows: tuple[int, ...]
    """The rows at fault (none: the round as a whole)."""


@dataclass(frozen=True)
class RoundEditor:
    """A round being entered or corrected, with the row the arrow keys change."""

    game: Game
    """The game as committed: the round edited is one of its rounds or its next."""
    slots: tuple[int, ...]
    """The board's slot numbers, the values a card or a vote may take."""
    live: Reveal
    """The next round as last read from the table, shown when it is chosen."""
    number: int
    """The round being edited."""
    rows: tuple[Row, ...]
    """The round row, then cards, votes and the trap."""
    selected: int = 0
    """The row the left and right keys change."""

    @classmethod
    def open(
        cls, game: Game, slots: Sequence[int], live: Reveal, number: int | None = None
    ) -> "RoundEditor":
        """An editor on round `number` (default: the next round, or the last one played
        once the game is over)."""
        playing = game.outcome is None
        chosen = number or (game.round_number if playing else len(game.played))
        empty = cls(game, tuple(slots), live, chosen, ())
        return replace(empty, rows=empty._rows_for(empty._stored(chosen)), selected=1)

    @property
    def past(self) -> bool:
        """Whether the round edited was already played (a correction)."""
        return self.number < self.game.round_number

    @property
    def before(self) -> Game:
        """The game just before the edited round."""
        return self.game.before_round(self.number)

    def reveal(self) -> Reveal:
        """The round as the rows say."""
        cards = {
            r.value: r.player
            for r in self._filled(RowKind.CARD)
            if r.player is not None and r.value is not None
        }
        votes: dict[str, tuple[int, ...]] = {}
        for r in self._filled(RowKind.VOTE):
            if r.player is not None and r.value is not None:
                votes[r.player] = (*votes.get(r.player, ()), r.value)
        trap = next((r.value for r in self._filled(RowKind.TRAP)), None)
        return Reveal(cards, votes, trap)

    def problems(self) -> tuple[Phrase, ...]:
        """Everything that stops the round being scored, in words."""
        return tuple(fault.words for fault in self._faults)

    def faults(self) -> tuple[Fault, ...]:
        """The problems, each with the rows at fault, in the order `problems` says them."""
        return self._faults

    @functools.cached_property
    def _faults(self) -> tuple[Fault, ...]:
        """The problems, judged once per editor value (the screen asks every frame)."""
        taken: dict[int, list[str]] = {}
        for r in self._filled(RowKind.CARD):
            if r.value is not None and r.player is not None:
                taken.setdefault(r.value, []).append(r.player)
        clashes = [
            Fault(
                phrase(
                    "{players} both have a card on slot {slot}", players=listing(who), slot=slot
                ),
                tuple(
                    i for i, r in enumerate(self.rows) if r.kind is RowKind.CARD and r.value == slot
                ),
            )
            for slot, who in sorted(taken.items())
            if len(who) > 1
        ]
        try:
            found = self.before.problems(self.reveal())
        except RulesError as error:
            return (*clashes, Fault(error.phrase, ()))
        if clashes or found or not self.past:
            return (*clashes, *(Fault(p.detail, self._at_fault(p)) for p in found))
        try:
            self.game.corrected(self.number, self.reveal())
        except RulesError as error:
            return (Fault(error.phrase, ()),)
        return ()

    def _at_fault(self, error: IllegalRoundError) -> tuple[int, ...]:
        """The row a rule's complaint is about: the player's row on the slot named, else
        their first unanswered one, else their first (none when it names no row)."""
        kind = (
            RowKind.TRAP
            if isinstance(error, TrapError)
            else RowKind.VOTE
            if isinstance(error, VoteError)
            else RowKind.CARD
            if isinstance(error, CardError)
            else None
        )
        named = {error.player}
        if error.player is not None and error.player not in self.before.seating.players:
            named |= set(error.player.split(TEAM_JOINER))  # a team: its members' rows
        mine = [
            i
            for i, r in enumerate(self.rows)
            if r.kind is kind and (kind is RowKind.TRAP or r.player in named)
        ]
        on_slot = [i for i in mine if error.slot is not None and self.rows[i].value == error.slot]
        empty = [i for i in mine if self.rows[i].value is None]
        return tuple(on_slot[-1:] or empty[:1] or mine[:1])

    def preview(self) -> RoundScore | None:
        """The score the round would get, when it can be scored: for a past round, as
        the rules engine's correction of the game scores it (the journal stores the
        same correction)."""
        if self.problems():
            return None
        if self.past:
            return self.game.corrected(self.number, self.reveal()).played[self.number - 1].score
        return self.before.score(self.reveal())

    def holding(self, reveal: Reveal) -> "RoundEditor":
        """The editor on the same round with its rows set to `reveal` (a round typed
        elsewhere, judged as the table's editor would)."""
        return replace(self, rows=self._rows_for(reveal), selected=0)

    def move(self, step: int) -> "RoundEditor":
        """Select the row `step` rows down (up when negative), wrapping around."""
        return replace(self, selected=(self.selected + step) % len(self.rows))

    def pick(self, index: int) -> "RoundEditor":
        """Select row `index`, if there is one."""
        return replace(self, selected=index) if 0 <= index < len(self.rows) else self

    def change(self, step: int) -> "RoundEditor":
        """The selected row's value moved `step` places along its choices."""
        row = self.rows[self.selected]
        if row.kind is RowKind.ROUND:
            last = self.game.round_number if self.game.outcome is None else len(self.game.played)
            number = (self.number - 1 + step) % last + 1
            moved = replace(self, number=number)
            return replace(moved, rows=moved._rows_for(moved._stored(number)), selected=0)
        choices: list[int | None] = [None, *self.slots]
        at = choices.index(row.value) if row.value in choices else 0
        changed = replace(row, value=choices[(at + step) % len(choices)])
        rows = list(self.rows)
        rows[self.selected] = changed
        edited = replace(self, rows=tuple(rows))
        kept = {r.key: r.value for r in edited.rows}
        fresh = tuple(
            replace(r, value=kept[r.key]) if r.key in kept else r
            for r in edited._rows_for(edited.reveal())
        )
        keys = [r.key for r in fresh]
        selected = keys.index(row.key) if row.key in keys else min(self.selected, len(fresh) - 1)
        return replace(edited, rows=fresh, selected=selected)

    def _stored(self, number: int) -> Reveal:
        """The reveal of round `number` as played, or as read for the next round."""
        if number <= len(self.game.played):
            return self.game.played[number - 1].score.round.reveal
        return self.live

    def _filled(self, kind: RowKind) -> list[Row]:
        return [r for r in self.rows if r.kind is kind]

    def _rows_for(self, reveal: Reveal) -> tuple[Row, ...]:
        """The rows that describe `reveal` as round `self.number`."""
        before = self.before
        scoring, seating = before.ruleset.scoring, before.seating
        storyteller = seating.storyteller(before.first_storyteller, self.number)
        rows = [Row(RowKind.ROUND, None, 1, self.number)]
        may_lay = [p for options in scoring.layers(seating, storyteller) for p in options]
        for player in seating.players:
            laid = reveal.slots_of(player)
            for i in range(1, max(may_lay.count(player), len(laid)) + 1):
                rows.append(Row(RowKind.CARD, player, i, laid[i - 1] if i <= len(laid) else None))
        try:
            voters = set(scoring.voters(seating, before.next_round(reveal)))
        except IllegalRoundError:
            voters = set()
        most = scoring.max_votes(seating)
        for player in seating.players:
            voted = reveal.votes.get(player, ())
            if player not in voters and not voted:
                continue
            for i in range(1, max(most, len(voted)) + 1):
                rows.append(Row(RowKind.VOTE, player, i, voted[i - 1] if i <= len(voted) else None))
        if scoring.has_trap or reveal.trap is not None:
            rows.append(Row(RowKind.TRAP, None, 1, reveal.trap))
        return tuple(rows)
