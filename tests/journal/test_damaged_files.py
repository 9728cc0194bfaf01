"""Damaged journals are found on opening, kept aside, and salvaged as far as they replay."""

import os
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.errors import (
    JournalCorruptError,
    NotAJournalError,
    UnreadableFileError,
    UnwritableFileError,
)
from companion.gamefile import GameRecord
from companion.journal import GameStatus, History, Journal, RoundImages
from companion.journal.file import JournalFile, check_whole, suspect_path
from companion.journal.recovery import move_aside
from companion.journal.schema import SCHEMA_VERSION
from tests.journal.helpers import colours, example, frame_of, play_into, spoil_party_round_5

MOMENT = datetime(2026, 11, 21, 21, 5, 9, tzinfo=UTC)
ASIDE = "journal.sqlite.corrupt-20261121T210509Z"


def clock() -> datetime:
    return MOMENT


def real_journal(path: Path) -> None:
    """A finished party game (round 5 made illegal behind the journal's back) and a
    classic game being played, whose last round carries a 300 KB frame at the file's end."""
    with Journal(path) as journal:
        play_into(journal, example("party-1e-7-players"))
    spoil_party_round_5(path)
    record = example("classic-1e-4-players")
    with Journal(path) as journal:
        game_id, game = play_into(journal, record, 3)
        big = random.Random(4).randbytes(300_000)
        journal.commit_round(game_id, game.play(record.reveals[3]), frame=big)
    assert not Path(f"{path}-wal").exists()


def test_random_bytes_are_refused_naming_the_file_and_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(random.Random(1).randbytes(8192))
    with pytest.raises(JournalCorruptError) as caught:
        Journal(path)
    assert str(caught.value) == (
        f"{path}: the journal is damaged (file is not a database while opening it); "
        "`companion play` keeps it as NAME.corrupt-<time> and saves every round that can "
        "still be read into a fresh journal"
    )


def test_a_truncated_copy_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    real_journal(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(JournalCorruptError, match="the journal is damaged"):
        Journal(path)


def test_a_damaged_page_of_rounds_is_found_when_read_and_by_the_whole_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    real_journal(path)
    conn = sqlite3.connect(path)
    (root,) = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'rounds'").fetchone()
    (size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(random.Random(2).randbytes(size))
    with JournalFile(path) as reader:
        with pytest.raises(JournalCorruptError, match="the journal is damaged"):
            History(reader).games()
        with (
            pytest.raises(JournalCorruptError, match="the journal is damaged"),
            reader.transaction("checking it whole") as conn,
        ):
            check_whole(conn, path)


def test_a_damaged_page_of_games_is_found_on_opening(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    real_journal(path)
    conn = sqlite3.connect(path)
    (root,) = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'games'").fetchone()
    (size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(random.Random(2).randbytes(size))
    with pytest.raises(JournalCorruptError, match="the journal is damaged"):
        Journal(path)


def test_recovery_keeps_the_bad_file_and_saves_every_round_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    real_journal(path)
    data = path.read_bytes()
    truncated = data[: len(data) - 100_000]
    path.write_bytes(truncated)
    journal, message = Journal.open_or_recover(path, clock=clock)
    with journal:
        assert message == (
            f"The journal journal.sqlite could not be opened; it is kept as {ASIDE}. "
            "Saved 2 games with 8 rounds into a new journal; anything after them was lost."
        )
        assert (tmp_path / ASIDE).read_bytes() == truncated
        party, classic = journal.load(1), journal.load(2)
        party_record = example("party-1e-7-players")
        assert party.game == GameRecord(party_record.start, party_record.reveals[:4]).play()
        assert party.status is GameStatus.ABANDONED
        assert party.colours == colours(party.game)
        assert classic.status is GameStatus.PLAYING
        assert len(classic.game.played) == 4
        assert History(journal).images(2, 3) == RoundImages(frame_of(3), frame_of(-3, 500))
        assert History(journal).images(2, 4) == RoundImages(None, None)
        resumed = journal.resume()
        assert resumed is not None
        assert resumed.id == 2
    with Journal(path) as reopened:
        assert [g.id for g in History(reopened).games()] == [2, 1]


def test_recovery_from_random_bytes_starts_a_fresh_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(random.Random(3).randbytes(10_000))
    journal, message = Journal.open_or_recover(path, clock=clock)
    with journal:
        assert History(journal).games() == ()
    assert message == (
        f"The journal journal.sqlite could not be opened; it is kept as {ASIDE}. "
        "Nothing could be saved from it; a new journal was started."
    )
    assert (tmp_path / ASIDE).read_bytes() == random.Random(3).randbytes(10_000)


def test_the_wal_files_move_aside_with_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    for suffix, content in (("", b"db"), ("-wal", b"wal"), ("-shm", b"shm")):
        Path(f"{path}{suffix}").write_bytes(content)
    aside = move_aside(path, MOMENT)
    assert aside == tmp_path / ASIDE
    assert sorted(p.name for p in tmp_path.iterdir()) == [ASIDE, f"{ASIDE}-shm", f"{ASIDE}-wal"]
    assert Path(f"{aside}-wal").read_bytes() == b"wal"


@pytest.mark.parametrize("keep", [0.2, 0.4, 0.6, 0.8, 0.95])
def test_recovery_from_any_truncation_never_crashes(tmp_path: Path, keep: float) -> None:
    path = tmp_path / "journal.sqlite"
    real_journal(path)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    journal, message = Journal.open_or_recover(path, clock=clock)
    with journal:
        assert message is not None
        for summary in History(journal).games():
            stored = journal.load(summary.id)
            assert len(stored.game.played) == summary.rounds
        assert len([g for g in History(journal).games() if g.status is GameStatus.PLAYING]) <= 1


def test_a_second_recovery_in_the_same_second_gets_its_own_name(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    for _ in range(2):
        path.write_bytes(b"garbage" * 100)
        journal, _ = Journal.open_or_recover(path, clock=clock)
        journal.close()
    assert (tmp_path / ASIDE).exists()
    assert (tmp_path / f"{ASIDE}-2").exists()


def test_a_sound_journal_is_opened_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    real_journal(path)
    journal, message = Journal.open_or_recover(path, clock=clock)
    with journal:
        assert message is None
        assert len(History(journal).games()) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite", "journal.sqlite.lock"]


def test_another_sqlite_database_is_not_taken_for_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(NotAJournalError) as caught:
        Journal(path)
    assert str(caught.value) == (
        f"{path} is not a companion journal (another program's database (tables recipes)); "
        "give another journal path"
    )


def test_a_journal_from_a_newer_companion_is_not_written_to(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(NotAJournalError, match="written by a newer companion"):
        Journal(path)
    with pytest.raises(NotAJournalError, match="written by a newer companion"):
        Journal.open_or_recover(path)
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "journal.sqlite",
        "journal.sqlite.lock",
    ]


def test_a_journal_with_a_table_missing_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE corrections")
    conn.close()
    with pytest.raises(JournalCorruptError, match="table 'corrections' is missing"):
        Journal(path)


def test_no_journal_where_none_can_be_written(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    with pytest.raises(UnwritableFileError, match="cannot make the journal's folder"):
        Journal(tmp_path / "a-file" / "journal.sqlite")
    with pytest.raises(UnwritableFileError, match=f"{tmp_path}: cannot use the journal"):
        Journal(tmp_path)


def test_a_missing_journal_is_not_created_when_only_reading(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match="no journal here"):
        Journal(tmp_path / "journal.sqlite", create=False)
    assert not os.listdir(tmp_path)


def test_a_salvaged_journal_keeps_no_damaged_picture_and_keeps_pruned_and_imported_marks(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"))
        play_into(journal, example("party-1e-7-players"))
        assert journal.prune_pictures(datetime.now(UTC) + timedelta(days=1)) == 1
        teams = example("teams-8-players")
        played = teams.start
        for reveal in teams.reveals:
            played = played.play(reveal)
        assert journal.import_game(played, colours(played), datetime.now(UTC), "ab12") == 3
        play_into(journal, example("odyssey-8-players"), 3)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE round_images SET frame = ? WHERE game_id = 2 AND number = 2", (b"x",))
    conn.execute("UPDATE rounds SET reveal = '{\"cards\":' WHERE game_id = 4 AND number = 3")
    conn.commit()
    conn.close()
    journal, message = Journal.open_or_recover(path)
    with journal:
        assert message is not None and "Saved 4 games" in message
        history = History(journal)
        assert all(r.pruned and not r.has_frame for r in history.rounds(1))
        damaged = history.images(2, 2)
        assert (damaged.frame, damaged.damaged, damaged.overlay is not None) == (None, (), True)
        assert history.images(2, 3).frame == frame_of(3)
        assert journal.import_game(played, colours(played), datetime.now(UTC), "ab12") is None


def test_damage_met_in_play_makes_the_next_start_check_every_page_and_salvage(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    real_journal(path)
    conn = sqlite3.connect(path)
    (root,) = conn.execute(
        "SELECT rootpage FROM sqlite_schema WHERE name = 'round_images'"
    ).fetchone()
    (size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(random.Random(3).randbytes(size))
    journal, message = Journal.open_or_recover(path)
    with journal:
        assert message is None  # the start's checks do not read the pictures
        with pytest.raises(JournalCorruptError):
            History(journal).images(1, 1)
    assert suspect_path(path).exists()
    journal, message = Journal.open_or_recover(path)
    with journal:
        assert message is not None and "could not be opened" in message
        assert History(journal).games()
    assert not suspect_path(path).exists()
