"""How high to hang the camera over a board: the whole board in view, every tag sharp enough.

Two limits pull against each other. The camera must be high enough for the whole
board, plus a margin, to fit in the frame; and low enough that the smallest tag of the
layout still spans `MIN_PX_PER_MODULE` pixels per QR module, below which tags are read
unreliably (calibration warns about them). `mounting` works both out for a layout and a
lens, for a camera looking straight down at the board's centre, so that a café knows
before printing anything whether its board, tag sizes and camera can work together.

The geometry is a pinhole camera over a flat board, the model of the simulated table
(`companion.sim.camera.CameraPose`): looking straight down from a height h, the
board plane is parallel to the sensor, so every point of it is seen at the same scale,
`focal_px / h` pixels per millimetre. A tag's printed size includes its quiet zone, so
its code spans `MODULES` of its `MODULES_ACROSS` modules, and a decoder measures
pixels per module over the code alone (`KitDetection.px_per_module`): both come to
`size_mm / MODULES_ACROSS` millimetres per module. Real lenses bend straight lines
near the edges (the Wide one markedly) and a tilted camera sees the far edge smaller,
so these figures are a plan to check with `companion calibrate`, not a promise.

`kit_check` is the one rule for "can this camera read this kit over this board":
`companion tags` refuses a kit that fails it (with the recommended camera unless told
another), and the hardware guide's camera table (`hardware/make_camera_table.py`)
gives its figures, so the two never disagree.

Pure and without I/O: layouts come in as `Layout` records.
"""

import dataclasses
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.errors import SettingError
from companion.kit.layouts import TAG_MM, Layout
from companion.kit.tags import MIN_PX_PER_MODULE, MODULES_ACROSS
from companion.phrases import Phrase, phrase

DEFAULT_MARGIN = 0.05
"""Room kept around the board on each side, as a share of its size: a mount is never
placed to the millimetre, and a board gets pushed during a game."""
HEIGHT_STEP_MM = 10.0
"""The recommended height is rounded up to this: nobody sets an arm to the millimetre."""


@dataclass(frozen=True)
class Lens:
    """A camera as the geometry needs it: its frame size and its fields of view.

    The fields are the full angles across the frame's width and height, as datasheets
    give them.
    """

    name: str
    """What a person calls it ("Camera Module 3")."""
    resolution_px: tuple[int, int]
    """Width and height of the frames the companion reads, in pixels."""
    hfov_deg: float
    """Horizontal field of view, across the frame's width."""
    vfov_deg: float
    """Vertical field of view, across the frame's height."""

    def __post_init__(self) -> None:
        width, height = self.resolution_px
        if width <= 0 or height <= 0:
            raise SettingError(f"{self.name}: a frame of {width}x{height} px is not a frame")
        for what, angle in (("horizontal", self.hfov_deg), ("vertical", self.vfov_deg)):
            if not 0.0 < angle < 180.0:
                raise SettingError(
                    f"{self.name}: a {what} field of view of {angle} degrees is not a lens"
                )

    @property
    def focal_px(self) -> float:
        """The focal length in pixels: pixels per millimetre at 1 mm from the lens.

        Worked out across the width and across the height, and the smaller taken:
        with square pixels the two agree, but datasheets round their angles (and a
        wide lens is not quite a pinhole), so the smaller never flatters the tags.
        """
        width, height = self.resolution_px
        across = width / (2 * _half_tan(self.hfov_deg))
        down = height / (2 * _half_tan(self.vfov_deg))
        return min(across, down)

    def field_mm(self, height_mm: float) -> tuple[float, float]:
        """Width and height of the board area in view from `height_mm`, straight down."""
        _check_height(height_mm)
        return (
            2 * height_mm * _half_tan(self.hfov_deg),
            2 * height_mm * _half_tan(self.vfov_deg),
        )

    def in_mode(self, resolution_px: tuple[int, int]) -> "Lens":
        """The same lens read at another frame size that keeps the whole field (a binned
        or scaled mode, such as 2304x1296 on a 4608x2592 sensor; not a cropped one)."""
        width, height = resolution_px
        return Lens(f"{self.name} at {width}x{height}", resolution_px, self.hfov_deg, self.vfov_deg)


LENSES: Mapping[str, Lens] = MappingProxyType(
    {
        "cm3": Lens("Camera Module 3", (4608, 2592), 66.0, 41.0),
        "cm3-wide": Lens("Camera Module 3 Wide", (4608, 2592), 102.0, 67.0),
        "usb-4k": Lens("4K USB webcam", (3840, 2160), 80.0, 50.5),
        "usb-1080p": Lens("1080p USB webcam", (1920, 1080), 70.0, 43.0),
    }
)
"""The lenses a café is likely to have, by short name, at the frame size the companion
reads them at. The Camera Module 3 figures are Raspberry Pi's published specification
(IMX708 sensor, 4608 x 2592 pixels; 66 x 41 degrees standard, 102 x 67 degrees Wide),
and `companion play` reads the full sensor unless told otherwise. The USB webcams are
a typical 4K one (about 80 x 50 degrees) and a typical 1080p one (about 70 x 43
degrees); USB cameras vary, so for a real one use the field of view from its own
datasheet, and give its size to `--source camera:0:3840x2160`."""


RECOMMENDED_LENS = "cm3"
"""The camera the hardware guide recommends, the standard Camera Module 3: the one
`companion tags` checks a kit against unless told another."""


def find_lens(name: str) -> Lens:
    """A lens preset by its short name; `SettingError` lists the known ones."""
    try:
        return LENSES[name]
    except KeyError:
        raise SettingError(f"unknown lens {name!r}; known lenses are {', '.join(LENSES)}") from None


class TagGroup(enum.Enum):
    """Which tags of a layout are the smallest, and so set the camera's reach."""

    TOKENS = "tokens"
    """Vote dials, owner tokens and the trap dial (the layout's `token_size_mm`)."""
    CORNERS = "corner tags"
    """The four corner tags."""
    SLOTS = "slot tags"
    """The slot tags beside the cards."""


@dataclass(frozen=True)
class SmallestTag:
    """The smallest printed tag of a layout, and which tags are that small."""

    size_mm: float
    """Printed size, quiet zone included."""
    group: TagGroup
    """Which tags (tokens first, if several are as small)."""


def smallest_tag(layout: Layout) -> SmallestTag:
    """The layout's smallest tag: its tokens, corner tags or slot tags."""
    sizes = (
        (layout.token_size_mm, TagGroup.TOKENS),
        (min(c.size_mm for c in layout.corners), TagGroup.CORNERS),
        (min(s.tag_size_mm for s in layout.slots), TagGroup.SLOTS),
    )
    size, group = min(sizes, key=lambda pair: pair[0])
    return SmallestTag(size, group)


def px_per_module(lens: Lens, height_mm: float, tag_size_mm: float) -> float:
    """Pixels per QR module of a tag printed `tag_size_mm` across (quiet zone included),
    seen straight down from `height_mm`, measured as the decoder measures it."""
    _check_height(height_mm)
    if not tag_size_mm > 0:
        raise SettingError(f"a tag of {tag_size_mm} mm is not a tag")
    return tag_size_mm / MODULES_ACROSS * lens.focal_px / height_mm


@dataclass(frozen=True)
class Mounting:
    """Where a lens can hang over a layout's board, looking straight down at its centre."""

    layout: str
    """The layout's name."""
    lens: Lens
    """The camera."""
    smallest: SmallestTag
    """The tag that limits the height."""
    fit_height_mm: float
    """The lowest height at which the whole board, with its margin, is in view."""
    max_height_mm: float
    """The highest at which the smallest tag still spans `MIN_PX_PER_MODULE`."""

    @property
    def feasible(self) -> bool:
        """Whether some height shows the whole board with every tag sharp enough."""
        return self.fit_height_mm <= self.max_height_mm

    @property
    def recommended_height_mm(self) -> float | None:
        """The fit height rounded up to `HEIGHT_STEP_MM` (no higher than the maximum),
        or None when no height works. Lowest is best: every tag is at its largest."""
        if not self.feasible:
            return None
        rounded = math.ceil(self.fit_height_mm / HEIGHT_STEP_MM) * HEIGHT_STEP_MM
        return min(rounded, self.max_height_mm)

    @property
    def px_per_module(self) -> float | None:
        """Pixels per module of the smallest tag at the recommended height, or None."""
        height = self.recommended_height_mm
        if height is None:
            return None
        return px_per_module(self.lens, height, self.smallest.size_mm)

    @property
    def tag_needed_mm(self) -> float:
        """The smallest tag size that spans `MIN_PX_PER_MODULE` at the fit height: what
        the layout's smallest tags would have to be printed at for this lens to work."""
        return MIN_PX_PER_MODULE * MODULES_ACROSS * self.fit_height_mm / self.lens.focal_px

    def summary(self) -> str:
        """One sentence for a person: the height to use, or why there is none."""
        small = f"{self.smallest.group.value} of {self.smallest.size_mm:g} mm"
        if self.px_per_module is None:
            return (
                f"{self.lens.name} cannot read {self.layout}: the whole board is in view "
                f"from {self.fit_height_mm:.0f} mm, but its {small} drop below "
                f"{MIN_PX_PER_MODULE:g} px per module above {self.max_height_mm:.0f} mm; "
                f"every tag would need to be at least {self.tag_needed_mm:.1f} mm"
            )
        return (
            f"{self.lens.name} over {self.layout}: hang it {self.recommended_height_mm:.0f} mm "
            f"above the board, where its {small} span {self.px_per_module:.1f} px per module "
            f"(whole board in view from {self.fit_height_mm:.0f} mm, "
            f"tags sharp enough up to {self.max_height_mm:.0f} mm)"
        )


def fit_height_mm(board_mm: tuple[float, float], lens: Lens, margin: float) -> float:
    """The lowest height, straight down over the centre, that shows the board with
    `margin` (a share of its size) on each side, with the board turned whichever way
    in the frame needs the lower camera (the reader takes a board at any angle)."""
    _check_margin(margin)
    grow = 1 + 2 * margin
    wide, high = 2 * _half_tan(lens.hfov_deg), 2 * _half_tan(lens.vfov_deg)
    return min(
        max(across * grow / wide, down * grow / high) for across, down in (board_mm, board_mm[::-1])
    )


def mounting(layout: Layout, lens: Lens, margin: float = DEFAULT_MARGIN) -> Mounting:
    """Where `lens` can hang over `layout`'s board, with `margin` around it in view.

    Raises `SettingError` for a margin outside 0 to 1.
    """
    smallest = smallest_tag(layout)
    fit = fit_height_mm(layout.board_mm, lens, margin)
    return Mounting(layout.name, lens, smallest, fit, _reach_mm(lens, smallest.size_mm))


@dataclass(frozen=True)
class KitCheck:
    """Whether a lens reads a printed kit over its layout's board, and what would do if
    not: the rule `companion tags` applies and the hardware guide's table shows.

    A kit is readable when some height shows the whole board (with its margin) and
    every tag, tokens at the kit's size, spans `MIN_PX_PER_MODULE` from there.
    """

    plan: Mounting
    """Where the lens hangs over the board, with the kit's tokens."""
    token_size_mm: float
    """The tokens' printed size in this kit."""
    board_tags: SmallestTag
    """The smallest corner or slot tag: its size is the layout's, which no option of
    `companion tags` changes."""
    smallest_tag_mm: int
    """The smallest whole number of millimetres (no less than the smallest tag a kit
    prints) at which a tag still spans `MIN_PX_PER_MODULE` from the lowest height that
    shows the whole board."""

    @property
    def readable(self) -> bool:
        """Whether the lens can read every tag of the kit over the board."""
        return self.plan.feasible

    @property
    def board_tags_readable(self) -> bool:
        """Whether the corner and slot tags are large enough, so that the tokens'
        size alone decides."""
        return _reaches(self.plan, self.board_tags.size_mm)

    @property
    def smallest_token_mm(self) -> int | None:
        """The smallest whole-millimetre token size this lens reads over this board
        (`--token-mm`), or None when the corner or slot tags are too small for any
        token size to help."""
        return self.smallest_tag_mm if self.board_tags_readable else None

    def problem(self) -> Phrase | None:
        """Why the lens cannot read the kit, in words, or None when it can."""
        if self.readable:
            return None
        height = f"{math.ceil(self.plan.fit_height_mm / 10):d}"
        values = {
            "layout": self.plan.layout,
            "camera": self.plan.lens.name,
            "height": height,
            "px": f"{MIN_PX_PER_MODULE:g}",
        }
        if self.board_tags_readable:
            return phrase(
                "{size} mm tokens are too small for {layout} with the {camera}: from "
                "{height} cm, the lowest height that shows the whole board, they span "
                "fewer than {px} pixels per QR module",
                size=f"{self.token_size_mm:g}",
                **values,
            )
        return phrase(
            "the {tags} of {layout} ({size} mm) are too small for the {camera}: from "
            "{height} cm, the lowest height that shows the whole board, they span fewer "
            "than {px} pixels per QR module",
            tags=_GROUP_WORDS[self.board_tags.group],
            size=f"{self.board_tags.size_mm:g}",
            **values,
        )

    def remedy(self) -> Phrase | None:
        """What to print instead, in words, or None when the kit is readable."""
        if self.readable:
            return None
        needed = f"{self.smallest_tag_mm:d}"
        if self.smallest_token_mm is not None:
            return phrase("print them at {needed} mm or more (--token-mm {needed})", needed=needed)
        if self.smallest_tag_mm <= TAG_MM[1]:
            return phrase(
                "make every corner and slot tag {needed} mm or more, in a layout file of "
                "your own (companion layout show gives one to start from)",
                needed=needed,
            )
        return phrase(
            "no tag up to {largest} mm is large enough for this board: hang a camera with "
            "more pixels or a narrower lens",
            largest=f"{TAG_MM[1]:g}",
        )


_GROUP_WORDS = {TagGroup.CORNERS: phrase("corner tags"), TagGroup.SLOTS: phrase("slot tags")}
"""The board's own tags as a sentence names them."""


def kit_check(
    layout: Layout,
    token_mm: float | None = None,
    lens: Lens = LENSES[RECOMMENDED_LENS],
    margin: float = DEFAULT_MARGIN,
) -> KitCheck:
    """Whether `lens` reads a kit printed for `layout`, its tokens at `token_mm` (the
    layout's own size unless given), over the board with `margin` around it in view.

    Raises `SettingError` for a margin outside 0 to 1, or a token size that is not one.
    """
    token = layout.token_size_mm if token_mm is None else token_mm
    if not (math.isfinite(token) and token > 0):
        raise SettingError(f"a token of {token} mm is not a tag")
    plan = mounting(dataclasses.replace(layout, token_size_mm=token), lens, margin)
    board_tags = smallest_tag(dataclasses.replace(layout, token_size_mm=math.inf))
    size = max(math.ceil(TAG_MM[0]), math.ceil(plan.tag_needed_mm))
    while not _reaches(plan, size):  # a rounding step short of the needed size
        size += 1
    while size > TAG_MM[0] and _reaches(plan, size - 1):
        size -= 1
    return KitCheck(plan, token, board_tags, size)


def _reach_mm(lens: Lens, tag_size_mm: float) -> float:
    """The highest a lens can hang for a tag of this size to span `MIN_PX_PER_MODULE`."""
    return tag_size_mm / MODULES_ACROSS * lens.focal_px / MIN_PX_PER_MODULE


def _reaches(plan: Mounting, tag_size_mm: float) -> bool:
    """Whether a tag of this size is read from the plan's fit height: the same test as
    `Mounting.feasible`, for one size."""
    return plan.fit_height_mm <= _reach_mm(plan.lens, tag_size_mm)


def _half_tan(angle_deg: float) -> float:
    return math.tan(math.radians(angle_deg) / 2)


def _check_height(height_mm: float) -> None:
    if not (math.isfinite(height_mm) and height_mm > 0):
        raise SettingError(f"the camera must hang above the board, not at {height_mm} mm")


def _check_margin(margin: float) -> None:
    if not (math.isfinite(margin) and 0 <= margin < 1):
        raise SettingError(f"a margin of {margin} is not a share of the board from 0 to 1")
