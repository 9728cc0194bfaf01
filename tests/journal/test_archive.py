"""The archive: old finished games moved whole into the file beside the journal, and read
back as if they had stayed; an archiving cut short between its two transactions
leaves games in both files, read once, and the next run finishes the move."""

import shutil
import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from companion.errors import JournalError, NotAJournalError
from companion.journal import (
    DamagedGame,
    GameSummary,
    Journal,
    RoundImages,
    archive_path,
    read_history,
)
from companion.journal.archive import archive_games
from companion.journal.schema import expected_columns
from companion.rules import Game, Reveal
from tests.journal.helpers import (
    Calendar,
    example,
    picture_problems,
    play_with_pictures,
    replayed,
    rows,
)

STEMS = ("classic-1e-4-players", "party-1e-7-players", "odyssey-8-players", "teams-8-players")

Snapshot = dict[str, list[tuple[object, ...]]]


def red_finds_the_storyteller(game: Game) -> Reveal:
    """Round 3 of the classic example as if red had voted for green's card (green tells):
    legal, and scored differently."""
    third = game.played[2].score.round.reveal
    return Reveal(third.cards, {**third.votes, "red": (third.slots_of("green")[0],)})


def a_season(path: Path, calendar: Calendar) -> datetime:
    """Six finished games a day apart (the first corrected, then pruned) and a seventh,
    finished too, the newest; returns a cut after all of them."""
    with Journal(path, clock=calendar) as journal:
        for day in range(7):
            game_id, game = play_with_pictures(journal, example(STEMS[day % 4]))
            if day == 0:
                journal.correct_round(game_id, 3, red_finds_the_storyteller(game))
            calendar.next_day()
        assert journal.prune_pictures(calendar.now) == 1
    return calendar.now


def snapshot(path: Path, ids: list[int]) -> Snapshot:
    """Every row of the games, table by table, as stored (corrections without their own
    number, which the archive gives anew)."""
    marks = ",".join("?" * len(ids))
    found: Snapshot = {}
    for table, columns in expected_columns().items():
        if table in ("setup", "clock"):  # the table's, not a game's
            continue
        kept = [c for c in columns if not (table == "corrections" and c == "id")]
        key = "id" if table == "games" else "game_id"
        found[table] = sorted(
            rows(path, f"SELECT {', '.join(kept)} FROM {table} WHERE {key} IN ({marks})", (*ids,)),
            key=repr,
        )
    return found


def read_back(path: Path) -> tuple[object, ...]:
    """What `companion history` shows of every game: the list, each game's rounds,
    pictures and export."""
    with read_history(path) as history:
        games = history.games()
        assert games == replayed(history)
        shown: list[object] = []
        for line in games:
            assert isinstance(line, GameSummary)
            shown += [replace(line, archived=False), history.rounds(line.id)]
            shown.append(history.export(line.id))
            shown += [history.images(line.id, n) for n in range(1, line.rounds + 1)]
        return tuple(shown)


def archived_ids(path: Path) -> list[int]:
    with read_history(path) as history:
        return [
            line.id for line in history.games() if isinstance(line, GameSummary) and line.archived
        ]


def totals_of(line: GameSummary | DamagedGame) -> dict[str, int]:
    assert isinstance(line, GameSummary), line
    return dict(line.totals)


def test_old_games_move_whole_and_read_back_as_before_the_newest_never(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    cut = a_season(path, Calendar())
    before = read_back(path)
    moved_rows = snapshot(path, list(range(1, 7)))
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        assert archive_games(journal, archive, cut) == 6
    assert snapshot(archive_path(path), list(range(1, 7))) == moved_rows
    assert snapshot(path, list(range(1, 7))) == {table: [] for table in moved_rows}
    assert rows(path, "SELECT id FROM games") == [(7,)]
    assert read_back(path) == before
    assert archived_ids(path) == [6, 5, 4, 3, 2, 1]
    assert picture_problems(path) == picture_problems(archive_path(path)) == []


def test_a_second_run_moves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    cut = a_season(path, Calendar())
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        assert archive_games(journal, archive, cut - timedelta(days=3)) == 4
        files = snapshot(path, list(range(1, 8))), snapshot(archive_path(path), list(range(1, 8)))
        assert archive_games(journal, archive, cut - timedelta(days=3)) == 0
    assert (
        snapshot(path, list(range(1, 8))),
        snapshot(archive_path(path), list(range(1, 8))),
    ) == files
    assert archived_ids(path) == [4, 3, 2, 1]


def test_a_game_in_both_files_is_read_once_from_the_journal_and_the_next_run_moves_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    calendar = Calendar()
    cut = a_season(path, calendar)
    before = read_back(path)
    copy = tmp_path / "copy" / "journal.sqlite"
    copy.parent.mkdir()
    shutil.copy(path, copy)
    with Journal(copy) as journal, Journal(archive_path(copy)) as archive:
        assert archive_games(journal, archive, cut) == 6
    shutil.move(archive_path(copy), archive_path(path))  # copied, not yet deleted
    assert read_back(path) == before
    assert archived_ids(path) == []
    with Journal(path, clock=calendar) as journal:  # the journal's copies change meanwhile
        assert journal.prune_pictures(cut) == 2
        fixed = journal.correct_round(5, 3, red_finds_the_storyteller(journal.load(5).game))
    with read_history(path) as history:
        assert [line.id for line in history.games()] == [7, 6, 5, 4, 3, 2, 1]
        assert history.games() == replayed(history)
        assert totals_of(history.game(5)) == dict(fixed.totals)
        assert history.images(2, 1) == RoundImages(None, None, pruned=True)
        assert all(r.pruned for r in history.rounds(2))
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        assert archive_games(journal, archive, cut) == 6
    assert archived_ids(path) == [6, 5, 4, 3, 2, 1]
    with read_history(path) as history:
        assert totals_of(history.game(5)) == dict(fixed.totals)
        assert history.images(2, 1) == RoundImages(None, None, pruned=True)
    assert rows(archive_path(path), "SELECT game_id FROM corrections ORDER BY 1") == [(1,), (5,)]
    assert picture_problems(archive_path(path)) == []


HOT_ROLLBACK_JOURNAL = bytes.fromhex(
    "d9d505f920a163d7000000000d31bba6000000000000020000001000"
).ljust(512, b"\0")
"""The rollback journal of a new file's switch to WAL mode, as a kill leaves it: its
header (magic, no page yet, a nonce, the file's size before: 0, sector and page size).
A reader cannot roll it back."""

UNMADE = ("an empty file", "an empty database", "a database and a hot rollback journal")


@pytest.mark.parametrize("left", UNMADE)
def test_an_archive_cut_short_as_it_was_made_is_read_as_none(tmp_path: Path, left: str) -> None:
    """The first archiving makes the archive: a kill before its tables are written leaves
    an empty file, or an empty database (its header written in rollback mode)."""
    path = tmp_path / "journal.sqlite"
    cut = a_season(path, Calendar())
    before = read_back(path)
    archive_path(path).touch()
    if left != "an empty file":
        conn = sqlite3.connect(archive_path(path))
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
    if left == "a database and a hot rollback journal":
        Path(f"{archive_path(path)}-journal").write_bytes(HOT_ROLLBACK_JOURNAL)
    assert read_back(path) == before
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        assert archive_games(journal, archive, cut) == 6
    assert read_back(path) == before
    assert archived_ids(path) == [6, 5, 4, 3, 2, 1]


def test_an_archive_that_is_not_a_journal_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    a_season(path, Calendar())
    conn = sqlite3.connect(archive_path(path))
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.close()
    with pytest.raises(NotAJournalError, match="another program's database"):
        read_back(path)


def test_archived_pictures_are_checked_against_their_sums(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    cut = a_season(path, Calendar())
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        archive_games(journal, archive, cut)
    conn = sqlite3.connect(archive_path(path))
    with conn:
        conn.execute("UPDATE round_images SET frame = substr(frame, 2) WHERE game_id = 3")
    conn.close()
    with read_history(path) as history:
        images = history.images(3, 1)
        sound = history.images(4, 1)
    assert (images.frame, images.damaged) == (None, ("frame",))
    assert images.overlay is not None
    assert sound.damaged == () and sound != RoundImages(None, None)


def test_a_journal_started_afresh_beside_an_archive_numbers_its_games_after_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    calendar = Calendar()
    cut = a_season(path, calendar)
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        assert archive_games(journal, archive, cut) == 6
    path.rename(tmp_path / "journal.sqlite.old")  # the café moves the journal aside
    with Journal(path, clock=calendar) as journal:
        game_id, _ = play_with_pictures(journal, example(STEMS[0]))
    assert game_id == 7
    with read_history(path) as history:
        assert [line.id for line in history.games()] == [7, 6, 5, 4, 3, 2, 1]


def test_archiving_over_another_game_of_the_same_number_is_refused_and_moves_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    calendar = Calendar()
    cut = a_season(path, calendar)
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        archive_games(journal, archive, cut)
    other = tmp_path / "other.sqlite"
    later = a_season(other, Calendar(calendar.now + timedelta(days=30)))
    shutil.copy(archive_path(path), archive_path(other))  # another table's archive put beside
    before = snapshot(other, [1, 2, 3, 4, 5, 6])
    with (
        Journal(other) as journal,
        Journal(archive_path(other)) as archive,
        pytest.raises(JournalError, match="game 1 of the archive is another game"),
    ):
        archive_games(journal, archive, later)
    assert snapshot(other, [1, 2, 3, 4, 5, 6]) == before
