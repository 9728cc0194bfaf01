"""From decoded codes to a table: which are ours, where they lie, which slot holds them.

Texts that are not tags of this kit (other kits included) are foreign and are only
reported. Corner and slot tags are anchors for the board fit. Tokens (vote dials,
owner tokens, the trap dial) belong to the slot whose card area holds their centre;
a token outside every card area is reported as unplaced, with the reason.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.colours import WORDS
from companion.errors import ForeignTagError
from companion.kit.layouts import Layout
from companion.kit.tags import MODULES, KitTag, Role, parse_tag
from companion.phrases import Phrase, phrase
from companion.vision.board import BoardFit
from companion.vision.records import (
    Covered,
    Detection,
    Duplicate,
    Point,
    SlotContents,
    TableObservation,
    Unplaced,
    Vote,
)


@dataclass(frozen=True)
class KitDetection:
    """A decoded code that is a tag of this kit."""

    tag: KitTag
    """What the tag is."""
    detection: Detection
    """Where it was seen."""

    @property
    def px_per_module(self) -> float:
        """Frame pixels per QR module of this tag."""
        return self.detection.side_px / MODULES


@dataclass(frozen=True)
class Classified:
    """A frame's codes sorted into anchors, tokens and foreign texts."""

    anchors: tuple[KitDetection, ...]
    """Corner and slot tags of this kit."""
    tokens: tuple[KitDetection, ...]
    """Vote dials, owner tokens and the trap dial of this kit."""
    foreign: tuple[str, ...]
    """Texts that are not tags of this kit, sorted, once each."""
    copies: tuple[KitDetection, ...] = ()
    """Further copies of tokens, seen at other places than those in `tokens`."""


@dataclass(frozen=True)
class PlacedToken:
    """A token assigned to the slot whose card area holds its centre."""

    tag: KitTag
    """The token."""
    slot: int
    """The slot it lies on."""
    center_px: Point
    """Where it was seen in the frame (for looking again where it is missing)."""
    side_px: float = 0.0
    """The code's mean side in frame pixels, for telling whether another token lies
    over it once it is missing; 0 when not known (a token made by hand), and the
    other token's size is then the measure."""


def classify(detections: Iterable[Detection], kit: str) -> Classified:
    """Sort codes by what they are; a tag seen twice at one place (by the main pass and
    a second look) counts once, a token seen at another place is a copy."""
    anchors: dict[str, KitDetection] = {}
    tokens: dict[str, KitDetection] = {}
    copies: list[KitDetection] = []
    foreign: set[str] = set()
    for detection in detections:
        try:
            tag = parse_tag(detection.text)
        except ForeignTagError:
            foreign.add(detection.text)
            continue
        if tag.kit != kit:
            foreign.add(detection.text)
        elif tag.is_token:
            seen = KitDetection(tag, detection)
            first = tokens.setdefault(detection.text, seen)
            if not any(_same_place(d, detection) for d in (first, *copies) if d.tag == tag):
                copies.append(seen)
        else:
            anchors.setdefault(detection.text, KitDetection(tag, detection))
    return Classified(
        tuple(anchors.values()), tuple(tokens.values()), tuple(sorted(foreign)), tuple(copies)
    )


def _same_place(seen: KitDetection, detection: Detection) -> bool:
    """Whether two sightings of a tag overlap: the same printed tag, seen twice."""
    (x0, y0), (x1, y1) = seen.detection.center_px, detection.center_px
    reach = max(seen.detection.side_px, detection.side_px)
    return (x1 - x0) ** 2 + (y1 - y0) ** 2 < reach**2


def token_label(tag: KitTag, owner: str | None = None) -> Phrase:
    """A token as players call it: "the trap dial", "Ann's vote dial 1" (the colour
    stands for the player when no `owner` is given: "red's vote dial 1")."""
    if tag.role is Role.TRAP:
        return phrase("the trap dial")
    assert tag.colour is not None and tag.index is not None
    vote = tag.role is Role.VOTE
    if owner is not None:
        if vote:
            return phrase("{player}'s vote dial {index}", player=owner, index=tag.index)
        return phrase("{player}'s owner token {index}", player=owner, index=tag.index)
    colour = WORDS[tag.colour]
    if vote:
        return phrase("{colour}'s vote dial {index}", colour=colour, index=tag.index)
    return phrase("{colour}'s owner token {index}", colour=colour, index=tag.index)


def kits_in(texts: Iterable[str]) -> Counter[str]:
    """How many codes of each kit the texts hold; texts that are not tags are skipped."""
    kits: Counter[str] = Counter()
    for text in texts:
        try:
            kits[parse_tag(text).kit] += 1
        except ForeignTagError:
            continue
    return kits


def anchor_pairs(
    anchors: Sequence[KitDetection], layout: Layout
) -> tuple[list[Point], list[Point]]:
    """Frame and board positions of the anchors that the layout knows."""
    places = layout.anchors()
    pixels, board = [], []
    for anchor in anchors:
        key = anchor_key(anchor.tag)
        if key in places:
            pixels.append(anchor.detection.center_px)
            board.append(places[key])
    return pixels, board


def anchor_key(tag: KitTag) -> tuple[str, int]:
    """How `Layout.anchors` names a corner or slot tag's place."""
    if tag.role is Role.CORNER:
        assert tag.corner is not None
        return ("corner", tag.corner)
    assert tag.slot is not None
    return ("slot", tag.slot)


def place(
    tokens: Sequence[KitDetection], fit: BoardFit, layout: Layout
) -> tuple[list[PlacedToken], list[Unplaced]]:
    """Assign each token to the slot whose card area holds its centre."""
    centres = [t.detection.center_px for t in tokens]
    placed, unplaced = [], []
    for token, centre_px, centre_mm in zip(tokens, centres, fit.to_mm(centres), strict=True):
        slot = layout.slot_at(centre_mm)
        if slot is None:
            x, y = centre_mm
            unplaced.append(
                Unplaced(token.tag.text, f"outside every card area, at {x:.0f}, {y:.0f} mm")
            )
        else:
            placed.append(PlacedToken(token.tag, slot, centre_px, token.detection.side_px))
    return placed, unplaced


def set_apart_copies(
    placed: Sequence[PlacedToken], unplaced: Sequence[Unplaced]
) -> tuple[list[PlacedToken], list[Unplaced], tuple[Duplicate, ...]]:
    """Take out every token seen at more than one place: which copy the player meant
    cannot be told, so none of them counts; each becomes a `Duplicate` to report."""
    where: dict[str, list[int]] = {}
    for token in placed:
        where.setdefault(token.tag.text, []).append(token.slot)
    off = Counter(u.text for u in unplaced)
    doubled = sorted(t for t in {*where, *off} if len(where.get(t, ())) + off[t] > 1)
    duplicates = tuple(Duplicate(t, tuple(sorted(where.get(t, ()))), off[t]) for t in doubled)
    return (
        [t for t in placed if t.tag.text not in doubled],
        [u for u in unplaced if u.text not in doubled],
        duplicates,
    )


def observe(
    placed: Iterable[PlacedToken],
    unplaced: Sequence[Unplaced],
    foreign: Sequence[str],
    duplicates: Sequence[Duplicate] = (),
    wrong_board: Phrase | None = None,
    covered: Sequence[Covered] = (),
) -> TableObservation:
    """Group placed tokens by slot into a table observation."""
    owners: dict[int, list[str]] = {}
    votes: dict[int, list[Vote]] = {}
    traps: set[int] = set()
    for token in placed:
        tag = token.tag
        if tag.role is Role.OWNER:
            assert tag.colour is not None
            owners.setdefault(token.slot, []).append(tag.colour)
        elif tag.role is Role.VOTE:
            assert tag.colour is not None and tag.index is not None
            votes.setdefault(token.slot, []).append(Vote(tag.colour, tag.index))
        else:
            traps.add(token.slot)
    slots = {
        slot: SlotContents(
            owners=tuple(sorted(owners.get(slot, ()))),
            votes=tuple(sorted(votes.get(slot, ()), key=lambda v: (v.player, v.dial))),
            trap=slot in traps,
        )
        for slot in sorted(set(owners) | set(votes) | traps)
    }
    return TableObservation(
        slots, tuple(unplaced), tuple(foreign), tuple(duplicates), wrong_board, tuple(covered)
    )
