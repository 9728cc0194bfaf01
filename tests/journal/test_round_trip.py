"""Whole games in and out of the journal: replayed, listed, exported, with their pictures."""

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.gamefile import game_document, parse_game, result_document
from companion.journal import GameStatus, History, Journal, RoundImages
from companion.journal.schema import SCHEMA_VERSION
from tests.journal.helpers import EXAMPLES, colours, example, frame_of, play_into

MOMENT = datetime(2026, 11, 21, 20, 15, 0, tzinfo=UTC)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_full_example_game_comes_back_as_played(path: Path, tmp_path: Path) -> None:
    record = parse_game(path.read_text())
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, played = play_into(journal, record)
    with Journal(tmp_path / "journal.sqlite") as journal:
        stored = journal.load(game_id)
        assert stored.id == game_id
        assert stored.status is GameStatus.FINISHED
        assert stored.colours == colours(record.start)
        assert game_document(stored.game) == game_document(played)
        assert result_document(stored.game) == result_document(record.play())
        assert journal.resume() is None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_export_scores_to_the_same_totals(path: Path, tmp_path: Path) -> None:
    record = parse_game(path.read_text())
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, played = play_into(journal, record)
        exported = parse_game(History(journal).export(game_id))
    assert exported == parse_game(path.read_text())
    assert dict(exported.play().totals) == dict(played.totals)


def test_round_summaries_hold_the_engine_scores(tmp_path: Path) -> None:
    record = example("teams-8-players")
    with Journal(tmp_path / "journal.sqlite", clock=lambda: MOMENT) as journal:
        game_id, played = play_into(journal, record)
        rounds = History(journal).rounds(game_id)
    assert [r.number for r in rounds] == list(range(1, len(record.reveals) + 1))
    for summary, round_played in zip(rounds, played.played, strict=True):
        assert summary.storyteller == round_played.score.round.storyteller
        assert summary.deltas == dict(round_played.score.deltas)
        assert summary.reasons == dict(round_played.score.reasons)
        assert summary.totals == dict(round_played.totals)
        assert summary.committed_at == MOMENT
        assert summary.has_frame and summary.has_overlay
        assert not summary.corrected


def test_the_list_of_games_is_newest_first_with_winners_once_finished(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite", clock=lambda: MOMENT) as journal:
        first, finished = play_into(journal, example("party-1e-7-players"))
        second, playing = play_into(journal, example("classic-1e-4-players"), 3)
        games = History(journal).games()
    assert [g.id for g in games] == [second, first]
    latest, older = games
    assert (latest.ruleset, latest.rounds, latest.status) == ("classic-1e", 3, GameStatus.PLAYING)
    assert latest.players == ("red", "blue", "green", "yellow")
    assert latest.totals == dict(playing.totals)
    assert latest.winners == ()
    assert latest.started_at == MOMENT
    assert (older.ruleset, older.rounds, older.status) == ("party-1e", 7, GameStatus.FINISHED)
    assert older.totals == dict(finished.totals)
    assert older.winners == ("yellow", "black")


def test_a_game_without_rounds_lists_zero_totals(tmp_path: Path) -> None:
    record = example("teams-8-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.start_game(record.start, colours(record.start))
        (summary,) = History(journal).games()
    assert summary.rounds == 0
    assert summary.totals == dict.fromkeys(record.start.scorers, 0)


def test_images_are_stored_and_read_back_byte_for_byte(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 2)
        game = game.play(record.reveals[2])
        journal.commit_round(game_id, game, frame=b"\xff\xd8only a frame\xff\xd9")
        game = game.play(record.reveals[3])
        journal.commit_round(game_id, game)
        assert History(journal).images(game_id, 1) == RoundImages(frame_of(1), frame_of(-1, 500))
        assert History(journal).images(game_id, 3) == RoundImages(
            b"\xff\xd8only a frame\xff\xd9", None
        )
        assert History(journal).images(game_id, 4) == RoundImages(None, None)
        flags = [(r.has_frame, r.has_overlay) for r in History(journal).rounds(game_id)]
    assert flags == [(True, True), (True, True), (True, False), (False, False)]


def test_the_file_is_in_wal_mode_with_the_current_schema(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        play_into(journal, example("classic-1e-4-players"), 1)
    conn = sqlite3.connect(tmp_path / "journal.sqlite")
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    finally:
        conn.close()


def test_folders_are_created_and_closing_twice_is_harmless(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state" / "deep" / "journal.sqlite")
    journal.close()
    journal.close()
    assert (tmp_path / "state" / "deep" / "journal.sqlite").is_file()
