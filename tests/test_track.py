"""The printed track's laps, shared by the screen and the LED strip."""

import pytest

from companion.track import TRACK_LENGTH, lapped


def test_a_score_past_the_last_space_laps_the_track() -> None:
    assert lapped(34) == (1, 4)
    assert lapped(30) == (0, 30)
    assert lapped(60) == (1, 30)
    assert lapped(61) == (2, 1)
    assert lapped(-2) == (0, 0)


def test_a_shorter_track_laps_at_its_own_length() -> None:
    assert lapped(TRACK_LENGTH // 2 + 1, TRACK_LENGTH // 2) == (1, 1)


@pytest.mark.parametrize(
    ("position", "expected"),
    [(0, (0, 0)), (30, (0, 30)), (31, (1, 1)), (60, (1, 30)), (61, (2, 1)), (95, (3, 5))],
)
def test_laps_start_again_at_space_zero(position: float, expected: tuple[int, float]) -> None:
    assert lapped(position) == expected
