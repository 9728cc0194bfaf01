"""Who plays in which colour: the bridge between the players' names and the kit.

Tokens carry a colour, the rules engine knows names. A `Lineup` is the one place
that maps one to the other, so a name never has to be a colour and a colour never
has to be guessed from a name.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from companion.colours import BY_NAME, COLOURS, RGB
from companion.errors import SeatingError
from companion.names import player_name


@dataclass(frozen=True)
class Lineup:
    """Players in seating order, each with the kit colour of their tokens."""

    names: tuple[str, ...]
    """Players in clockwise order, as the rules engine seats them."""
    colours: tuple[str, ...]
    """Each player's kit colour name, in the same order."""

    def __post_init__(self) -> None:
        """Refuse a lineup the table cannot play. The rule for new names is `parse`'s,
        where names enter: a lineup rebuilt from a stored game keeps the names an
        older version let in, or that game could never go on."""
        if len(self.names) != len(self.colours):
            raise SeatingError(
                f"{len(self.names)} players but {len(self.colours)} colours were given"
            )
        for colour in self.colours:
            if colour not in BY_NAME:
                raise SeatingError(
                    f"{colour!r} is not a kit colour; the colours are "
                    f"{', '.join(c.name for c in COLOURS)}"
                )
        for given in (self.names, self.colours):
            twice = sorted({x for x in given if given.count(x) > 1})
            if twice:
                raise SeatingError(f"{', '.join(twice)} appears more than once in the lineup")

    @classmethod
    def parse(cls, entries: Sequence[str]) -> "Lineup":
        """From "Ann=red" entries (or bare names, which take the next free colour): where
        names enter from the command line, so each follows the shared rule
        (`companion.names`), trimmed and in NFC, which makes names equal in NFC repeat."""
        names: list[str] = []
        colours: list[str | None] = []
        for entry in entries:
            name, _, colour = entry.partition("=")
            names.append(player_name(name))
            colours.append(colour.strip().lower() or None)
        taken = {c for c in colours if c}
        free = iter(c.name for c in COLOURS if c.name not in taken)
        return cls(tuple(names), tuple(c or next(free, "?") for c in colours))

    @classmethod
    def of_colours(cls, players: int) -> "Lineup":
        """The first `players` kit colours, each player named after their colour."""
        if not 1 <= players <= len(COLOURS):
            raise SeatingError(
                f"a kit has {len(COLOURS)} colours, so 1 to 12 players, not {players}"
            )
        names = tuple(c.name.capitalize() for c in COLOURS[:players])
        return cls(names, tuple(c.name for c in COLOURS[:players]))

    @property
    def colour_by_player(self) -> dict[str, str]:
        """Each player's kit colour, in seating order (as the journal keeps them)."""
        return dict(zip(self.names, self.colours, strict=True))

    def player_of(self, colour: str) -> str | None:
        """The player who plays `colour`, or None when nobody does."""
        if colour in self.colours:
            return self.names[self.colours.index(colour)]
        return None

    def colour_of(self, player: str) -> str:
        """The kit colour of a player."""
        return self.colours[self.names.index(player)]

    def rgb_of(self, player: str) -> RGB:
        """The screen colour of a player."""
        return BY_NAME[self.colour_of(player)].rgb
