"""The plain records that flow between the vision steps."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.kit.layouts import Point as Point
from companion.kit.tags import KitTag
from companion.phrases import Phrase, listing, phrase, plural

Quad = tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class Detection:
    """One QR code decoded in a frame, before its text is interpreted."""

    text: str
    """The decoded text."""
    corners_px: Quad
    """The code's corners in frame pixels, in the code's own order: top left, top
    right, bottom right, bottom left (so the code's rotation is known)."""

    @property
    def center_px(self) -> Point:
        """The centre of the code in frame pixels."""
        xs = [p[0] for p in self.corners_px]
        ys = [p[1] for p in self.corners_px]
        return (sum(xs) / 4, sum(ys) / 4)

    @property
    def side_px(self) -> float:
        """The mean side length of the code (21 modules) in pixels."""
        total = 0.0
        for i in range(4):
            (x0, y0), (x1, y1) = self.corners_px[i], self.corners_px[(i + 1) % 4]
            total += ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        return total / 4


@dataclass(frozen=True)
class SeenTag:
    """A kit tag found in a frame and placed on the board."""

    tag: KitTag
    """What the tag is."""
    center_px: Point
    """Its centre in frame pixels."""
    center_mm: Point
    """Its centre in board millimetres."""
    px_per_module: float
    """How many frame pixels one QR module spans: readability below 4 is poor."""


@dataclass(frozen=True)
class Vote:
    """A vote dial on a card."""

    player: str
    """The dial's colour, which is the player's name in the game."""
    dial: int
    """Which of the colour's two dials (1 or 2)."""


@dataclass(frozen=True)
class SlotContents:
    """The tokens lying in one slot's card area."""

    owners: tuple[str, ...] = ()
    """Colours of the owner tokens on the card (one, unless something is wrong)."""
    votes: tuple[Vote, ...] = ()
    """The vote dials on the card."""
    trap: bool = False
    """Whether the trap dial lies on the card."""


@dataclass(frozen=True)
class Unplaced:
    """A kit token that lies outside every card area."""

    text: str
    """The tag's text."""
    reason: str
    """Why it could not be placed, in words."""


@dataclass(frozen=True)
class Duplicate:
    """A kit token seen at two places or more in one frame: a copy (a photocopied
    dial, say) is on the table, and which one the player meant cannot be told, so
    neither counts."""

    text: str
    """The tag's text."""
    slots: tuple[int, ...] = ()
    """The slots holding a copy, in order (a slot twice when two copies lie on it)."""
    off_cards: int = 0
    """How many copies lie outside every card area."""

    def worded(self, name: Phrase | str) -> Phrase:
        """The problem in words, the token called `name` ("Ann's vote dial 1")."""
        places: list[Phrase] = []
        if self.slots:
            numbers = listing(self.slots)
            places.append(plural("slot {slots}", "slots {slots}", len(self.slots), slots=numbers))
        if self.off_cards:
            places.append(plural("off the cards", "{n} off the cards", self.off_cards))
        copies = len(self.slots) + self.off_cards
        if copies == 2:
            return phrase(
                "{token} is on the table twice ({places})", token=name, places=listing(places)
            )
        return phrase(
            "{token} is on the table {n} times ({places})",
            token=name,
            n=copies,
            places=listing(places),
        )


@dataclass(frozen=True)
class Covered:
    """A token that was seen and is no longer, with another token seen lying over where
    it was: a disc laid partly on another hides it. It is not in any slot (nothing is
    said to lie where it is not seen), but the players are told, since a table read
    without it may still be a legal round, scored wrongly."""

    text: str
    """The covered token's text."""
    slot: int
    """The slot it was last seen on."""
    by: str
    """The text of the token lying over it."""

    def worded(self, name: Phrase | str, by: Phrase | str) -> Phrase:
        """The problem in words, the covered token called `name` and the token over it
        `by` ("Dan's vote dial 2", "Ann's owner token 1")."""
        # NOTE: two token names make a long line, and the screen shows a problem in two
        # lines of about 45 characters: keep the slot in them before any advice
        return phrase(
            "{token} lies under {other} on slot {slot}: move them apart",
            token=name,
            other=by,
            slot=self.slot,
        )


@dataclass(frozen=True)
class TableObservation:
    """What one frame (or the stabiliser, over several) says lies on the table."""

    slots: Mapping[int, SlotContents] = field(default_factory=dict)
    """Slot number to its tokens; slots with nothing on them are left out."""
    unplaced: tuple[Unplaced, ...] = ()
    """Kit tokens outside every card area."""
    foreign: tuple[str, ...] = ()
    """Texts of QR codes that are not tags of this kit (other kits included)."""
    duplicates: tuple[Duplicate, ...] = ()
    """Kit tokens seen at more than one place; none of their copies is in `slots`."""
    wrong_board: Phrase | None = None
    """Why the board in view is not the calibrated one, when it is not: its corner and
    slot tags are not where the calibration's layout puts them."""
    covered: tuple[Covered, ...] = ()
    """Tokens the stabiliser still knows of, hidden under another token; none of them
    is in `slots`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "slots", MappingProxyType(dict(sorted(self.slots.items()))))
