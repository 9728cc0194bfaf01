"""What lies on a simulated table: the board's tags, cards, tokens and other codes.

A `Scene` says which slots hold a card, which kit tags lie where and which other QR
codes share the table, in board millimetres. The board's own corner and slot tags
come from the layout, so a scene only names the ones that are missing.
`round_scene` lays out a random legal round of a game the way players do at reveal,
so a test can follow one table from pixels to points and back to the `Reveal`.

Where the camera hangs is `camera`'s business; what a frame shows, `truth`'s.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import cv2
import numpy as np
import numpy.typing as npt

from companion.colours import COLOURS
from companion.errors import LayoutError, SeatingError
from companion.kit.layouts import Layout, Point, Rect
from companion.kit.tags import KitTag, Role, check_kit_id
from companion.rules import Game, Reveal
from companion.sim.camera import Corners, square_mm

CANDIDATES = 24
"""Random spots tried for each token: the first roomy one wins, else the freest."""
ROOMY = math.sqrt(2)
"""Centre spacing, in token sizes, at which two tokens cannot touch however turned."""
RESTARTS = 8
"""Fresh tries at spreading a card's tokens when some end up closer than a token size."""
TURNS = 12
"""Random turns tried per token for one whose square clears its neighbours'."""


@dataclass(frozen=True)
class Placement:
    """A kit tag lying flat on the board."""

    tag: KitTag
    """Which tag; usually one of the scene's kit (a tag of another kit is drawn and
    reported as laid, with its own kit id)."""
    center_mm: Point
    """Centre of its printed square, in board millimetres."""
    angle_deg: float
    """How far it is turned, clockwise as seen from above (0: upright like the board)."""


@dataclass(frozen=True)
class ForeignCode:
    """A QR code on the table that is not a tag of the scene's kit.

    A menu, a phone screen, or a tag of another kit: the reader must report it and
    never take it for one of its own.
    """

    text: str
    """What the code says."""
    center_mm: Point
    """Centre of the printed code, in board millimetres."""
    size_mm: float
    """Printed size, quiet zone included."""
    angle_deg: float = 0.0
    """How far it is turned, clockwise as seen from above."""


@dataclass(frozen=True)
class Scene:
    """Everything on the table at one moment, in board millimetres."""

    layout: Layout
    """The board."""
    kit: str
    """The kit id of the board's tags and the players' tokens."""
    cards: Mapping[int, bool] = field(default_factory=dict)
    """Slot number to whether a card lies there; slots left out hold none."""
    tokens: tuple[Placement, ...] = ()
    """Tags lying on the board, drawn in this order (later ones on top). Usually
    tokens; a corner or slot tag here is an extra copy lying where it is placed."""
    foreign: tuple[ForeignCode, ...] = ()
    """Other QR codes on the table, drawn under the tokens."""
    missing: frozenset[KitTag] = frozenset()
    """Corner and slot tags of the layout that are not on the board (taken away or
    covered by something flat); all others lie where the layout puts them."""
    reveal: Reveal | None = None
    """The round the tokens stand for, when the scene was laid out from one."""

    def __post_init__(self) -> None:
        check_kit_id(self.kit)
        known = {spec.slot for spec in self.layout.slots}
        for slot in self.cards:
            if slot not in known:
                raise LayoutError(f"layout {self.layout.name} has no slot {slot} for a card")
        object.__setattr__(self, "cards", MappingProxyType(dict(sorted(self.cards.items()))))

    @property
    def anchors(self) -> tuple[Placement, ...]:
        """The corner and slot tags lying where the layout puts them, upright."""
        tags = [
            (KitTag(self.kit, Role.CORNER, corner=c.corner), c.center_mm)
            for c in self.layout.corners
        ]
        tags += [
            (KitTag(self.kit, Role.SLOT, slot=s.slot), s.tag_center_mm) for s in self.layout.slots
        ]
        return tuple(Placement(tag, where, 0.0) for tag, where in tags if tag not in self.missing)

    def size_mm(self, tag: KitTag) -> float:
        """The printed size of a tag of this kit on this board.

        Corner and slot tags are printed at their layout sizes; a slot tag of a slot
        the layout lacks takes the size of the layout's first slot tag.
        """
        if tag.role is Role.CORNER:
            return next(c.size_mm for c in self.layout.corners if c.corner == tag.corner)
        if tag.role is Role.SLOT:
            sizes = {s.slot: s.tag_size_mm for s in self.layout.slots}
            return sizes.get(tag.slot or 0, self.layout.slots[0].tag_size_mm)
        return self.layout.token_size_mm


def round_scene(
    layout: Layout,
    kit: str,
    game: Game,
    rng: np.random.Generator,
    colours: Mapping[str, str] | None = None,
) -> Scene:
    """A random legal reveal of the next round of `game`, laid out on `layout`.

    Each player who lays cards puts owner token i on their i-th card (in slot order),
    each voter puts vote dial j on the slot of their j-th vote, and in Party the
    storyteller's trap dial lies on the trapped card. Tokens are spread over the slot's
    card area, a token size or more apart where the area has room, their centres
    always inside the area, each turned at random. Tokens carry colours, not names:
    `colours` maps each player to their kit colour; without it the game's players
    must be the first kit colours in seating order.
    """
    check_kit_id(kit)
    if colours is None:
        _check_players(game)
    reveal = _random_reveal(game, [spec.slot for spec in layout.slots], rng)
    by_slot = _tokens_by_slot(kit, game, reveal, colours or {p: p for p in game.seating.players})
    placements: list[Placement] = []
    for spec in layout.slots:
        placements += _scatter(spec.card_mm, by_slot.get(spec.slot, []), layout, rng)
    cards = {spec.slot: spec.slot in reveal.cards for spec in layout.slots}
    return Scene(layout, kit, cards, tuple(placements), reveal=reveal)


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


def _scatter(
    area: Rect, tags: list[KitTag], layout: Layout, rng: np.random.Generator
) -> list[Placement]:
    """Tokens spread over a card area, each turned so its square clears the others'
    where a few random turns allow."""
    size = layout.token_size_mm
    placed: list[Placement] = []
    for tag, centre in zip(tags, _spread(area, len(tags), size, rng), strict=True):
        squares = [square_mm(p.center_mm, size, p.angle_deg) for p in placed]
        angle = 0.0
        for _ in range(TURNS):
            angle = float(rng.uniform(0.0, 360.0))
            if not _touches(square_mm(centre, size, angle), squares):
                break
        placed.append(Placement(tag, centre, angle))
    return placed


def _spread(area: Rect, count: int, size: float, rng: np.random.Generator) -> list[Point]:
    """Token centres inside the area: a token's square stays within it where the area
    is wide enough (else on its middle line), a token size or more apart if it can be.

    Each token takes the first of a few random spots that is roomy, else the freest;
    a whole spread is tried again while two tokens lie closer than a token size.
    """
    x0, y0, x1, y1 = area
    low = np.array([_inset(x0, x1, size)[0], _inset(y0, y1, size)[0]])
    high = np.array([_inset(x0, x1, size)[1], _inset(y0, y1, size)[1]])
    best = np.empty((0, 2))
    best_gap = -1.0
    for _ in range(RESTARTS):
        points = np.empty((0, 2))
        for _ in range(count):
            spots = rng.uniform(low, high, size=(CANDIDATES, 2))
            if len(points):
                gaps = np.linalg.norm(spots[:, None, :] - points[None, :, :], axis=2).min(axis=1)
                roomy = np.flatnonzero(gaps >= ROOMY * size)
                pick = spots[roomy[0]] if len(roomy) else spots[int(np.argmax(gaps))]
            else:
                pick = spots[0]
            points = np.vstack([points, pick])
        gap = _closest(points)
        if gap > best_gap:
            best, best_gap = points, gap
        if best_gap >= size:
            break
    return [(float(x), float(y)) for x, y in best]


def _inset(low: float, high: float, size: float) -> tuple[float, float]:
    """The range of centres that keeps a token within [low, high], or the middle."""
    if high - low >= size:
        return low + size / 2, high - size / 2
    middle = (low + high) / 2
    return middle, middle


def _closest(points: npt.NDArray[np.float64]) -> float:
    """The smallest distance between two of the points (infinite for fewer than two)."""
    if len(points) < 2:
        return math.inf
    gaps = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    return float(gaps[np.triu_indices(len(points), k=1)].min())


def _touches(square: Corners, others: Iterable[Corners]) -> bool:
    """Whether a square overlaps any of the others."""
    mine = square.astype(np.float32)
    for other in others:
        area, _ = cv2.intersectConvexConvex(mine, other.astype(np.float32))
        if area > 0:
            return True
    return False


@dataclass(frozen=True)
class Lay:
    """What lies on the simulated table, and what hides it."""

    scene: Scene
    """Board, cards, tokens and other codes."""
    hands: int = 0
    """Hands reaching over the board."""
    camera_off: bool = False
    """Whether the camera fails (unplugged, a cable knocked) while this lasts."""
