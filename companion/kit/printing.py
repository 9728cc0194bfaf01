"""What a printed kit consists of: each tag with its print size, file name and label.

Sizes come from a layout, because the board decides how far the camera is and so how
big a tag must be: corner tags at the layout's corner sizes, slot tags at its slot
tag sizes, vote dials, owner tokens and the trap dial at its token size unless the
caller asks for another. A kit always holds every slot tag, so a slot the layout
lacks takes the size of the layout's largest slot tag.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import TagSizeError
from companion.kit.layouts import TAG_MM, Layout
from companion.kit.tags import KitTag, Role, kit_tags

MIN_TAG_MM, MAX_TAG_MM = TAG_MM
"""The layouts' tag sizes, so that a kit prints no tag that no board could hold (see
`TAG_MM` for why)."""

ManifestEntry = dict[str, str | int | float | None]
"""One tag in `manifest.json`."""


@dataclass(frozen=True)
class PrintedTag:
    """A tag as it is printed."""

    tag: KitTag
    """What the code says."""
    size_mm: float
    """Printed size across, quiet zone included."""

    @property
    def file_name(self) -> str:
        """The PNG's name: `vote-red-1.png`, `owner-red-2.png`, `slot-03.png`, `corner-1.png`,
        `trap.png`."""
        tag = self.tag
        match tag.role:
            case Role.CORNER:
                return f"corner-{tag.corner}.png"
            case Role.SLOT:
                return f"slot-{tag.slot:02d}.png"
            case Role.TRAP:
                return "trap.png"
            case _:
                return f"{tag.role.value}-{tag.colour}-{tag.index}.png"

    @property
    def label(self) -> str:
        """What a person reads under the tag: "red vote 1", "slot 3", "corner 2", "trap"."""
        return self.tag.label

    def manifest_entry(self) -> ManifestEntry:
        """The tag's entry in `manifest.json`; null where a field does not apply."""
        tag = self.tag
        return {
            "text": tag.text,
            "role": tag.role.value,
            "player": tag.colour,
            "index": tag.index,
            "slot": tag.slot,
            "corner": tag.corner,
            "size_mm": self.size_mm,
            "file": self.file_name,
        }


def printed_kit(
    kit: str, players: int, layout: Layout, token_mm: float | None = None
) -> tuple[PrintedTag, ...]:
    """Every tag of a kit for `players` colours, sized for the layout's board.

    `token_mm` replaces the layout's token size. `TagSizeError` if any tag would be
    smaller than `MIN_TAG_MM` or larger than `MAX_TAG_MM`.
    """
    token_size = layout.token_size_mm if token_mm is None else token_mm
    corner_sizes = {c.corner: c.size_mm for c in layout.corners}
    slot_sizes = {s.slot: s.tag_size_mm for s in layout.slots}
    largest_slot = max(slot_sizes.values())
    printed = []
    for tag in kit_tags(kit, players):
        match tag.role:
            case Role.CORNER:
                assert tag.corner is not None
                size = corner_sizes[tag.corner]
            case Role.SLOT:
                assert tag.slot is not None
                size = slot_sizes.get(tag.slot, largest_slot)
            case _:
                size = token_size
        printed.append(_checked(PrintedTag(tag, size)))
    return tuple(printed)


def manifest(printed: Sequence[PrintedTag]) -> list[ManifestEntry]:
    """The document of `manifest.json`: one entry per tag, in kit order."""
    return [p.manifest_entry() for p in printed]


def _checked(printed: PrintedTag) -> PrintedTag:
    if not MIN_TAG_MM <= printed.size_mm <= MAX_TAG_MM:
        raise TagSizeError(
            f"tags must be {MIN_TAG_MM:g} to {MAX_TAG_MM:g} mm across; "
            f"{printed.label} would be {printed.size_mm:g} mm"
        )
    return printed
