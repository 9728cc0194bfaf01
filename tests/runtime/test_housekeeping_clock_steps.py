"""A clock that steps prunes nothing early: pictures age on the journal's own time,
which follows the machine's boot clock, so a Pi's clock put right (or set years
ahead, or behind) neither prunes the last days' games nor keeps pictures for ever."""

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.journal import History, Journal
from companion.journal.clock import BootTime, TableClock
from companion.runtime.housekeeping import PRUNE_EVERY_SECONDS, Housekeeper, Retention
from companion.session.states import Phase
from tests.journal.helpers import Calendar, example, play_into

REAL = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)
"""The true time when the game of each test is played."""
KEEP = 90
PLENTY = 10**12


@dataclass
class Machine:
    """A Raspberry Pi's two clocks in a test: the wall clock, which anybody (or the
    network) may set, and the boot clock, which only runs."""

    wall: Calendar = field(default_factory=lambda: Calendar(REAL))
    boot: str = "boot 1"
    seconds: float = 30.0

    def steady(self) -> BootTime:
        return BootTime(self.boot, self.seconds)

    def clock(self) -> TableClock:
        return TableClock(wall=self.wall, steady=self.steady)

    def wait(self, time: timedelta) -> None:
        """Time passes, on both clocks."""
        self.wall.now += time
        self.seconds += time.total_seconds()

    def restart(self, off: timedelta, wall: datetime | None = None) -> None:
        """Switched off for `off`, then on again: a new boot, its clock where it starts."""
        self.boot += "+"
        self.seconds = 30.0
        self.wall.now = wall if wall is not None else self.wall.now + off


def with_pictures(journal: Journal) -> list[int]:
    history = History(journal)
    return [
        game.id
        for game in reversed(history.games())
        if any(r.has_frame for r in history.rounds(game.id))
    ]


def idle(journal: Journal, machine: Machine, seconds: float = 120.0) -> list[int]:
    """The housekeeping of an idle table for `seconds` (a tick every 2 s); the games pruned."""
    house = Housekeeper(journal, Retention(keep_days=KEEP), room=lambda: PLENTY)
    pruned = []
    for _ in range(int(seconds / PRUNE_EVERY_SECONDS)):
        game = house.tick(machine.seconds, Phase.WAITING)
        if game is not None:
            pruned.append(game)
        machine.wait(timedelta(seconds=PRUNE_EVERY_SECONDS))
    return pruned


def an_evening(journal: Journal, machine: Machine) -> int:
    """A finished game played with its pictures (15 rounds, three minutes each), and the
    next one begun; returns the finished game's number."""
    record = example("classic-1e-4-players")
    game = record.start
    game_id = journal.start_game(game, {p: p for p in game.seating.players})
    for reveal in record.reveals:
        machine.wait(timedelta(minutes=3))
        game = game.play(reveal)
        journal.commit_round(game_id, game, frame=b"frame", overlay=b"overlay")
    play_into(journal, example("party-1e-7-players"), 1)
    return game_id


@pytest.fixture
def machine() -> Machine:
    return Machine()


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "journal.sqlite"


def test_a_game_played_with_the_clock_200_days_behind_keeps_its_pictures_once_it_is_set(
    path: Path, machine: Machine
) -> None:
    machine.wall.now = REAL - timedelta(days=200)  # no real-time clock, no network yet
    with Journal(path, clock=machine.clock()) as journal:
        game = an_evening(journal, machine)
        machine.wall.now = REAL + timedelta(hours=1)  # the network sets the clock right
        assert idle(journal, machine) == []
        assert with_pictures(journal) == [game, game + 1]
    with Journal(path, clock=machine.clock()) as journal:  # a restart on the same boot
        assert idle(journal, machine) == []
    machine.restart(off=timedelta(hours=10))  # a night off, the clock right
    with Journal(path, clock=machine.clock()) as journal:
        assert idle(journal, machine) == []
        machine.wait(timedelta(days=KEEP - 1))
        assert idle(journal, machine) == []
        assert with_pictures(journal) == [game, game + 1]
        machine.wait(timedelta(days=1, hours=1))  # 90 days of play and more since the game
        assert idle(journal, machine) == [game]


def test_a_clock_stepped_200_days_ahead_after_a_game_prunes_nothing(
    path: Path, machine: Machine
) -> None:
    with Journal(path, clock=machine.clock()) as journal:
        first = an_evening(journal, machine)
        machine.wall.now += timedelta(days=200)
        assert idle(journal, machine) == []
        second = an_evening(journal, machine)  # played under the wrong clock
        assert idle(journal, machine) == []
        assert with_pictures(journal) == [first, first + 1, second, second + 1]
    machine.restart(off=timedelta(hours=12))  # still 200 days ahead
    with Journal(path, clock=machine.clock()) as journal:
        assert idle(journal, machine) == []
        machine.wait(timedelta(days=KEEP + 1))
        assert idle(journal, machine) == [first, first + 1, second]


def test_a_clock_set_far_ahead_and_back_again_prunes_nothing_early_or_never(
    path: Path, machine: Machine
) -> None:
    with Journal(path, clock=machine.clock()) as journal:
        before = an_evening(journal, machine)
        machine.wall.now = datetime(2099, 1, 1, tzinfo=UTC)  # a careless hand
        during = an_evening(journal, machine)
        assert idle(journal, machine) == []
        machine.wall.now = REAL + timedelta(days=1)  # put back
        after = an_evening(journal, machine)
        assert idle(journal, machine) == []
        assert with_pictures(journal) == [before, before + 1, during, during + 1, after, after + 1]
        machine.wait(timedelta(days=KEEP + 1))  # then all but the game being played go
        assert idle(journal, machine) == [before, before + 1, during, during + 1, after]


def test_a_machine_started_with_its_clock_months_ahead_counts_a_day_at_most(
    path: Path, machine: Machine
) -> None:
    with Journal(path, clock=machine.clock()) as journal:
        game = an_evening(journal, machine)
        left_at = journal.table_now()
    machine.restart(off=timedelta(hours=9), wall=REAL + timedelta(days=300))
    with Journal(path, clock=machine.clock()) as journal:
        assert journal.table_now() - left_at == timedelta(days=1)
        assert idle(journal, machine) == []
        assert with_pictures(journal) == [game, game + 1]
        left_at = journal.table_now()
    machine.restart(off=timedelta(hours=9))
    with Journal(path, clock=machine.clock()) as journal:  # a night off counts whole
        assert journal.table_now() - left_at == timedelta(hours=9)


def test_short_of_room_the_oldest_pictures_go_whatever_any_clock_says(
    path: Path, machine: Machine
) -> None:
    machine.wall.now = datetime(1970, 1, 1, tzinfo=UTC)
    with Journal(path, clock=machine.clock()) as journal:
        game = an_evening(journal, machine)
        machine.wall.now = REAL
        house = Housekeeper(journal, Retention(keep_days=KEEP), room=lambda: 0)
        assert house.tick(machine.seconds, Phase.PROPOSAL) == game


def test_a_damaged_journal_salvaged_keeps_its_time_and_its_games_pictures(
    path: Path, machine: Machine
) -> None:
    machine.wall.now = REAL - timedelta(days=200)
    with Journal(path, clock=machine.clock()) as journal:
        game = an_evening(journal, machine)
    machine.wall.now = REAL  # set right while the table was stopped
    conn = sqlite3.connect(path)  # the game being played damaged: the start salvages
    with conn:
        conn.execute("UPDATE rounds SET reveal = '{' WHERE game_id = ?", (game + 1,))
    conn.close()
    journal, recovered = Journal.open_or_recover(path, clock=machine.clock())
    with journal:
        assert recovered is not None and "Saved 2 games" in recovered
        assert idle(journal, machine) == []
        assert with_pictures(journal) == [game]
        machine.wait(timedelta(days=KEEP + 1))
        assert idle(journal, machine) == [game]
