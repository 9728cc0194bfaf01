"""A full disk, on a real small filesystem: rounds before pictures, nothing half written,
and the journal takes pictures again once there is room, by itself.

Each test mounts a tmpfs of a few MB (root only: skipped elsewhere, run in CI, which
runs as root) and fills it with a filler file. These are not hardware tests.
"""

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from companion.errors import DiskFullError
from companion.journal import History, Journal, RoundImages
from companion.rules import Game
from tests.journal.helpers import (
    Calendar,
    colours,
    example,
    picture,
    picture_problems,
    play_with_pictures,
    rows,
)
from tests.small_disk import SmallDisk, small_disk

BIG = 200_000
"""Bytes of a camera frame far bigger than the room left for it."""

RECORD = example("classic-1e-4-players")


@pytest.fixture
def mount(tmp_path: Path) -> Iterator[Callable[[str], SmallDisk]]:
    """Mount a tmpfs of the size given (as `mount -o size=` says it) under `tmp_path`;
    unmounted when the test ends."""
    with ExitStack() as stack:
        yield lambda size: stack.enter_context(small_disk(tmp_path / f"disk-{size}", size))


def next_round(game: Game) -> Game:
    return game.play(RECORD.reveals[len(game.played)])


def commit_big(journal: Journal, game_id: int, game: Game) -> bool:
    number = len(game.played)
    return journal.commit_round(
        game_id, game, frame=picture(game_id, number, BIG), overlay=picture(game_id, -number, 500)
    )


def test_a_round_whose_pictures_do_not_fit_is_stored_without_them_and_replays(
    mount: Callable[[str], SmallDisk],
) -> None:
    disk = mount("3m")
    path = disk.root / "journal.sqlite"
    with Journal(path) as journal:
        game_id, game = play_with_pictures(journal, RECORD, 2)
        disk.fill(leave=64_000)
        game = next_round(game)
        assert commit_big(journal, game_id, game) is False
        game = next_round(game)
        assert journal.commit_round(game_id, game) is False
        history = History(journal)
        rounds = history.rounds(game_id)
        images = history.images(game_id, 3)
    assert [(r.has_frame, r.pruned) for r in rounds] == [(True, False)] * 2 + [(False, False)] * 2
    assert images == RoundImages(None, None)
    journal, message = Journal.open_or_recover(path)
    with journal:
        assert message is None
        resumed = journal.resume()
    assert resumed is not None and resumed.game == game
    assert picture_problems(path) == ["game 1: 2 of 4 rounds' pictures kept"]


def test_with_no_room_at_all_a_round_is_refused_whole_and_the_journal_keeps_the_rest(
    mount: Callable[[str], SmallDisk],
) -> None:
    disk = mount("3m")
    path = disk.root / "journal.sqlite"
    with Journal(path) as journal:
        game_id, game = play_with_pictures(journal, RECORD, 2)
        stored = rows(path, "SELECT * FROM rounds")
        disk.fill()
        with pytest.raises(DiskFullError, match="the disk is full while storing round 3 of game 1"):
            commit_big(journal, game_id, next_round(game))
        with pytest.raises(DiskFullError):
            journal.commit_round(game_id, next_round(game))
        assert journal.load(game_id).game == game
    journal, message = Journal.open_or_recover(path)  # still full
    with journal:
        assert message is None
        resumed = journal.resume()
        images = History(journal).images(game_id, 2)
    assert resumed is not None and resumed.game == game
    assert images == RoundImages(picture(game_id, 2, 2_000), picture(game_id, -2, 500))
    assert rows(path, "SELECT * FROM rounds") == stored
    assert rows(path, "PRAGMA quick_check") == [("ok",)]
    assert sorted(p.name for p in disk.root.iterdir() if "corrupt" in p.name) == []


def test_once_room_is_freed_the_next_round_keeps_its_pictures(
    mount: Callable[[str], SmallDisk],
) -> None:
    disk = mount("3m")
    path = disk.root / "journal.sqlite"
    with Journal(path) as journal:
        game_id, game = play_with_pictures(journal, RECORD, 2)
        disk.fill()
        with pytest.raises(DiskFullError):
            commit_big(journal, game_id, next_round(game))
        disk.filler.unlink()
        disk.fill(leave=64_000)
        game = next_round(game)
        assert commit_big(journal, game_id, game) is False
        disk.filler.unlink()
        game = next_round(game)
        assert commit_big(journal, game_id, game) is True
        history = History(journal)
        rounds = history.rounds(game_id)
        images = history.images(game_id, 4)
    assert [r.has_frame for r in rounds] == [True, True, False, True]
    assert images == RoundImages(picture(game_id, 4, BIG), picture(game_id, -4, 500))


def abandoned_with_pictures(path: Path, calendar: Calendar, rounds: int, size: int) -> int:
    """A game of `rounds` rounds with pictures of `size` bytes, given up a day ago; the
    journal closed, so that everything is in the file itself."""
    with Journal(path, clock=calendar) as journal:
        game_id, _ = play_with_pictures(journal, RECORD, rounds, size=size)
        journal.abandon_game(game_id)
    calendar.next_day()
    return game_id


def test_pruning_needs_little_room_on_a_nearly_full_disk(
    mount: Callable[[str], SmallDisk],
) -> None:
    """SQLite as the Pi has it overwrites every freed page with zeros, which would write
    the pruned pictures' size again: the journal asks it not to."""
    disk = mount("3m")
    path = disk.root / "journal.sqlite"
    calendar = Calendar()
    old = abandoned_with_pictures(path, calendar, 4, 150_000)
    with Journal(path, clock=calendar) as journal:
        game_id = journal.start_game(RECORD.start, colours(RECORD.start))
        disk.fill(leave=64_000)
        assert commit_big(journal, game_id, next_round(RECORD.start)) is False
        assert journal.prune_pictures(calendar.now) == old
        assert all(r.pruned for r in History(journal).rounds(old))
        assert journal.room_inside() > 4 * 150_000


def wal_cycle_bytes(path: Path, round_bytes: int) -> int:
    """The most a journal's WAL grows to while it is written back every
    `wal_autocheckpoint` pages (SQLite's 1000 by default, about 4 MB), with rounds of
    `round_bytes` each."""
    conn = sqlite3.connect(path)
    try:
        (pages,) = conn.execute("PRAGMA wal_autocheckpoint").fetchone()
        (page,) = conn.execute("PRAGMA page_size").fetchone()
    finally:
        conn.close()
    frame = int(page) + 24
    return (int(pages) + round_bytes // int(page) + 8) * frame + 32


def test_after_pruning_more_pictures_fit_than_the_disk_has_room_for(
    mount: Callable[[str], SmallDisk],
) -> None:
    """The pages pruning frees inside the file take the next pictures: the file does not
    grow, and the disk only needs room for the WAL between two write-backs."""
    disk = mount("12m")
    path = disk.root / "journal.sqlite"
    calendar = Calendar()
    size = 300_000
    per_round = size + size // 4
    old = abandoned_with_pictures(path, calendar, 14, size)
    full = path.stat().st_size
    room = wal_cycle_bytes(path, per_round) + 32_768 + 256_000  # the WAL, its index, spare
    with Journal(path, clock=calendar) as journal:
        disk.fill(leave=room)
        assert journal.prune_pictures(calendar.now) == old
        game_id, game = play_with_pictures(journal, RECORD, 14, size=size)
        assert 14 * per_round > room
        assert journal.load(game_id).game == game
    assert path.stat().st_size <= full + 8 * 4096  # the new rounds' text at most
    assert disk.filler.is_file()
    assert picture_problems(path) == []


def test_the_tests_filler_leaves_what_it_is_asked(mount: Callable[[str], SmallDisk]) -> None:
    disk = mount("3m")
    disk.fill(leave=64 * 1024)
    assert disk.free() == 64 * 1024
    disk.fill()
    assert disk.free() == 0
