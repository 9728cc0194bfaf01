"""A stored value of the wrong shape is named as damage, never raised as a crash.

The journal takes only `documents.DAMAGED` for damage, so every decoder must turn a
wrong shape (a list where an object was stored, a number where a time was) into one
of those rather than a `TypeError` or `AttributeError`.
"""

import sqlite3
from pathlib import Path

import pytest

from companion.journal import DamagedGame, History, Journal
from tests.journal.helpers import example, play_into

SPOILED = {
    "header a list": ("games", "header", "[]"),
    "header a number": ("games", "header", 5),
    "header a JSON string": ("games", "header", '"classic"'),
    "colours a list": ("games", "colours", "[]"),
    "colours not names": ("games", "colours", '{"red": 1}'),
    "start time a number": ("games", "started_at", 5),
    "colours missing a player": ("games", "colours", '{"red": "red"}'),
    "a colour not of the kit": (
        "games",
        "colours",
        '{"red": "mauve", "blue": "blue", "green": "green", "yellow": "yellow"}',
    ),
    "a colour twice": (
        "games",
        "colours",
        '{"red": "red", "blue": "red", "green": "green", "yellow": "yellow"}',
    ),
}


@pytest.mark.parametrize(("table", "column", "value"), SPOILED.values(), ids=SPOILED.keys())
def test_a_value_of_the_wrong_shape_is_listed_as_damage_and_recovered(
    tmp_path: Path, table: str, column: str, value: object
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"), 2, images=False)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(f"UPDATE {table} SET {column} = ?", (value,))
    conn.close()
    with Journal(path) as journal:
        (listed,) = History(journal).games()
        assert isinstance(listed, DamagedGame) and "\n" not in listed.damage
    journal, message = Journal.open_or_recover(path)
    journal.close()
    assert message is not None and list(tmp_path.glob("*corrupt*"))
    journal, again = Journal.open_or_recover(path)
    journal.close()
    assert again is None, "what recovery saved must open as it is"
