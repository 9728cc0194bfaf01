"""Small builders that keep the rules tests short and readable."""

from collections.abc import Mapping, Sequence

from companion.rules import Game, Reveal, RoundScore, find_ruleset


def game(
    ruleset: str, players: Sequence[str], first: str | None = None, **options: int | None
) -> Game:
    """A new game of `ruleset`, first storyteller defaulting to the first seat."""
    rules = find_ruleset(ruleset).with_options(options)
    return Game.start(rules, players, first or players[0])


def reveal(
    cards: Mapping[int, str], votes: Mapping[str, Sequence[int]], trap: int | None = None
) -> Reveal:
    """A reveal from plain dicts and lists."""
    return Reveal(dict(cards), {v: tuple(s) for v, s in votes.items()}, trap)


def numbered(players: Sequence[str], order: Sequence[str] | None = None) -> dict[int, str]:
    """Cards on slots 1..k, one per player, in `order` (default: seating order)."""
    return dict(enumerate(order or players, start=1))


def deltas(score: RoundScore) -> dict[str, int]:
    """The deltas as a plain dict, for comparing with literals."""
    return dict(score.deltas)
