"""Who sits where: seating order, storyteller rotation and teams.

Players are named by strings (kit colours or people's names) in clockwise seating
order. The player to a storyteller's left, the next seat clockwise, tells next.
Teams are the two players sitting opposite each other: seats i and i + n/2.
"""

from dataclasses import dataclass

from companion.errors import SeatingError
from companion.phrases import phrase

TEAM_JOINER = "+"
"""Joins the two members' names into a team name, lower seat first: "red+pink"."""


@dataclass(frozen=True)
class Seating:
    """The players around the table, clockwise."""

    players: tuple[str, ...]
    """Player names in clockwise seating order."""

    def __post_init__(self) -> None:
        """Refuse only what the rules cannot seat. The rule for names entering the
        companion (`companion.names`) is applied where they enter, not here: the rules
        also replay games a journal stored before that rule, which must still load."""
        for seat, name in enumerate(self.players, start=1):
            if not isinstance(name, str) or not name:
                raise SeatingError(
                    phrase(
                        "seat {seat}: a player needs a name, not {name}", seat=seat, name=repr(name)
                    )
                )
            if TEAM_JOINER in name:
                raise SeatingError(
                    phrase(
                        "player {name}: names may not contain {joiner}, which joins team names",
                        name=repr(name),
                        joiner=repr(TEAM_JOINER),
                    )
                )
        seen: set[str] = set()
        for name in self.players:
            if name in seen:
                raise SeatingError(phrase("player {name} is seated twice", name=repr(name)))
            seen.add(name)

    def __len__(self) -> int:
        return len(self.players)

    def __contains__(self, player: object) -> bool:
        return player in self.players

    def seat_of(self, player: str) -> int:
        """The 0-based seat of a player."""
        try:
            return self.players.index(player)
        except ValueError:
            raise SeatingError(
                phrase("{player} is not one of the players", player=repr(player))
            ) from None

    def storyteller(self, first: str, round_number: int) -> str:
        """The storyteller of a round (1-based), rotating clockwise from `first`."""
        return self.players[(self.seat_of(first) + round_number - 1) % len(self)]

    def partner(self, player: str) -> str:
        """The teammate sitting opposite (seat i + n/2)."""
        half = len(self) // 2
        return self.players[(self.seat_of(player) + half) % len(self)]

    def team(self, player: str) -> str:
        """The name of the player's team: both members joined, lower seat first."""
        seat = self.seat_of(player) % (len(self) // 2)
        return self.teams[seat]

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """The teams' members, lower seat first, in order of the lower seat."""
        half = len(self) // 2
        return tuple((self.players[seat], self.players[seat + half]) for seat in range(half))

    @property
    def teams(self) -> tuple[str, ...]:
        """Team names (members joined by "+"), in order of their lower seat."""
        return tuple(TEAM_JOINER.join(pair) for pair in self.pairs)
