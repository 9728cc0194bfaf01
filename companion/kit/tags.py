"""Tag texts: what each QR code of the kit says, and the strict parser that reads them.

Every tag is a version 1 QR code (21 x 21 modules) in alphanumeric mode with error
correction M, which holds 20 characters. Its text is

    DXC.<kit>.<body>.<check>

- `DXC` marks a Dixit companion tag;
- `<kit>` is the kit id, 2 to 6 capital letters or digits, one per café box;
- `<body>` says what the tag is: `C1`..`C4` a board corner, `S01`..`S12` a slot,
  `V<colour><i>` vote dial i (1 or 2) of a colour, `O<colour><i>` owner token i,
  `T` the trap dial; colours are two-letter codes (`RD`, `BL`, ...);
- `<check>` is one character: a position-weighted sum modulo 41 of everything
  before it, written with `CHECK_ALPHABET` (no space, which readers may trim).

The parser accepts exactly these texts and nothing else: a menu's QR code, a phone
screen, a misread or a tag of an unknown colour is foreign, never guessed at. The
longest text, with a 6-character kit id, is 17 characters.
"""

import enum
import functools
import re
from dataclasses import dataclass

from companion.colours import BY_CODE, BY_NAME, COLOURS
from companion.errors import ForeignTagError, InvalidKitIdError

ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
"""The QR alphanumeric character set, in code order."""
CHECK_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ$%*+-"
"""The 41 characters a check character is written with (41 is prime)."""
PREFIX = "DXC"
"""Every kit tag text starts with this."""
MODULES = 21
"""Modules across a version 1 QR code."""
QUIET_ZONE_MODULES = 2
"""White modules printed around the code on each side: tokens lie side by side, and
each brings its own margin, so two are enough and keep the tokens small."""
MODULES_ACROSS = MODULES + 2 * QUIET_ZONE_MODULES
"""Modules across a printed tag: its printed size spans this many modules."""
MIN_PX_PER_MODULE = 4.0
"""Camera pixels per QR module below which tags are read unreliably: calibration
warns, and camera heights and tag sizes are chosen to stay above it."""
CORNERS = 4
"""Corner tags per kit."""
SLOTS = 12
"""Slot tags per kit (the largest board has 12 slots)."""
DIALS = 2
"""Vote dials, and owner tokens, per colour."""

_VALUES = {c: value for value, c in enumerate(ALPHANUMERIC)}
_KIT = re.compile(r"[A-Z0-9]{2,6}")
_CODES = "|".join(c.code for c in COLOURS)
_TEXT = re.compile(
    rf"{PREFIX}\.(?P<kit>[A-Z0-9]{{2,6}})\."
    rf"(?:C(?P<corner>[1-{CORNERS}])"
    rf"|S(?P<slot>0[1-9]|1[0-2])"
    rf"|(?P<role>[VO])(?P<colour>{_CODES})(?P<index>[1-{DIALS}])"
    rf"|(?P<trap>T))"
    rf"\.(?P<check>[{re.escape(CHECK_ALPHABET)}])"
)


class Role(enum.Enum):
    """What a tag marks."""

    CORNER = "corner"
    """A board corner: fixes the board plane."""
    SLOT = "slot"
    """A numbered card slot: names the slot and refines the board plane."""
    VOTE = "vote"
    """A player's vote dial, laid on the card voted for."""
    OWNER = "owner"
    """A player's owner token, laid on their own card."""
    TRAP = "trap"
    """The storyteller's trap dial (Party)."""


@dataclass(frozen=True)
class KitTag:
    """One tag of a kit, as its text says."""

    kit: str
    """The kit id."""
    role: Role
    """What the tag marks."""
    colour: str | None = None
    """The player colour of a vote dial or owner token."""
    index: int | None = None
    """Which of the colour's two dials or tokens (1 or 2)."""
    slot: int | None = None
    """The slot number of a slot tag."""
    corner: int | None = None
    """The corner number of a corner tag (1..4)."""

    @functools.cached_property
    def text(self) -> str:
        """The text encoded in the QR code."""
        head = f"{PREFIX}.{self.kit}.{self._body()}"
        return f"{head}.{check_character(head)}"

    @property
    def label(self) -> str:
        """What a person reads under the printed tag: "red vote 1", "slot 3", "corner 2",
        "trap"."""
        match self.role:
            case Role.CORNER:
                return f"corner {self.corner}"
            case Role.SLOT:
                return f"slot {self.slot}"
            case Role.TRAP:
                return "trap"
            case _:
                return f"{self.colour} {self.role.value} {self.index}"

    @property
    def is_token(self) -> bool:
        """Whether the tag lies on a card (vote dial, owner token, trap dial)."""
        return self.role in (Role.VOTE, Role.OWNER, Role.TRAP)

    def _body(self) -> str:
        match self.role:
            case Role.CORNER:
                return f"C{self.corner}"
            case Role.SLOT:
                return f"S{self.slot:02d}"
            case Role.TRAP:
                return "T"
            case _:
                assert self.colour is not None
                letter = "V" if self.role is Role.VOTE else "O"
                return f"{letter}{BY_NAME[self.colour].code}{self.index}"


def check_kit_id(kit: str) -> str:
    """The kit id, or `InvalidKitIdError` if it is not 2-6 capitals or digits."""
    if not _KIT.fullmatch(kit):
        raise InvalidKitIdError(f"kit id {kit!r} must be 2 to 6 capital letters or digits")
    return kit


def check_character(head: str) -> str:
    """The check character of a tag text's head: position-weighted sum modulo 41.

    Weighting by position catches swapped characters as well as changed ones.
    """
    total = sum(weight * _VALUES[c] for weight, c in enumerate(head, start=1))
    return CHECK_ALPHABET[total % len(CHECK_ALPHABET)]


def parse_tag(text: str) -> KitTag:
    """The kit tag a QR text stands for, or `ForeignTagError` saying why it is none."""
    parsed = _parse(text)
    if isinstance(parsed, str):
        raise ForeignTagError(parsed)
    return parsed


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> KitTag | str:
    """The tag, or why the text is foreign; remembered, as a table shows the same
    few dozen texts in every frame."""
    found = _TEXT.fullmatch(text)
    if found is None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        return f"{shown!r} is not a companion tag"
    head, check = text[:-2], found["check"]
    if check != check_character(head):
        return f"{text!r} has a wrong check character"
    kit = found["kit"]
    if found["corner"]:
        return KitTag(kit, Role.CORNER, corner=int(found["corner"]))
    if found["slot"]:
        return KitTag(kit, Role.SLOT, slot=int(found["slot"]))
    if found["trap"]:
        return KitTag(kit, Role.TRAP)
    role = Role.VOTE if found["role"] == "V" else Role.OWNER
    return KitTag(kit, role, colour=BY_CODE[found["colour"]].name, index=int(found["index"]))


def kit_tags(kit: str, players: int) -> tuple[KitTag, ...]:
    """Every tag of a kit for up to `players` colours: corners, slots, then per colour
    its vote dials and owner tokens, then the trap dial."""
    check_kit_id(kit)
    if not 1 <= players <= len(COLOURS):
        raise InvalidKitIdError(f"a kit has 1 to {len(COLOURS)} player colours, not {players}")
    tags = [KitTag(kit, Role.CORNER, corner=n) for n in range(1, CORNERS + 1)]
    tags += [KitTag(kit, Role.SLOT, slot=n) for n in range(1, SLOTS + 1)]
    for colour in COLOURS[:players]:
        for role in (Role.VOTE, Role.OWNER):
            tags += [KitTag(kit, role, colour=colour.name, index=i) for i in range(1, DIALS + 1)]
    tags.append(KitTag(kit, Role.TRAP))
    return tuple(tags)
