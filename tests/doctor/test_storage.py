"""The journal and disk space checks: what the journal and its archive hold, checked
whole, damage left as it is, and the days of play left at the recent rate."""

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

import pytest

from companion.doctor import storage
from companion.doctor.findings import Status
from companion.doctor.storage import JournalStats, disk_check, journal_check
from companion.journal import Journal, archive_path
from companion.journal.archive import archive_games
from companion.journal.usage import Use
from tests.journal.helpers import example, play_into, spoil_party_round_5

GB = 1_000_000_000
MB = 1_000_000
YEARS_AGO = datetime(2020, 1, 4, 20, 0, tzinfo=UTC)


def test_no_journal_yet_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "state" / "journal.sqlite"
    finding, stats = journal_check(path)
    assert finding.status is Status.OK
    assert finding.detail == f"no games yet: `companion play` starts the journal at {path}"
    assert stats == JournalStats(0, 0)
    assert not path.exists()


def test_a_journal_tells_its_games_rounds_size_and_the_game_in_progress(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    finished = example("classic-1e-4-players")
    with Journal(path) as journal:
        play_into(journal, finished)
        play_into(journal, example("odyssey-8-players"), 3)
    before = path.read_bytes()
    finding, stats = journal_check(path)
    rounds = len(finished.reveals) + 3
    assert finding.status is Status.OK
    assert finding.detail.startswith(f"{path}: two games, {rounds} rounds, ")
    assert finding.detail.endswith(
        "; game 2 in progress (odyssey, eight players, three rounds); "
        "checked whole, every game replays"
    )
    assert stats is not None
    assert (stats.size_bytes, stats.rounds) == (path.stat().st_size, rounds)
    assert path.read_bytes() == before


def test_damage_only_the_whole_check_reads_fails(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"))
    conn = sqlite3.connect(path)
    query = "SELECT rootpage FROM sqlite_schema WHERE name = 'corrections_of_round'"
    (root,) = conn.execute(query).fetchone()
    (size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(random.Random(3).randbytes(size))
    with Journal(path):  # the start checks only what every start reads
        pass
    finding, stats = journal_check(path)
    assert finding.status is Status.FAIL
    assert finding.detail.startswith(f"{path}: the journal is damaged (quick_check: ")
    assert stats is None


def test_the_archive_s_games_are_counted_and_checked_too(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path, clock=lambda: YEARS_AGO) as journal:
        play_into(journal, example("classic-1e-4-players"))
        play_into(journal, example("odyssey-8-players"))
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        play_into(journal, example("party-1e-7-players"), 2)
        assert archive_games(journal, archive, datetime.now(UTC)) == 2
    finding, stats = journal_check(path)
    assert finding.status is Status.OK
    assert finding.detail.startswith(f"{path}: three games, 26 rounds, ")
    assert "; two games archived in journal.archive.sqlite (" in finding.detail
    assert stats is not None and stats.rounds == 26


def test_a_damaged_archive_fails_with_its_own_fix(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"), 2)
    archive_path(path).write_bytes(random.Random(4).randbytes(8192))
    finding, _ = journal_check(path)
    assert finding.status is Status.FAIL
    assert f"; the archive: {archive_path(path)}: the journal is damaged (" in finding.detail
    assert finding.fix.startswith("only `companion history` and the phone page read the archive")


def test_a_damaged_journal_fails_and_is_left_exactly_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    damage = random.Random(1).randbytes(8192)
    path.write_bytes(damage)
    finding, stats = journal_check(path)
    assert finding.status is Status.FAIL
    assert finding.detail == (
        f"{path}: the journal is damaged (file is not a database while opening it)"
    )
    assert finding.fix == (
        "`companion play` moves it aside and saves every readable round at its next start"
    )
    assert stats is None
    assert path.read_bytes() == damage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite"]


def test_a_round_that_no_longer_replays_is_damage_too(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("party-1e-7-players"))
    spoil_party_round_5(path)
    finding, _ = journal_check(path)
    assert finding.status is Status.FAIL
    assert "game 1: round 5 is damaged: the trap is on slot 95" in finding.detail


def test_an_empty_file_is_left_for_the_game_to_fill(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.touch()
    finding, _ = journal_check(path)
    assert finding.status is Status.OK
    assert finding.detail == f"{path} is empty: `companion play` makes it a journal"
    assert path.read_bytes() == b""


def test_a_folder_this_user_cannot_write_fails_naming_the_owner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite"
    monkeypatch.setattr(storage.os, "access", lambda *_: False)
    monkeypatch.setattr(storage, "user_name", lambda: "alice")
    monkeypatch.setattr(storage, "owner_of", lambda _: "dixit")
    finding, _ = journal_check(path)
    assert finding.status is Status.FAIL
    assert finding.detail.endswith(
        f"; this user (alice) cannot write in {tmp_path} (owned by dixit)"
    )
    assert finding.fix == (
        "if the companion runs as dixit, run the doctor as dixit "
        "(`sudo -u dixit companion doctor`); if not, give it to the companion's user: "
        f"`sudo chown -R USER {tmp_path}`"
    )


def test_a_folder_of_ones_own_without_write_permission_says_chmod(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.os, "access", lambda *_: False)
    monkeypatch.setattr(storage, "user_name", lambda: "dixit")
    monkeypatch.setattr(storage, "owner_of", lambda _: "dixit")
    finding, _ = journal_check(tmp_path / "journal.sqlite")
    assert finding.fix == f"let dixit write there: `chmod u+rw {tmp_path}`"


class Usage(NamedTuple):
    total: int
    used: int
    free: int


def free_space(monkeypatch: pytest.MonkeyPatch, free: int) -> None:
    monkeypatch.setattr(
        storage.shutil, "disk_usage", lambda _: Usage(32 * GB, 32 * GB - free, free)
    )


def used(rounds: int, days: int, round_bytes: int, inside: int = 0) -> JournalStats:
    """A journal whose last 30 days held `rounds` rounds on `days` days of play."""
    use = Use(YEARS_AGO, rounds, days, rounds * (round_bytes - 1_000), rounds * 1_000, inside)
    return JournalStats(500 * MB, 10_000, use)


def test_the_room_left_is_told_in_days_of_play_at_the_recent_rate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    free_space(monkeypatch, 600 * MB)
    finding = disk_check(tmp_path / "journal.sqlite", used(300, 10, 120_000, inside=48 * MB))
    assert finding.status is Status.OK
    assert finding.detail == (
        f"600 MB free of 32.0 GB at {tmp_path} and 48 MB free inside the journal: about 180 "
        "days of play left at 30 rounds a day of play, 120 kB a round (the last 30 days: "
        "300 rounds on ten days of play)"
    )


@pytest.mark.parametrize(
    ("free", "status"),
    [(100 * GB, Status.OK), (2 * GB, Status.WARN), (150 * MB, Status.FAIL)],
)
def test_few_days_of_play_left_warn_and_a_few_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, free: int, status: Status
) -> None:
    free_space(monkeypatch, free)
    finding = disk_check(tmp_path / "journal.sqlite", used(2_000, 10, 500_000))  # 100 MB a day
    assert finding.status is status
    if status is not Status.OK:
        assert "companion history N --export FILE" in finding.fix


def test_under_three_days_of_play_fails_even_with_a_gigabyte_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    free_space(monkeypatch, 1 * GB)
    finding = disk_check(tmp_path / "journal.sqlite", used(4_000, 10, 1_000_000))  # 400 MB a day
    assert finding.status is Status.FAIL
    assert "about 2 days of play left at 400 rounds a day of play" in finding.detail


def test_one_day_and_one_round_a_day_are_said_in_the_singular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    free_space(monkeypatch, 100 * MB)
    finding = disk_check(tmp_path / "journal.sqlite", used(30, 30, 100 * MB))  # 100 MB a day
    assert "about 1 day of play left at 1 round a day of play" in finding.detail


def test_plenty_of_space_is_ok_with_the_rounds_a_guess_leaves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    free_space(monkeypatch, 20 * GB)
    finding = disk_check(tmp_path / "journal.sqlite", JournalStats(0, 0))
    assert finding.status is Status.OK
    assert finding.detail == (
        f"20.0 GB free of 32.0 GB at {tmp_path}: room for about 100,000 rounds at 200 kB a "
        "round (a guess, with no rounds stored yet)"
    )


def test_without_recent_play_the_rounds_left_are_a_guess(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    free_space(monkeypatch, 20 * GB)
    finding = disk_check(tmp_path / "journal.sqlite", used(0, 0, 0, inside=2 * MB))
    assert finding.status is Status.OK
    assert finding.detail.endswith(
        "and 2.0 MB free inside the journal: room for about 100,010 rounds at 200 kB a round "
        "(a guess: no round was played in the last 30 days)"
    )


@pytest.mark.parametrize(
    ("free", "stats", "status"),
    [
        (900 * MB, JournalStats(0, 0), Status.WARN),
        (1500 * MB, JournalStats(0, 0), Status.OK),
        (1500 * MB, None, Status.OK),
        (150 * MB, JournalStats(0, 0), Status.FAIL),
    ],
)
def test_low_space_warns_and_nearly_full_fails_with_how_to_make_room(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    free: int,
    stats: JournalStats | None,
    status: Status,
) -> None:
    free_space(monkeypatch, free)
    finding = disk_check(tmp_path / "journal.sqlite", stats)
    assert finding.status is status
    if status is not Status.OK:
        assert "companion history N --export FILE" in finding.fix
        assert "bigger SD card" in finding.fix


def test_the_rate_is_measured_from_the_journal_s_last_30_days(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite"
    now = datetime(2026, 6, 30, 21, 0, tzinfo=UTC)
    with Journal(path, clock=lambda: now - timedelta(days=90)) as journal:
        play_into(journal, example("classic-1e-4-players"))
    with Journal(path, clock=lambda: now - timedelta(days=3)) as journal:
        play_into(journal, example("odyssey-8-players"))
    with Journal(path, clock=lambda: now) as journal:
        play_into(journal, example("party-1e-7-players"), 3)
    _, stats = journal_check(path, clock=lambda: now)
    assert stats is not None and stats.use is not None
    assert (stats.use.rounds, stats.use.days) == (9 + 3, 2)
    free_space(monkeypatch, 20 * GB)
    finding = disk_check(path, stats)
    assert "days of play left at 6 rounds a day of play" in finding.detail
    assert "(the last 30 days: twelve rounds on two days of play)" in finding.detail


def test_the_disk_of_a_state_folder_not_yet_made_is_the_one_it_will_be_made_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[Path] = []

    def usage(folder: Path) -> Usage:
        asked.append(folder)
        return Usage(32 * GB, 0, 32 * GB)

    monkeypatch.setattr(storage.shutil, "disk_usage", usage)
    disk_check(tmp_path / "state" / "deeper" / "journal.sqlite", None)
    assert asked == [tmp_path]
