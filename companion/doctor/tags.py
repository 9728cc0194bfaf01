"""The tag check: can every kit tag in view be read, and with how many pixels to spare?

Tags too small in the frame are read one frame and missed the next, which the game
sees as tokens coming and going. The pixels per QR module of every kit tag in the
live frame (board tags, and any tokens laid on the board) are measured and compared
with the minimum the calibration warns below; board tags the layout places but the
frame does not show are named.
"""

import statistics

from companion.colours import COLOURS
from companion.doctor.findings import TAGS, Finding, Issue, Status, combine
from companion.doctor.view import BoardView, Sight, layout_anchors, tag_name
from companion.kit.tags import MIN_PX_PER_MODULE, KitTag, Role
from companion.phrases import plural
from companion.vision.assign import KitDetection
from companion.wording import count, listing

NAMED_AT_MOST = 5
"""Small or missing tags named one by one; beyond this many the rest are counted."""

_BIGGER_FIX = "lower the camera, raise the resolution, or print larger tags"


def tags_check(sight: Sight | None) -> Finding:
    """The tags' finding from the one look at the live frame."""
    view = sight.view if sight is not None else None
    if sight is None or view is None:
        return Finding(Status.SKIP, TAGS, "not checked: no picture from the camera")
    if view.kit is None or view.own_tags == 0:
        return _nothing_read(view)
    expected = _expected(sight, view)
    detail = f"{_board_part(view, expected)}; {_token_part(view)}"
    issues = []
    small = sorted(
        (t for t in (*view.anchors, *view.tokens) if t.px_per_module < MIN_PX_PER_MODULE),
        key=lambda t: t.px_per_module,
    )
    if small:
        named = [f"{tag_name(t.tag)} ({t.px_per_module:.1f})" for t in small]
        below = f"below {MIN_PX_PER_MODULE:g} px per module: {_some(named)}"
        issues.append(Issue(Status.WARN, below, _BIGGER_FIX))
    seen = {a.tag.text for a in view.anchors}
    missing = [tag_name(t) for t in expected if t.text not in seen]
    if missing:
        issues.append(
            Issue(
                Status.WARN,
                f"{_some(missing)} not read",
                "clear anything lying on them and check that they are in the camera's view; "
                f"if they are, {_BIGGER_FIX}",
            )
        )
    if view.other_kits:
        kits = listing([f"{k.kit} ({k.tags})" for k in view.other_kits])
        issues.append(
            Issue(
                Status.WARN,
                f"tags of another kit in view: {kits}",
                "take the other kit's tags off this table: the game ignores them, so a token "
                "of the wrong kit is never counted",
            )
        )
    return combine(TAGS, detail, issues)


def _nothing_read(view: BoardView) -> Finding:
    """FAIL for a frame without one tag of the kit: another kit's board, or no board."""
    kit = f"kit {view.kit}" if view.kit is not None else "the companion's kit"
    if view.other_kits:
        kits = listing([f"{count(k.tags, 'tag')} of kit {k.kit}" for k in view.other_kits])
        return Finding(
            Status.FAIL,
            TAGS,
            f"no tag of {kit} read, but {kits}",
            f"put this table's board ({kit}) under the camera, or recalibrate on the board "
            "that is there",
        )
    return Finding(
        Status.FAIL,
        TAGS,
        f"no tag of {kit} read ({count(view.others, 'other code')})",
        "check that the camera looks at the board, that the picture is sharp and the board lit",
    )


def _expected(sight: Sight, view: BoardView) -> tuple[KitTag, ...]:
    """The board tags the calibrated layout places, when the kit seen is the calibrated one."""
    table = sight.table
    if table.layout is None or table.calibration is None or view.kit != table.calibration.kit:
        return ()
    return layout_anchors(table.calibration.kit, table.layout)


def _board_part(view: BoardView, expected: tuple[KitTag, ...]) -> str:
    """How many board tags were read, and how large."""
    seen = len(view.anchors)
    tags = (
        plural("{seen} of {n} board tag", "{seen} of {n} board tags", len(expected), seen=seen)
        if expected
        else plural("{n} board tag", "{n} board tags", seen)
    )
    return f"{tags} of kit {view.kit} read{_sizes(view.anchors)}"


def _token_part(view: BoardView) -> str:
    """Which players' tokens were read, and how large; or what to lay to check them."""
    if not view.tokens:
        return (
            "no tokens on the board: lay every player's tokens and dials on the cards and "
            "run again to check them too"
        )
    colours = {t.tag.colour for t in view.tokens if t.tag.colour is not None}
    whose = [c.name for c in COLOURS if c.name in colours]
    if any(t.tag.role is Role.TRAP for t in view.tokens):
        whose.append("the trap dial")
    return f"{count(len(view.tokens), 'token')} of {listing(whose)} read{_sizes(view.tokens)}"


def _sizes(tags: tuple[KitDetection, ...]) -> str:
    """ " at 4.2 to 5.0 px per module (median 4.3)", or nothing for no tags."""
    if not tags:
        return ""
    sizes = sorted(t.px_per_module for t in tags)
    median = statistics.median(sizes)
    return f" at {sizes[0]:.1f} to {sizes[-1]:.1f} px per module (median {median:.1f})"


def _some(names: list[str]) -> str:
    """The first few names, and how many more."""
    if len(names) <= NAMED_AT_MOST:
        return listing(names)
    return f"{', '.join(names[:NAMED_AT_MOST])} and {len(names) - NAMED_AT_MOST} more"
