"""A random legal round of a game, laid out on a simulated table.

`round_scene` lays out a random legal round of a game the way players do at reveal,
so a test can follow one table from pixels to points and back to the `Reveal`: the
cards on random slots, the votes and the trap as the ruleset allows them, and each
player's tokens on the slots they stand for, laid as `laying` says (its `Laying`
says how carelessly: tokens half off a card, one partly over another).
"""

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from companion.colours import COLOURS
from companion.errors import LayoutError, SeatingError
from companion.kit.layouts import Layout
from companion.kit.tags import KitTag, Role, check_kit_id
from companion.rules import Game, Reveal
from companion.sim.laying import NEAT, Laying, carelessly, scatter
from companion.sim.scene import Disc, Placement, Scene


def round_scene(
    layout: Layout,
    kit: str,
    game: Game,
    rng: np.random.Generator,
    colours: Mapping[str, str] | None = None,
    *,
    disc: Disc | None = None,
    laying: Laying = NEAT,
) -> Scene:
    """A random legal reveal of the next round of `game`, laid out on `layout`.

    Each player who lays cards puts owner token i on their i-th card (in slot order),
    each voter puts vote dial j on the slot of their j-th vote, and in Party the
    storyteller's trap dial lies on the trapped card. Tokens are spread over the slot's
    card area, a token's width or more apart where the area has room, their centres
    always inside the area, each turned at random; `laying` then puts some across
    their card's edge or partly over another. Tokens carry colours, not names:
    `colours` maps each player to their kit colour; without it the game's players
    must be the first kit colours in seating order. With a `disc`, tokens are discs.
    """
    check_kit_id(kit)
    if colours is None:
        _check_players(game)
    reveal = _random_reveal(game, [spec.slot for spec in layout.slots], rng)
    by_slot = _tokens_by_slot(kit, game, reveal, colours or {p: p for p in game.seating.players})
    cards = {spec.slot: spec.slot in reveal.cards for spec in layout.slots}
    scene = Scene(layout, kit, cards, reveal=reveal, deal=int(rng.integers(2**31)), disc=disc)
    poses = scene.card_poses()
    placements: list[Placement] = []
    for spec in layout.slots:
        laid = scatter(spec.card_mm, by_slot.get(spec.slot, []), scene, rng)
        placements += carelessly(laid, spec.card_mm, poses.get(spec.slot), scene, laying, rng)
    return replace(scene, tokens=tuple(placements))


def _check_players(game: Game) -> None:
    """Refuse players who are not the first kit colours in order: a token names its
    player by colour only."""
    players = game.seating.players
    colours = tuple(c.name for c in COLOURS[: len(players)])
    if players != colours:
        raise SeatingError(
            f"a simulated table seats the kit colours in order ({', '.join(colours)}), "
            f"not {', '.join(players)}"
        )


def _card_layers(game: Game, rng: np.random.Generator) -> list[str]:
    """One entry per card laid this round, naming who laid it: the scheme says who may,
    and where a team's members may either lay it, one of them is picked at random."""
    layers = game.ruleset.scoring.layers(game.seating, game.storyteller)
    return [options[int(rng.integers(len(options)))] for options in layers]


def _random_reveal(game: Game, slots: list[int], rng: np.random.Generator) -> Reveal:
    """Cards on random slots, then votes and the trap as the scheme allows them; the
    rules engine checks the result, so a scheme this code misreads fails loudly."""
    layers = _card_layers(game, rng)
    if len(layers) > len(slots):
        raise LayoutError(
            f"{game.ruleset.name} with {len(game.seating)} players lays {len(layers)} cards; "
            f"the board has {len(slots)} slots"
        )
    chosen = [int(s) for s in rng.permutation(slots)[: len(layers)]]
    cards = dict(zip(chosen, layers, strict=True))
    scoring, seating = game.ruleset.scoring, game.seating
    laid = game.next_round(Reveal(cards))
    most = scoring.max_votes(seating)
    votes: dict[str, tuple[int, ...]] = {}
    for voter in scoring.voters(seating, laid):
        barred = set(scoring.forbidden_slots(seating, laid, voter))
        allowed = [s for s in sorted(cards) if s not in barred]
        how_many = int(rng.integers(1, min(most, len(allowed)) + 1))
        votes[voter] = tuple(int(s) for s in rng.permutation(allowed)[:how_many])
    trap = int(rng.choice(sorted(cards))) if scoring.has_trap else None
    reveal = Reveal(cards, votes, trap)
    problems = game.problems(reveal)
    if problems:
        raise problems[0]
    return reveal


def _tokens_by_slot(
    kit: str, game: Game, reveal: Reveal, colours: Mapping[str, str]
) -> dict[int, list[KitTag]]:
    """The tokens each slot holds at reveal, in seating order, the trap dial last."""
    by_slot: dict[int, list[KitTag]] = {}
    for player in game.seating.players:
        colour = colours[player]
        for i, slot in enumerate(reveal.slots_of(player), start=1):
            by_slot.setdefault(slot, []).append(KitTag(kit, Role.OWNER, colour=colour, index=i))
        for j, slot in enumerate(reveal.votes.get(player, ()), start=1):
            by_slot.setdefault(slot, []).append(KitTag(kit, Role.VOTE, colour=colour, index=j))
    if reveal.trap is not None:
        by_slot.setdefault(reveal.trap, []).append(KitTag(kit, Role.TRAP))
    return by_slot
