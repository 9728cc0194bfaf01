"""Pruning old pictures while the table is idle: when, which games, and never a stop."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.errors import SettingError
from companion.journal import History, Journal, lines
from companion.runtime.housekeeping import (
    MEND_GAMES,
    MOST_DAYS,
    PRUNE_EVERY_SECONDS,
    REST_SECONDS,
    Housekeeper,
    Retention,
    check_keep_days,
)
from companion.session.states import Phase
from tests.journal.helpers import Calendar, example, play_into

START = datetime(2026, 1, 1, tzinfo=UTC)
TODAY = START + timedelta(days=200)
PLENTY = 10**12


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    """Games 1-4 finished on days 0, 10, 20, 30 (200 days ago and less), with pictures;
    game 5 in progress today."""
    calendar = Calendar(START)
    with Journal(tmp_path / "journal.sqlite", clock=calendar) as journal:
        for _ in range(4):
            play_into(journal, example("classic-1e-4-players"))
            calendar.now += timedelta(days=10)
        calendar.now = TODAY
        play_into(journal, example("odyssey-8-players"), 3)
        yield journal


def with_pictures(journal: Journal) -> list[int]:
    history = History(journal)
    return [
        game.id
        for game in reversed(history.games())
        if any(r.has_frame for r in history.rounds(game.id))
    ]


def keeper(journal: Journal, days: int, room: int = PLENTY) -> Housekeeper:
    return Housekeeper(journal, Retention(keep_days=days), wall=lambda: TODAY, room=lambda: room)


def test_pictures_older_than_the_time_kept_go_one_game_per_tick_oldest_first(
    journal: Journal,
) -> None:
    house = keeper(journal, days=175)
    assert house.tick(0.0, Phase.WAITING) == 1
    assert house.tick(0.1, Phase.WAITING) is None
    assert house.tick(PRUNE_EVERY_SECONDS, Phase.WAITING) == 2
    assert house.tick(2 * PRUNE_EVERY_SECONDS, Phase.WAITING) == 3
    assert house.tick(3 * PRUNE_EVERY_SECONDS, Phase.WAITING) is None
    assert with_pictures(journal) == [4, 5]
    pruned = History(journal).rounds(1)
    assert all(r.pruned and not r.has_frame for r in pruned)
    assert History(journal).game(1).rounds == 15


def test_nothing_is_pruned_while_players_wait_on_the_table(journal: Journal) -> None:
    house = keeper(journal, days=0)
    for phase in (Phase.PROPOSAL, Phase.EDITING, Phase.ABANDONING):
        assert house.tick(0.0, phase) is None
    assert with_pictures(journal) == [1, 2, 3, 4, 5]


def test_once_nothing_is_left_to_do_it_looks_again_only_after_a_rest(
    journal: Journal,
) -> None:
    wall = Calendar(TODAY - timedelta(days=30))  # game 1 is 170 days old: kept
    house = Housekeeper(journal, Retention(keep_days=175), wall=wall, room=lambda: PLENTY)
    looks = -(-5 // MEND_GAMES) + 1  # the five games' lines looked at, then nothing to do
    for n in range(looks):
        assert house.tick(n * PRUNE_EVERY_SECONDS, Phase.CLEARING) is None
    rested = (looks - 1) * PRUNE_EVERY_SECONDS
    wall.now = TODAY  # game 1 is 200 days old: its pictures may go
    assert house.tick(rested + REST_SECONDS - 1, Phase.CLEARING) is None
    assert with_pictures(journal) == [1, 2, 3, 4, 5]
    assert house.tick(rested + REST_SECONDS, Phase.CLEARING) == 1


def test_lines_of_the_list_missing_or_stale_are_made_anew_while_idle(journal: Journal) -> None:
    listed = History(journal).games()
    with journal.transaction("as an older companion left it", write=True) as conn:
        conn.execute("DELETE FROM game_lines WHERE game_id IN (1, 3)")
        conn.execute("UPDATE game_lines SET digest = x'00' WHERE game_id = 5")
    house = keeper(journal, days=365)
    for n in range(-(-5 // MEND_GAMES) + 1):
        house.tick(n * PRUNE_EVERY_SECONDS, Phase.WAITING)
    with journal.transaction("reading the lines") as conn:
        assert all(lines.is_current(conn, game_id) for game_id in range(1, 6))
    assert History(journal).games() == listed


def test_short_of_room_the_oldest_pictures_go_whatever_their_age(journal: Journal) -> None:
    house = keeper(journal, days=365, room=0)
    assert house.tick(0.0, Phase.WINNER) == 1
    assert with_pictures(journal) == [2, 3, 4, 5]


def test_short_of_room_pictures_go_even_while_a_round_waits_at_its_proposal(
    journal: Journal,
) -> None:
    house = keeper(journal, days=365, room=0)
    assert house.tick(0.0, Phase.PROPOSAL) == 1


def test_pictures_kept_for_a_century_are_never_pruned_and_never_stop_the_table(
    journal: Journal,
) -> None:
    house = keeper(journal, days=MOST_DAYS)
    assert house.tick(0.0, Phase.WAITING) is None
    assert with_pictures(journal) == [1, 2, 3, 4, 5]


def test_the_game_in_progress_keeps_its_pictures(journal: Journal) -> None:
    house = keeper(journal, days=0, room=0)
    pruned = [house.tick(n * PRUNE_EVERY_SECONDS, Phase.WAITING) for n in range(6)]
    assert pruned == [1, 2, 3, 4, None, None]
    assert with_pictures(journal) == [5]


def test_a_journal_that_fails_never_stops_the_table(journal: Journal) -> None:
    house = keeper(journal, days=0)
    journal.close()
    assert house.tick(0.0, Phase.WAITING) is None


@pytest.mark.parametrize("days", [-1, MOST_DAYS + 1, 10**9])
def test_days_outside_zero_to_a_century_are_refused(days: int) -> None:
    assert check_keep_days(0) == 0
    with pytest.raises(SettingError, match=f"not {days}"):
        check_keep_days(days)
