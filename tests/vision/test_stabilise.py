"""The stabiliser: settle, keep hidden tokens, drop tokens that left, invent nothing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import SettingError
from companion.kit.tags import KitTag, Role
from companion.phrases import verbatim
from companion.vision.assign import PlacedToken
from companion.vision.records import Duplicate, TableObservation
from companion.vision.stabilise import Stabiliser

RED = KitTag("CAFE", Role.VOTE, colour="red", index=1)
BLUE = KitTag("CAFE", Role.OWNER, colour="blue", index=1)
EMPTY = TableObservation()


def at(tag: KitTag, slot: int) -> PlacedToken:
    return PlacedToken(tag, slot, (slot * 100.0, 50.0))


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
