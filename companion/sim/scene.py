"""What lies on a simulated table: the board's tags, cards, tokens and other codes.

A `Scene` says which slots hold a card, which kit tags lie where and which other QR
codes share the table, in board millimetres. The board's own corner and slot tags
come from the layout, so a scene only names the ones that are missing. Tokens are
flat printed tags, or, with a `Disc`, the thick round tokens a café makes by gluing
them onto discs. Where each card lies askew in its area, and what it shows, follow
from the scene's `deal`, so that every frame of a round shows the same cards.

`rounds` lays out the scene of a whole round, its tokens placed the way `laying`
says hands do. Where the camera hangs is `camera`'s business; what a frame shows,
`truth`'s.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from companion.errors import LayoutError
from companion.kit.layouts import Layout, Point, Rect
from companion.kit.tags import KitTag, Role, check_kit_id
from companion.rules import Reveal
from companion.sim.camera import Corners

CARD_MM = (80.0, 120.0)
"""A Dixit card, width and height."""
CARD_ROOM_MM = 8.0
"""Room a card leaves in its area, at the least (4 mm a side)."""
CARD_TURN_DEG = 4.0
"""How far a card lies askew at most, either way."""


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


@dataclass(frozen=True)
class Lay:
    """What lies on the simulated table, and what hides it."""

    scene: Scene
    """Board, cards, tokens and other codes."""
    hands: int = 0
    """Hands reaching over the board."""
    camera_off: bool = False
    """Whether the camera fails (unplugged, a cable knocked) while this lasts."""
