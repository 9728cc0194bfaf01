"""The journal and disk space checks: what the journal holds, damage left as it is, room left."""

import random
from pathlib import Path
from typing import NamedTuple

import pytest

from companion.doctor import storage
from companion.doctor.findings import Status
from companion.doctor.storage import JournalStats, disk_check, journal_check
from companion.journal import Journal
from tests.journal.helpers import example, play_into, spoil_party_round_5

GB = 1_000_000_000
MB = 1_000_000


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
        "; game 2 in progress (odyssey, eight players, three rounds); every game replays"
    )
    assert stats == JournalStats(path.stat().st_size, rounds)
    assert path.read_bytes() == before


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


def test_plenty_of_space_is_ok_with_the_rounds_it_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    free_space(monkeypatch, 20 * GB)
    finding = disk_check(tmp_path / "journal.sqlite", JournalStats(0, 0))
    assert finding.status is Status.OK
    assert finding.detail == (
        f"20.0 GB free of 32.0 GB at {tmp_path}: room for about 20,000 rounds at 1.0 MB a "
        "round (a guess, with no rounds stored yet)"
    )


def test_rounds_left_are_counted_at_the_journals_own_size_per_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    free_space(monkeypatch, 20 * GB)
    finding = disk_check(tmp_path / "journal.sqlite", JournalStats(40 * MB, 100))
    assert "room for about 50,000 rounds at 400 kB a round (as measured)" in finding.detail


@pytest.mark.parametrize(
    ("free", "stats", "status"),
    [
        (900 * MB, JournalStats(0, 0), Status.WARN),
        (1500 * MB, JournalStats(0, 0), Status.WARN),
        (1500 * MB, JournalStats(10 * MB, 100), Status.OK),
        (150 * MB, JournalStats(10 * MB, 100), Status.FAIL),
    ],
)
def test_low_space_warns_and_nearly_full_fails_with_how_to_make_room(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    free: int,
    stats: JournalStats,
    status: Status,
) -> None:
    free_space(monkeypatch, free)
    finding = disk_check(tmp_path / "journal.sqlite", stats)
    assert finding.status is status
    if status is not Status.OK:
        assert "companion history N --export FILE" in finding.fix
        assert "bigger SD card" in finding.fix


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
