"""The one rule for "can this camera read this kit over this board": the token size it
asks for works and a millimetre less does not, and every shipped layout's own kit
passes it with the recommended camera."""

import dataclasses
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import SettingError
from companion.kit.layouts import TAG_MM, Layout, layout_names, load_layout
from companion.kit.mounting import (
    DEFAULT_MARGIN,
    LENSES,
    RECOMMENDED_LENS,
    Lens,
    kit_check,
    mounting,
)
from companion.kit.tags import MIN_PX_PER_MODULE
from companion.language import Language, translations

ODYSSEY = load_layout("odyssey-12")
TAG_SIZES = st.floats(TAG_MM[0], TAG_MM[1])


def resized(layout: Layout, board: tuple[float, float], corner: float, slot: float) -> Layout:
    """The layout on a board of another size, its corner and slot tags of other sizes
    (the rule reads sizes only, not positions)."""
    return dataclasses.replace(
        layout,
        board_mm=board,
        corners=tuple(dataclasses.replace(c, size_mm=corner) for c in layout.corners),
        slots=tuple(dataclasses.replace(s, tag_size_mm=slot) for s in layout.slots),
    )


LAYOUTS = st.builds(
    resized,
    st.just(ODYSSEY),
    st.tuples(st.floats(100, 2000), st.floats(100, 2000)),
    TAG_SIZES,
    TAG_SIZES,
)
LENS = st.sampled_from(list(LENSES.values())) | st.builds(
    Lens,
    st.just("any"),
    st.tuples(st.integers(320, 8000), st.integers(240, 6000)),
    st.floats(30, 120),
    st.floats(20, 100),
)


@given(layout=LAYOUTS, token=TAG_SIZES, lens=LENS, margin=st.floats(0, 0.3))
def test_the_token_size_it_asks_for_is_read_and_a_millimetre_less_is_not(
    layout: Layout, token: float, lens: Lens, margin: float
) -> None:
    check = kit_check(layout, token, lens, margin)
    smallest = check.smallest_token_mm
    if smallest is None:
        assert not check.board_tags_readable
        assert not kit_check(layout, TAG_MM[1], lens, margin).readable
        return
    assert kit_check(layout, smallest, lens, margin).readable
    if smallest > TAG_MM[0]:
        assert not kit_check(layout, smallest - 1, lens, margin).readable
    if token >= smallest:
        assert check.readable
    if token <= smallest - 1:
        assert not check.readable


@given(layout=LAYOUTS, token=TAG_SIZES, lens=LENS)
def test_a_kit_is_readable_exactly_when_the_camera_has_a_height_for_it(
    layout: Layout, token: float, lens: Lens
) -> None:
    check = kit_check(layout, token, lens)
    plan = mounting(dataclasses.replace(layout, token_size_mm=token), lens)
    assert check.plan == plan
    assert check.readable == plan.feasible == (plan.recommended_height_mm is not None)
    assert (check.problem() is None) == (check.remedy() is None) == check.readable
    assert check.smallest_tag_mm >= plan.tag_needed_mm - 1e-9
    if check.readable and check.plan.px_per_module is not None:
        assert check.plan.px_per_module >= MIN_PX_PER_MODULE


@pytest.mark.parametrize("name", layout_names())
def test_every_shipped_layouts_own_kit_is_read_by_the_recommended_camera(name: str) -> None:
    check = kit_check(load_layout(name))
    assert check.plan.lens == LENSES[RECOMMENDED_LENS]
    assert check.readable, check.problem()
    assert check.plan.px_per_module is not None
    assert check.plan.px_per_module >= MIN_PX_PER_MODULE


def test_the_a1_mat_with_24_mm_tokens_asks_for_26() -> None:
    check = kit_check(load_layout("mat-a1-12"), 24)
    assert not check.readable and check.board_tags_readable
    assert check.smallest_token_mm == 26
    assert str(check.problem()) == (
        "24 mm tokens are too small for mat-a1-12 with the Camera Module 3: from 88 cm, "
        "the lowest height that shows the whole board, they span fewer than 4 pixels per "
        "QR module"
    )
    assert str(check.remedy()) == "print them at 26 mm or more (--token-mm 26)"


def test_corner_or_slot_tags_too_small_need_a_layout_of_ones_own() -> None:
    small = resized(ODYSSEY, ODYSSEY.board_mm, 30, 15)
    check = kit_check(small, 40)
    assert not check.readable and not check.board_tags_readable
    assert check.smallest_token_mm is None
    assert str(check.problem()).startswith("the slot tags of odyssey-12 (15 mm) are too small")
    assert str(check.remedy()) == (
        f"make every corner and slot tag {check.smallest_tag_mm} mm or more, in a layout "
        "file of your own (companion layout show gives one to start from)"
    )
    grown = resized(ODYSSEY, ODYSSEY.board_mm, check.smallest_tag_mm, check.smallest_tag_mm)
    assert kit_check(grown, check.smallest_tag_mm).readable


def test_a_board_no_printable_tag_can_cover_says_so() -> None:
    huge = resized(ODYSSEY, (2000.0, 2000.0), 100, 100)
    check = kit_check(huge, 100, LENSES["usb-1080p"])
    assert not check.readable and check.smallest_tag_mm > TAG_MM[1]
    assert str(check.remedy()).startswith("no tag up to 100 mm is large enough")


def test_the_refusal_reads_in_french_too() -> None:
    check = kit_check(load_layout("mat-a1-12"), 24)
    problem, remedy = check.problem(), check.remedy()
    assert problem is not None and remedy is not None
    french = translations(Language.FRENCH)
    assert problem.render(french) != str(problem) and "mat-a1-12" in problem.render(french)
    assert "--token-mm 26" in remedy.render(french)


@pytest.mark.parametrize("token", [0.0, -3.0, math.nan, math.inf])
def test_a_token_size_that_is_not_one_is_refused(token: float) -> None:
    with pytest.raises(SettingError):
        kit_check(ODYSSEY, token)


def test_the_margin_is_the_guides() -> None:
    assert kit_check(ODYSSEY).plan == mounting(ODYSSEY, LENSES[RECOMMENDED_LENS], DEFAULT_MARGIN)
