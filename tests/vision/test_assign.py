"""Sorting decoded codes, and putting tokens in slots."""

from companion.kit.layouts import load_layout
from companion.kit.tags import KitTag, Role
from companion.vision.assign import classify, observe, place, set_apart_copies
from companion.vision.board import BoardFit
from companion.vision.records import Detection, Duplicate, SlotContents, Vote

LAYOUT = load_layout("classic-8")
IDENTITY = BoardFit(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), 0.0, 4, 4)
"""A board fit where one pixel is one millimetre, so tests can place codes in mm."""


def code(tag: KitTag | str, x: float, y: float, side: float = 21.0) -> Detection:
    text = tag if isinstance(tag, str) else tag.text
    h = side / 2
    return Detection(text, ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)))


def card_centre(slot: int) -> tuple[float, float]:
    x0, y0, x1, y1 = LAYOUT.slots[slot - 1].card_mm
    return ((x0 + x1) / 2, (y0 + y1) / 2)


RED_VOTE = KitTag("CAFE", Role.VOTE, colour="red", index=1)
BLUE_OWNER = KitTag("CAFE", Role.OWNER, colour="blue", index=1)
TRAP = KitTag("CAFE", Role.TRAP)


def test_codes_are_sorted_into_anchors_tokens_and_foreign() -> None:
    found = classify(
        [
            code(KitTag("CAFE", Role.CORNER, corner=1), 10, 10),
            code(RED_VOTE, 50, 50),
            code(RED_VOTE, 51, 50),
            code("https://menu.example", 100, 100),
            code(KitTag("BAR2", Role.SLOT, slot=1), 200, 200),
        ],
        "CAFE",
    )
    assert [a.tag.corner for a in found.anchors] == [1]
    assert [t.tag for t in found.tokens] == [RED_VOTE]
    assert found.foreign == (KitTag("BAR2", Role.SLOT, slot=1).text, "https://menu.example")


def test_tokens_go_to_the_slot_whose_card_area_holds_their_centre() -> None:
    found = classify([code(RED_VOTE, *card_centre(3)), code(BLUE_OWNER, *card_centre(5))], "CAFE")
    placed, unplaced = place(found.tokens, IDENTITY, LAYOUT)
    assert {(p.tag, p.slot) for p in placed} == {(RED_VOTE, 3), (BLUE_OWNER, 5)}
    assert unplaced == []


def test_a_placed_token_keeps_the_size_it_was_seen_at() -> None:
    found = classify([code(RED_VOTE, *card_centre(3), side=30.0)], "CAFE")
    placed, _ = place(found.tokens, IDENTITY, LAYOUT)
    assert [p.side_px for p in placed] == [30.0]


def test_a_token_outside_every_card_area_is_unplaced_with_the_reason() -> None:
    found = classify([code(TRAP, 2, 250)], "CAFE")
    placed, unplaced = place(found.tokens, IDENTITY, LAYOUT)
    assert placed == []
    assert unplaced[0].text == TRAP.text
    assert unplaced[0].reason == "outside every card area, at 2, 250 mm"


def test_observation_groups_by_slot_and_leaves_empty_slots_out() -> None:
    tokens = [
        code(RED_VOTE, *card_centre(2)),
        code(KitTag("CAFE", Role.VOTE, colour="green", index=2), *card_centre(2)),
        code(BLUE_OWNER, *card_centre(2)),
        code(TRAP, *card_centre(6)),
    ]
    placed, unplaced = place(classify(tokens, "CAFE").tokens, IDENTITY, LAYOUT)
    table = observe(placed, unplaced, ())
    assert dict(table.slots) == {
        2: SlotContents(owners=("blue",), votes=(Vote("green", 2), Vote("red", 1))),
        6: SlotContents(trap=True),
    }


def test_a_token_read_twice_at_one_place_counts_once() -> None:
    x, y = card_centre(3)
    found = classify([code(RED_VOTE, x, y), code(RED_VOTE, x + 4, y - 3)], "CAFE")
    assert [t.tag for t in found.tokens] == [RED_VOTE]
    assert found.copies == ()


def test_a_token_at_two_places_is_a_copy_and_neither_counts() -> None:
    found = classify([code(RED_VOTE, *card_centre(2)), code(RED_VOTE, *card_centre(5))], "CAFE")
    assert len(found.copies) == 1
    placed, unplaced = place([*found.tokens, *found.copies], IDENTITY, LAYOUT)
    kept, off, duplicates = set_apart_copies(placed, unplaced)
    assert (kept, off) == ([], [])
    assert duplicates == (Duplicate(RED_VOTE.text, (2, 5), 0),)
