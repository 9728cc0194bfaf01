"""Seating order, rotation and teams."""

from companion.rules import Seating

EIGHT = Seating(("a", "b", "c", "d", "e", "f", "g", "h"))


def test_storyteller_moves_to_the_left_each_round() -> None:
    assert [EIGHT.storyteller("g", r) for r in range(1, 5)] == ["g", "h", "a", "b"]


def test_partners_sit_opposite() -> None:
    assert EIGHT.partner("b") == "f"
    assert EIGHT.partner("f") == "b"
    assert EIGHT.pairs == (("a", "e"), ("b", "f"), ("c", "g"), ("d", "h"))


def test_team_name_is_the_same_from_either_member() -> None:
    assert EIGHT.team("c") == EIGHT.team("g") == "c+g"
