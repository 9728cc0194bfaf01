"""How hands lay tokens on a card: spread over its area, each turned, some carelessly.

Tokens are spread over the slot's card area, a token's width or more apart where the
area has room, their centres always inside it, each turned at random so that its
square clears its neighbours' where a few turns allow. A `Laying` then says how
carelessly players lay them: some across their card's edge, leaning a few degrees,
some partly over a token laid before, resting on it and hiding part of it.
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from companion.errors import SettingError
from companion.kit.layouts import Point, Rect
from companion.kit.tags import KitTag
from companion.sim.camera import Corners, square_mm
from companion.sim.scene import CardPose, Placement, Scene

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


NEAT = Laying()
"""Every token flat on its card, none across an edge or over another."""


def scatter(
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


def carelessly(
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
