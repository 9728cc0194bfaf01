"""The stabiliser: settle, keep hidden tokens, drop tokens that left, invent nothing, and
name a token covered by another until it can be read again."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import SettingError
from companion.kit.tags import KitTag, Role
from companion.phrases import verbatim
from companion.vision.assign import PlacedToken
from companion.vision.records import Covered, Duplicate, TableObservation
from companion.vision.stabilise import Settled, Stabiliser

RED = KitTag("CAFE", Role.VOTE, colour="red", index=1)
BLUE = KitTag("CAFE", Role.OWNER, colour="blue", index=1)
GREEN = KitTag("CAFE", Role.VOTE, colour="green", index=1)
YELLOW = KitTag("CAFE", Role.VOTE, colour="yellow", index=2)
EMPTY = TableObservation()


SIDE = 40.0
"""A code's side in pixels: its token's disc is about 68 px across."""


def at(tag: KitTag, slot: int) -> PlacedToken:
    return PlacedToken(tag, slot, (slot * 100.0, 50.0))


def sized(tag: KitTag, slot: int, dx: float = 0.0, side: float = SIDE) -> PlacedToken:
    """A token seen at its size, `dx` pixels right of its slot's usual place."""
    return PlacedToken(tag, slot, (slot * 100.0 + dx, 50.0), side)


def pushed(stabiliser: Stabiliser, frames: list[list[PlacedToken]]) -> list[Settled]:
    return [stabiliser.push(placed, EMPTY) for placed in frames]


def in_slots(settled: Settled) -> set[int]:
    return set(settled.observation.slots)


def run(stabiliser: Stabiliser, frames: list[list[PlacedToken]]) -> list[dict[KitTag, int]]:
    """The settled tokens (tag to slot) after each frame."""
    out = []
    for placed in frames:
        settled = stabiliser.push(placed, EMPTY)
        out.append(
            {
                KitTag("CAFE", Role.VOTE, colour=v.player, index=v.dial): slot
                for slot, contents in settled.observation.slots.items()
                for v in contents.votes
            }
            | {
                KitTag("CAFE", Role.OWNER, colour=o, index=1): slot
                for slot, contents in settled.observation.slots.items()
                for o in contents.owners
            }
        )
    return out


def test_a_token_counts_once_seen_in_the_same_slot_over_the_window() -> None:
    seen = run(Stabiliser(settle_frames=3, keep_frames=5), [[at(RED, 2)]] * 4)
    assert seen == [{}, {}, {RED: 2}, {RED: 2}]


def test_a_token_hidden_by_a_hand_is_kept() -> None:
    frames = [[at(RED, 2), at(BLUE, 4)]] * 3 + [[at(BLUE, 4)]] * 4 + [[at(RED, 2), at(BLUE, 4)]]
    seen = run(Stabiliser(settle_frames=3, keep_frames=5), frames)
    assert all(s == {RED: 2, BLUE: 4} for s in seen[2:])


def test_a_token_that_left_is_dropped() -> None:
    frames = [[at(RED, 2)]] * 3 + [[]] * 6
    seen = run(Stabiliser(settle_frames=3, keep_frames=5), frames)
    assert seen[-2] == {RED: 2}
    assert seen[-1] == {}


def test_a_moved_token_settles_again_in_its_new_slot() -> None:
    frames = [[at(RED, 2)]] * 3 + [[at(RED, 5)]] * 3
    stabiliser = Stabiliser(settle_frames=3, keep_frames=5)
    seen = run(stabiliser, frames)
    assert seen[3] == {} and seen[4] == {}
    assert seen[5] == {RED: 5}


def test_steady_only_when_nothing_is_settling() -> None:
    stabiliser = Stabiliser(settle_frames=2, keep_frames=5)
    assert not stabiliser.push([at(RED, 2)], EMPTY).steady
    assert stabiliser.push([at(RED, 2)], EMPTY).steady
    settled = stabiliser.push([at(BLUE, 3)], EMPTY)
    assert not settled.steady
    assert settled.pending == (BLUE.text,)
    assert settled.hidden == (RED.text,)


def test_look_again_names_where_tracked_tokens_were_last_seen() -> None:
    stabiliser = Stabiliser(settle_frames=2, keep_frames=5)
    stabiliser.push([at(RED, 2)], EMPTY)
    assert dict(stabiliser.look_again()) == {RED.text: (200.0, 50.0)}
    stabiliser.clear()
    assert dict(stabiliser.look_again()) == {}


def test_bad_windows_are_refused() -> None:
    with pytest.raises(SettingError, match="settle_frames must be at least 1"):
        Stabiliser(settle_frames=0)


@given(
    st.lists(
        st.lists(st.tuples(st.sampled_from([RED, BLUE]), st.integers(1, 3)), max_size=2),
        max_size=30,
    ),
    st.integers(1, 4),
    st.integers(0, 4),
)
def test_nothing_is_invented(
    frames: list[list[tuple[KitTag, int]]], settle: int, keep: int
) -> None:
    """Every settled token was seen in that slot in at least `settle` frames."""
    stabiliser = Stabiliser(settle_frames=settle, keep_frames=keep)
    history: list[set[tuple[KitTag, int]]] = []
    for frame in frames:
        unique = dict(frame)
        history.append(set(unique.items()))
        settled = run(stabiliser, [[at(tag, slot) for tag, slot in unique.items()]])[0]
        for tag, slot in settled.items():
            assert sum((tag, slot) in past for past in history) >= settle


def test_the_stabiliser_passes_copies_and_a_wrong_board_on() -> None:
    stabiliser = Stabiliser(settle_frames=1, keep_frames=0)
    latest = TableObservation(
        duplicates=(Duplicate(RED.text, (2,), 1),), wrong_board=verbatim("not the classic-8 board")
    )
    settled = stabiliser.push([], latest)
    assert settled.observation.duplicates == latest.duplicates
    assert str(settled.observation.wrong_board) == "not the classic-8 board"


def covered_red() -> tuple[Stabiliser, list[Settled]]:
    """Red's dial settles on slot 2, then Blue's owner token is laid half over it, on
    the same slot, and stays: red is not seen again."""
    stabiliser = Stabiliser(settle_frames=3, keep_frames=5)
    frames = [[sized(RED, 2)]] * 3 + [[sized(BLUE, 2, dx=30.0)]] * 20
    return stabiliser, pushed(stabiliser, frames)


def test_a_token_covered_after_it_settled_is_reported_covered_and_in_no_slot() -> None:
    _, seen = covered_red()
    within_keep = seen[3 + 4]
    assert within_keep.hidden == (RED.text,) and within_keep.observation.covered == ()
    assert within_keep.observation.slots[2].votes  # a hand over it, as far as anyone knows
    for settled in seen[3 + 5 :]:
        assert settled.observation.covered == (Covered(RED.text, 2, BLUE.text),)
        assert settled.observation.slots[2].votes == ()
        assert settled.observation.slots[2].owners == ("blue",)
        assert settled.hidden == ()
        assert settled.steady


def test_a_covered_token_is_dropped_once_the_other_moves_away_and_it_is_still_unseen() -> None:
    stabiliser, _ = covered_red()
    after = pushed(stabiliser, [[sized(BLUE, 4)]] * 7)
    assert all(s.observation.covered == (Covered(RED.text, 2, BLUE.text),) for s in after[:5])
    assert after[5].observation.covered == ()
    assert in_slots(after[5]) == {4} and after[5].hidden == ()
    assert dict(stabiliser.look_again()) == {BLUE.text: (400.0, 50.0)}


def test_a_covered_token_comes_back_when_seen_again_in_its_slot_or_another() -> None:
    stabiliser, _ = covered_red()
    (back,) = pushed(stabiliser, [[sized(RED, 2), sized(BLUE, 2, dx=30.0)]])
    assert back.observation.covered == ()
    assert back.observation.slots[2].votes and back.observation.slots[2].owners
    stabiliser, _ = covered_red()
    moved = pushed(stabiliser, [[sized(RED, 3), sized(BLUE, 2, dx=30.0)]] * 3)
    assert moved[0].observation.covered == () and moved[0].pending == (RED.text,)
    assert moved[2].observation.slots[3].votes


def test_a_hand_over_both_keeps_todays_rule() -> None:
    stabiliser, _ = covered_red()
    hand = pushed(stabiliser, [[]] * 5)
    assert all(s.observation.covered == (Covered(RED.text, 2, BLUE.text),) for s in hand)
    assert all(s.hidden == (BLUE.text,) for s in hand)
    (lifted,) = pushed(stabiliser, [[sized(BLUE, 2, dx=30.0)]])
    assert lifted.observation.covered == (Covered(RED.text, 2, BLUE.text),)
    longer = pushed(stabiliser, [[]] * 6)
    assert longer[-1].observation == EMPTY


def test_a_token_covered_while_still_settling_is_covered_too() -> None:
    stabiliser = Stabiliser(settle_frames=3, keep_frames=5)
    frames = [[sized(RED, 2)]] * 2 + [[sized(BLUE, 2, dx=-30.0)]] * 9
    seen = pushed(stabiliser, frames)
    assert seen[2 + 4].observation.covered == ()
    assert not seen[2 + 4].steady  # red still settling, as far as anyone knows
    assert seen[-1].observation.covered == (Covered(RED.text, 2, BLUE.text),)
    assert seen[-1].steady and seen[-1].pending == ()


def test_a_token_that_leaves_with_nothing_over_its_place_is_dropped_as_before() -> None:
    beside = 1.75 * SIDE  # two discs side by side, just apart
    for other in (sized(BLUE, 4), sized(BLUE, 2, dx=beside)):
        stabiliser = Stabiliser(settle_frames=3, keep_frames=5)
        frames = [[sized(RED, 2), other]] * 3 + [[other]] * 6
        seen = pushed(stabiliser, frames)
        assert seen[-2].observation.slots[2].votes
        assert seen[-1].observation.covered == ()
        assert all(not c.votes for c in seen[-1].observation.slots.values())


def test_an_unknown_size_goes_by_the_other_token_and_with_neither_known_none_covers() -> None:
    stabiliser = Stabiliser(settle_frames=1, keep_frames=0)
    pushed(stabiliser, [[sized(RED, 2)]])
    (under,) = pushed(stabiliser, [[sized(BLUE, 2, dx=30.0, side=0.0)]])
    assert under.observation.covered == (Covered(RED.text, 2, BLUE.text),)
    stabiliser = Stabiliser(settle_frames=1, keep_frames=0)
    pushed(stabiliser, [[at(RED, 2)]])
    (gone,) = pushed(stabiliser, [[at(BLUE, 2)]])
    assert gone.observation.covered == () and gone.observation.slots[2].votes == ()


def test_a_frame_that_misses_most_settled_tokens_is_blind() -> None:
    """A camera hunting for focus sees almost nothing for a few frames: such a frame
    says nothing of the table (the tokens just laid are not seen either)."""
    stabiliser = Stabiliser(settle_frames=2, keep_frames=5)
    tokens = [at(RED, 1), at(BLUE, 2), at(GREEN, 3), at(YELLOW, 4)]
    settled = pushed(stabiliser, [tokens] * 2)[-1]
    assert settled.steady and not settled.blind
    (soft,) = pushed(stabiliser, [tokens[:1]])
    assert soft.blind and len(soft.hidden) == 3
    assert in_slots(soft) == {1, 2, 3, 4}
    (hand,) = pushed(stabiliser, [tokens[:3]])
    assert not hand.blind and hand.hidden == (YELLOW.text,)
    small = Stabiliser(settle_frames=1, keep_frames=5)
    pushed(small, [tokens[:3]])
    (two_of_three_hidden,) = pushed(small, [tokens[:1]])
    assert not two_of_three_hidden.blind  # too few tokens to tell a hand from a blur


def test_a_token_taken_from_beside_one_that_lay_there_all_along_is_gone_not_covered() -> None:
    """A player takes back a dial lying close to another: the other did not come over
    it, so it is not covered; it leaves after the usual keep, as a token taken away."""
    stabiliser = Stabiliser(settle_frames=3, keep_frames=5)
    both = [sized(RED, 2), sized(BLUE, 2, dx=30.0)]
    pushed(stabiliser, [both] * 20)
    after = pushed(stabiliser, [[sized(BLUE, 2, dx=30.0)]] * 7)
    assert all(s.observation.covered == () for s in after)
    assert after[-1].observation.slots[2].votes == ()
    assert set(stabiliser.look_again()) == {BLUE.text}


def test_a_token_moved_onto_another_covers_it() -> None:
    """The token on top lay elsewhere on the card before: moved over the other one, it
    counts as having come when the other went."""
    stabiliser = Stabiliser(settle_frames=3, keep_frames=5)
    pushed(stabiliser, [[sized(RED, 2), sized(BLUE, 2, dx=200.0)]] * 20)
    after = pushed(stabiliser, [[sized(BLUE, 2, dx=30.0)]] * 8)
    assert after[-1].observation.covered == (Covered(RED.text, 2, BLUE.text),)
