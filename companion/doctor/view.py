"""One look at the live frame, shared by the board and tag checks: which tags are where.

The frame is decoded once, at full resolution (the most a camera can show), and the
codes sorted as the game sorts them: corner and slot tags, tokens, and codes of other
kits or none. The calibration and its layout are read here too, leniently: a missing
calibration is a finding, not a reason to stop looking at the tags.
"""

from dataclasses import dataclass
from pathlib import Path

from companion.errors import CalibrationFileError, KitError
from companion.kit.layouts import Layout, load_layout
from companion.kit.tags import KitTag, Role
from companion.sources.base import Frame
from companion.vision.assign import KitDetection, classify, kits_in
from companion.vision.calibration import Calibration, load_calibration
from companion.vision.decode import Decoder
from companion.vision.pipeline import to_gray


@dataclass(frozen=True)
class TableFile:
    """The calibration file and the layout it names, as far as they could be read."""

    path: Path
    """The calibration file."""
    calibration: Calibration | None
    """The calibration, or None if it is missing or damaged."""
    layout: Layout | None
    """The layout the calibration names, or None if it cannot be read."""
    problem: str = ""
    """Why the calibration or its layout could not be read; empty when both were."""
    missing: bool = False
    """Whether the calibration file is not there at all (rather than damaged)."""


@dataclass(frozen=True)
class KitCount:
    """How many tags of one kit a frame shows."""

    kit: str
    """The kit id."""
    tags: int
    """Its tags read in the frame."""


@dataclass(frozen=True)
class BoardView:
    """The kit tags one frame shows, sorted as the game sorts them."""

    kit: str | None
    """The kit looked for: the calibration's, else the one with most tags in view."""
    anchors: tuple[KitDetection, ...]
    """Corner and slot tags of that kit."""
    tokens: tuple[KitDetection, ...]
    """Vote dials, owner tokens and the trap dial of that kit."""
    kits: tuple[KitCount, ...]
    """Every kit in view, most tags first."""
    others: int
    """Codes that are no kit's tags (a menu, a phone)."""

    @property
    def other_kits(self) -> tuple[KitCount, ...]:
        """The kits in view other than the one looked for."""
        return tuple(k for k in self.kits if k.kit != self.kit)

    @property
    def own_tags(self) -> int:
        """Tags of the kit looked for."""
        return len(self.anchors) + len(self.tokens)


@dataclass(frozen=True)
class Sight:
    """The calibration and the look at the frame, handed from the board check to the tags."""

    table: TableFile
    """The calibration file and its layout."""
    view: BoardView | None
    """The look at the live frame; None without a usable frame."""


def load_table(path: Path) -> TableFile:
    """The calibration at `path` and its layout, with what kept either from being read."""
    try:
        calibration = load_calibration(path)
    except CalibrationFileError as err:
        return TableFile(path, None, None, str(err), missing=not path.exists())
    try:
        layout = load_layout(calibration.layout)
    except KitError as err:
        return TableFile(path, calibration, None, f"the layout it names cannot be read: {err}")
    return TableFile(path, calibration, layout)


def look(frame: Frame, kit: str | None, decoder: Decoder) -> BoardView:
    """Decode the frame once and sort its codes for `kit` (None: the kit most in view)."""
    detections = decoder.decode(to_gray(frame))
    texts = {d.text for d in detections}
    kits = kits_in(texts)
    counts = tuple(KitCount(k, n) for k, n in sorted(kits.items(), key=lambda kv: (-kv[1], kv[0])))
    chosen = kit if kit is not None else (counts[0].kit if counts else None)
    found = classify(detections, chosen or "")
    return BoardView(
        kit=chosen,
        anchors=found.anchors,
        tokens=found.tokens,
        kits=counts,
        others=len(texts) - sum(kits.values()),
    )


def tag_name(tag: KitTag) -> str:
    """A tag as the printed kit labels it, board tags called so: "slot 7 tag",
    "red vote 1"."""
    return tag.label if tag.is_token else f"{tag.label} tag"


def layout_anchors(kit: str, layout: Layout) -> tuple[KitTag, ...]:
    """Every corner and slot tag the layout places, as tags of `kit`."""
    corners = tuple(KitTag(kit, Role.CORNER, corner=c.corner) for c in layout.corners)
    return corners + tuple(KitTag(kit, Role.SLOT, slot=s.slot) for s in layout.slots)
