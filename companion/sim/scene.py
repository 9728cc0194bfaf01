"""What lies on a simulated table: the board's tags, cards, tokens and other codes.

A `Scene` says which slots hold a card, which kit tags lie where and which other QR
codes share the table, in board millimetres. The board's own corner and slot tags
come from the layout, so a scene only names the ones that are missing.
`round_scene` lays out a random legal round of a game the way players do at reveal,
so a test can follow one table from pixels to points and back to the `Reveal`; its
`Laying` says how carelessly (tokens half off a card, one partly over another).
Tokens are flat printed tags, or, with a `Disc`, the thick round tokens a café makes
by gluing them onto discs. Where each card lies askew in its area, and what it shows,
follow from the scene's `deal`, so that every frame of a round shows the same cards.

Where the camera hangs is `camera`'s business; what a frame shows, `truth`'s.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import cv2
import numpy as np
import numpy.typing as npt

from companion.colours import COLOURS
from companion.errors import LayoutError, SeatingError, SettingError
from companion.kit.layouts import Layout, Point, Rect
from companion.kit.tags import KitTag, Role, check_kit_id
from companion.rules import Game, Reveal
from companion.sim.camera import Corners, square_mm

CANDIDATES = 24
"""Random spots tried for each token: the first roomy one wins, else the freest."""
ROOMY = math.sqrt(2)
"""Centre spacing, in printed tag sizes, at which two flat tags cannot touch however
turned."""
DISC_ROOM = 1.1
"""Centre spacing, in disc diameters, at which two discs lie clear of each other with
room for fingers."""
RESTARTS = 8
"""Fresh tries at spreading a card's tokens when some end up closer than a token size."""
TURNS = 12
"""Random turns tried per token for one whose square clears its neighbours'."""
CARD_MM = (80.0, 120.0)
"""A Dixit card, width and height."""
CARD_ROOM_MM = 8.0
"""Room a card leaves in its area, at the least (4 mm a side)."""
CARD_TURN_DEG = 4.0
"""How far a card lies askew at most, either way."""
EDGE_TILT_DEG = (2.0, 5.0)
"""How far a token leans when it lies across a card's edge (a warped card, a sleeve)."""
OVER_REACH = (0.55, 0.8)
"""How far from the token under it a token laid partly over another lies, in token
widths (the disc's, or the printed square's): close enough to hide part of it."""
PAPER_MM = 0.3
"""How thick a printed tag is: one laid over another lies this much higher."""
OFF_CARD_CLEARANCE_MM = 3.0
"""Least distance from a token half off a card to the edge of the card's area: its
centre stays in its slot, however the board is seen."""


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
    tilt_deg: float = 0.0
    """How far it leans from lying flat (a token across a card's edge, or resting on
    another token)."""
    tilt_towards_deg: float = 0.0
    """Which way it leans down, clockwise from the board's x axis as seen from above."""
    resting_on: str | None = None
    """The text of the token it lies partly on, if it does: its one edge rests on that
    token, its other on the board, and it is drawn (and laid) after it."""


@dataclass(frozen=True)
class Disc:
    """The round token a printed tag is glued onto, as a café makes them.

    The disc holds the whole printed square, its corners reaching the disc's coloured
    rim (the code itself stays clear of it), so it is `sqrt(2)` times the tag's size
    across: 34 mm for the kit's 24 mm tags.
    """

    across: float = math.sqrt(2)
    """Diameter as a multiple of the tag's printed size."""
    rim_mm: float = 2.0
    """Width of the rim printed in the player's colour."""
    thickness_mm: float = 3.0
    """How thick the disc is (card or wood): it stands above the board and casts a
    shadow."""


@dataclass(frozen=True)
class CardPose:
    """Where a card lies in its area: a little off its middle and a little turned."""

    centre_mm: Point
    """The card's centre on the board."""
    angle_deg: float
    """How far it is turned, clockwise as seen from above."""
    size_mm: tuple[float, float]
    """Its width and height (smaller than a Dixit card where the area is small)."""

    def corners(self) -> Corners:
        """The card's corners: top left, top right, bottom right, bottom left."""
        width, height = self.size_mm
        turn = math.radians(self.angle_deg)
        along = np.array([math.cos(turn), math.sin(turn)])
        down = np.array([-math.sin(turn), math.cos(turn)])
        centre = np.array(self.centre_mm)
        top_left = centre - along * width / 2 - down * height / 2
        return np.array(
            [
                top_left,
                top_left + along * width,
                top_left + along * width + down * height,
                top_left + down * height,
            ]
        )


def card_pose(area: Rect, deal: int, slot: int) -> CardPose:
    """Where the card of `slot` lies in its area in deal `deal`: the same every time
    for one deal, so that every frame of a round shows the cards where they were laid."""
    draw = np.random.default_rng([deal, slot])
    x0, y0, x1, y1 = area
    fit = min(1.0, (x1 - x0 - CARD_ROOM_MM) / CARD_MM[0], (y1 - y0 - CARD_ROOM_MM) / CARD_MM[1])
    width, height = CARD_MM[0] * fit, CARD_MM[1] * fit
    slack_x = max(0.0, x1 - x0 - width - CARD_ROOM_MM) / 2
    slack_y = max(0.0, y1 - y0 - height - CARD_ROOM_MM) / 2
    centre = (
        (x0 + x1) / 2 + float(draw.uniform(-slack_x, slack_x)),
        (y0 + y1) / 2 + float(draw.uniform(-slack_y, slack_y)),
    )
    return CardPose(centre, float(draw.uniform(-CARD_TURN_DEG, CARD_TURN_DEG)), (width, height))


@dataclass(frozen=True)
class Laying:
    """How carelessly players lay their tokens at reveal."""

    half_off: float = 0.0
    """Chance that a token lies across its card's edge, half off the card and leaning a
    few degrees (its centre still in the card's area)."""
    overlap: float = 0.0
    """Chance that a token is laid partly over a token already on the same card,
    resting on it and leaning, hiding part of it."""

    def __post_init__(self) -> None:
        if not (0.0 <= self.half_off <= 1.0 and 0.0 <= self.overlap <= 1.0):
            raise SettingError("laying: half_off and overlap are chances from 0 to 1")


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
    """Tags lying on the board, drawn in this order (later ones on top), those lying
    on others after those lying flat. Usually tokens; a corner or slot tag here is an
    extra copy lying where it is placed."""
    foreign: tuple[ForeignCode, ...] = ()
    """Other QR codes on the table, drawn under the tokens."""
    missing: frozenset[KitTag] = frozenset()
    """Corner and slot tags of the layout that are not on the board (taken away or
    covered by something flat); all others lie where the layout puts them."""
    reveal: Reveal | None = None
    """The round the tokens stand for, when the scene was laid out from one."""
    deal: int = 0
    """Which cards these are: where each lies askew in its area and what it shows
    follow from it (`card_pose`), the same in every frame of the deal."""
    disc: Disc | None = None
    """The discs the tokens are glued onto; None for flat printed tags."""

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

    @property
    def token_width_mm(self) -> float:
        """How wide a token is on the table: its disc, or its printed square."""
        size = self.layout.token_size_mm
        return size * self.disc.across if self.disc is not None else size

    def card_poses(self) -> dict[int, CardPose]:
        """Where each card lies, by slot."""
        return {
            spec.slot: card_pose(spec.card_mm, self.deal, spec.slot)
            for spec in self.layout.slots
            if self.cards.get(spec.slot, False)
        }


def round_scene(
    layout: Layout,
    kit: str,
    game: Game,
    rng: np.random.Generator,
    colours: Mapping[str, str] | None = None,
    *,
    disc: Disc | None = None,
    laying: Laying = Laying(),
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
        laid = _scatter(spec.card_mm, by_slot.get(spec.slot, []), scene, rng)
        placements += _carelessly(laid, spec.card_mm, poses.get(spec.slot), scene, laying, rng)
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


def _scatter(
    area: Rect, tags: list[KitTag], scene: Scene, rng: np.random.Generator
) -> list[Placement]:
    """Tokens spread over a card area, each turned so its square clears the others'
    where a few random turns allow."""
    size = scene.layout.token_size_mm
    width = scene.token_width_mm
    roomy = width * DISC_ROOM if scene.disc is not None else size * ROOMY
    placed: list[Placement] = []
    spots = _spread(area, len(tags), size, width, roomy, rng)
    for tag, centre in zip(tags, spots, strict=True):
        squares = [square_mm(p.center_mm, size, p.angle_deg) for p in placed]
        angle = 0.0
        for _ in range(TURNS):
            angle = float(rng.uniform(0.0, 360.0))
            if not _touches(square_mm(centre, size, angle), squares):
                break
        placed.append(Placement(tag, centre, angle))
    return placed


def _spread(
    area: Rect, count: int, size: float, width: float, roomy: float, rng: np.random.Generator
) -> list[Point]:
    """Token centres inside the area: a printed tag of `size` stays within it where
    the area is wide enough (else on its middle line), tokens `width` or more apart
    (`roomy` where they can be).

    Each token takes the first of a few random spots that is roomy, else the freest;
    a whole spread is tried again while two tokens lie closer than `width`.
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
                free = np.flatnonzero(gaps >= roomy)
                pick = spots[free[0]] if len(free) else spots[int(np.argmax(gaps))]
            else:
                pick = spots[0]
            points = np.vstack([points, pick])
        gap = _closest(points)
        if gap > best_gap:
            best, best_gap = points, gap
        if best_gap >= width:
            break
    return [(float(x), float(y)) for x, y in best]


def _carelessly(
    placed: list[Placement],
    area: Rect,
    card: CardPose | None,
    scene: Scene,
    laying: Laying,
    rng: np.random.Generator,
) -> list[Placement]:
    """Some of a card's tokens moved as careless hands lay them: across the card's
    edge, or partly over a token lying flat that was laid before (which comes first
    in the list, so that it is drawn, and laid, before the one on it)."""
    out: list[Placement] = []
    for i, placement in enumerate(placed):
        moved = placement
        flat = [p for p in out if p.resting_on is None]
        neighbours = (*out, *placed[i + 1 :])
        if flat and rng.random() < laying.overlap:
            under = flat[int(rng.integers(len(flat)))]
            beside = [p.center_mm for p in neighbours if p is not under]
            moved = _over(placement, under, area, beside, scene, rng)
        elif card is not None and rng.random() < laying.half_off:
            others = [p.center_mm for p in neighbours]
            moved = _across_edge(placement, card, area, others, scene, rng)
        out.append(moved)
    return out


def _leaning(rng: np.random.Generator) -> float:
    return float(rng.uniform(*EDGE_TILT_DEG))


def _over(
    placement: Placement,
    under: Placement,
    area: Rect,
    others: list[Point],
    scene: Scene,
    rng: np.random.Generator,
) -> Placement:
    """`placement` laid partly over `under`, one edge resting on it and the other on
    the board, so leaning away from it as steeply as the height of `under` over the
    distance between the two edges asks, and clear of the `others` on the card (it
    covers only the one it rests on); where no such spot keeps its centre in the
    card's area, it stays where it was."""
    width = scene.token_width_mm
    height = scene.disc.thickness_mm if scene.disc is not None else PAPER_MM
    for _ in range(CANDIDATES):
        away = float(rng.uniform(0.0, 2 * math.pi))
        reach = width * float(rng.uniform(*OVER_REACH))
        spot = (
            under.center_mm[0] + reach * math.cos(away),
            under.center_mm[1] + reach * math.sin(away),
        )
        clear = all(math.dist(spot, other) >= width for other in others)
        if clear and _inside(spot, area, OFF_CARD_CLEARANCE_MM):
            return replace(
                placement,
                center_mm=spot,
                tilt_deg=math.degrees(math.atan2(height, reach)),
                tilt_towards_deg=math.degrees(away),
                resting_on=under.tag.text,
            )
    return placement


def _across_edge(
    placement: Placement,
    card: CardPose,
    area: Rect,
    others: list[Point],
    scene: Scene,
    rng: np.random.Generator,
) -> Placement:
    """`placement` moved onto a point of its card's edge, half on the card, leaning
    down off it, clear of the card's other tokens; where no point of the edge keeps
    its centre in the area and clear of them, it stays."""
    corners = card.corners()
    centre = np.array(card.centre_mm)
    for _ in range(CANDIDATES):
        side = int(rng.integers(4))
        start, end = corners[side], corners[(side + 1) % 4]
        spot = start + (end - start) * float(rng.uniform(0.2, 0.8))
        point = (float(spot[0]), float(spot[1]))
        clear = all(math.dist(point, other) >= scene.token_width_mm for other in others)
        if clear and _inside(point, area, OFF_CARD_CLEARANCE_MM):
            outward = spot - centre
            return replace(
                placement,
                center_mm=point,
                tilt_deg=_leaning(rng),
                tilt_towards_deg=math.degrees(math.atan2(outward[1], outward[0])),
            )
    return placement


def _inside(point: Point, area: Rect, clearance: float) -> bool:
    """Whether a point lies in the area, `clearance` or more from its edges."""
    x0, y0, x1, y1 = area
    return (
        x0 + clearance <= point[0] <= x1 - clearance
        and y0 + clearance <= point[1] <= y1 - clearance
    )


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
