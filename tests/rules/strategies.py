"""Hypothesis strategies for random legal games of every ruleset.

The strategies build tables the way players do (who lays which card, who may vote
where), from the rules as written in RULES.md, not from the engine's own answers.
"""

import math

from hypothesis import strategies as st

from companion.rules import RULESETS, Game, Reveal

COLOURS = (
    "red",
    "blue",
    "green",
    "yellow",
    "white",
    "black",
    "orange",
    "pink",
    "violet",
    "grey",
    "brown",
    "cyan",
)
PARTY = {"party", "party-1e"}
TEAMS = {"teams", "teams-1e"}


def partner(players: tuple[str, ...], player: str) -> str:
    return players[(players.index(player) + len(players) // 2) % len(players)]


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A new game of any ruleset, player count, first storyteller and options."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    n = draw(st.sampled_from(rules.player_counts))
    options: dict[str, int | None] = {}
    if draw(st.booleans()):
        options["bonus_cap"] = draw(st.sampled_from([None, 0, 1, 2, 3, 5]))
    if rules.target is not None and draw(st.booleans()):
        options["target"] = draw(st.integers(5, 40))
    if rules.storyteller_turns is not None and draw(st.booleans()):
        options["storyteller_turns"] = draw(st.integers(1, 2))
    if draw(st.booleans()):
        options["deck"] = draw(st.sampled_from([84, 100, 168]))
    if draw(st.integers(0, 3)) == 0:
        options["round_limit"] = draw(st.integers(1, 12))
    players = COLOURS[:n]
    return Game.start(rules.with_options(options), players, draw(st.sampled_from(players)))


def card_layers(draw: st.DrawFn, game: Game) -> list[str]:
    """One entry per card laid this round, naming who laid it."""
    players, teller, name = game.seating.players, game.storyteller, game.ruleset.name
    if name in PARTY:
        return list(players)
    if name in TEAMS:
        half = len(players) // 2
        others = [
            draw(st.sampled_from([players[s], players[s + half]]))
            for s in range(half)
            if teller not in (players[s], players[s + half])
        ]
        return [teller, partner(players, teller), *others]
    each = 2 if len(players) == 3 else 1
    return [teller] + [p for p in players if p != teller for _ in range(each)]


@st.composite
def legal_reveals(draw: st.DrawFn, game: Game) -> Reveal:
    """A legal table for the next round of `game`."""
    players, teller, name = game.seating.players, game.storyteller, game.ruleset.name
    layers = card_layers(draw, game)
    slots = draw(
        st.lists(st.integers(1, 12), min_size=len(layers), max_size=len(layers), unique=True)
    )
    cards = dict(zip(slots, layers, strict=True))
    if name in PARTY:
        voters = list(players)
    elif name in TEAMS:
        voters = [p for p in players if p not in layers and partner(players, p) in layers]
    else:
        voters = [p for p in players if p != teller]
    votes: dict[str, tuple[int, ...]] = {}
    for voter in voters:
        # Teams: a voter lays no card, and may vote for their partner's card (they do
        # not know which it is), so nothing is barred beyond their own cards.
        barred = set() if name in PARTY else {voter}
        allowed = sorted(s for s, owner in cards.items() if owner not in barred)
        most = 2 if name == "odyssey" and len(players) >= 7 else 1
        how_many = draw(st.integers(1, min(most, len(allowed))))
        votes[voter] = tuple(draw(st.permutations(allowed))[:how_many])
    trap = draw(st.sampled_from(sorted(cards))) if name in PARTY else None
    return Reveal(cards, votes, trap)


def last_round_by_deck(game: Game) -> int | None:
    """First edition: the round in which the draw pile runs out (None elsewhere)."""
    if game.ruleset.name != "classic-1e":
        return None
    n = len(game.seating)
    hand = 7 if n == 3 else 6
    laid = 5 if n == 3 else n
    return max(1, math.ceil((game.ruleset.deck - n * hand) / laid))
