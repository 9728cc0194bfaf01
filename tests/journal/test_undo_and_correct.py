"""Undo and corrections: one transaction each, rescored by the engine, refused whole."""

import sqlite3
from pathlib import Path

import pytest

from companion.errors import (
    CorrectionError,
    JournalError,
    NothingToUndoError,
    OwnCardVoteError,
)
from companion.gamefile import game_document
from companion.journal import GameStatus, History, Journal, RoundImages
from companion.rules import Game, Reveal
from tests.journal.helpers import example, play_into


def replayed(start: Game, reveals: list[Reveal]) -> Game:
    game = start
    for reveal in reveals:
        game = game.play(reveal)
    return game


def corrections(path: Path) -> list[tuple[int, int, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT game_id, number, old_reveal, new_reveal FROM corrections"
        ).fetchall()
    finally:
        conn.close()


def test_undo_removes_the_last_round_and_its_pictures(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 4)
        undone = journal.undo_round(game_id)
        assert undone == game.undo()
        assert journal.load(game_id).game == game.undo()
        assert [r.number for r in History(journal).rounds(game_id)] == [1, 2, 3]
        with pytest.raises(JournalError, match="has no round 4"):
            History(journal).images(game_id, 4)
        again = undone.play(record.reveals[3])
        journal.commit_round(game_id, again, frame=b"new")
        assert History(journal).images(game_id, 4) == RoundImages(b"new", None)


def test_undoing_a_corrected_round_forgets_its_correction(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    old = record.reveals[1]
    moved = Reveal(old.cards, {**old.votes, "red": (3,)})
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 2)
        journal.correct_round(game_id, 2, moved)
        journal.undo_round(game_id)
        journal.commit_round(game_id, game)
        assert not any(r.corrected for r in History(journal).rounds(game_id))
        assert journal.load(game_id).game == game
    assert corrections(tmp_path / "journal.sqlite") == []


def test_undoing_the_final_round_reopens_the_game(tmp_path: Path) -> None:
    record = example("party-1e-7-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, _ = play_into(journal, record)
        assert journal.load(game_id).status is GameStatus.FINISHED
        journal.undo_round(game_id)
        resumed = journal.resume()
    assert resumed is not None
    assert resumed.id == game_id
    assert resumed.status is GameStatus.PLAYING
    assert len(resumed.game.played) == len(record.reveals) - 1


def test_undo_with_no_rounds_says_there_is_nothing_to_undo(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, _ = play_into(journal, record, 0)
        with pytest.raises(NothingToUndoError) as caught:
            journal.undo_round(game_id)
    assert str(caught.value) == (
        f"{tmp_path / 'journal.sqlite'}: game 1 has no rounds, so there is nothing to undo"
    )


def test_an_old_finished_game_is_not_reopened_by_undo(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        old, _ = play_into(journal, example("party-1e-7-players"))
        play_into(journal, example("classic-1e-4-players"), 1)
        with pytest.raises(JournalError, match="game 1 is over and game 2 has started since"):
            journal.undo_round(old)
        assert len(journal.load(old).game.played) == 7


def test_moving_a_vote_rescores_that_round_and_every_total_after_it(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    old = record.reveals[0]
    moved = Reveal(old.cards, {**old.votes, "blue": (2,)})
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, _ = play_into(journal, record, 6)
        corrected = journal.correct_round(game_id, 1, moved)
        expected = replayed(record.start, [moved, *record.reveals[1:6]])
        assert corrected == expected
        assert journal.load(game_id).game == expected
        rounds = History(journal).rounds(game_id)
    assert [r.corrected for r in rounds] == [True, False, False, False, False, False]
    assert [dict(r.totals) for r in rounds] == [dict(p.totals) for p in expected.played]
    assert rounds[0].deltas == dict(expected.played[0].score.deltas)
    assert rounds[0].reasons == dict(expected.played[0].score.reasons)
    ((game, number, before, after),) = corrections(tmp_path / "journal.sqlite")
    assert (game, number) == (game_id, 1)
    assert '"blue":[1]' in before
    assert '"blue":[2]' in after


def test_changing_an_owner_is_a_correction_too(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    old = record.reveals[0]
    swapped = Reveal({**old.cards, 3: "blue", 4: "green"}, old.votes)
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, _ = play_into(journal, record, 3)
        corrected = journal.correct_round(game_id, 1, swapped)
        assert corrected.played[0].score.round.reveal == swapped
        exported = History(journal).export(game_id)
    assert '"3": "blue", "4": "green"' in exported
    assert corrected == replayed(record.start, [swapped, *record.reveals[1:3]])


def test_an_illegal_correction_raises_the_rules_error_and_writes_nothing(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    old = record.reveals[0]
    own_card = Reveal(old.cards, {**old.votes, "blue": (4,)})
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 3)
        before = History(journal).rounds(game_id)
        with pytest.raises(OwnCardVoteError) as caught:
            journal.correct_round(game_id, 1, own_card)
        assert str(caught.value) == "round 1: blue voted for slot 4, their own card"
        assert History(journal).rounds(game_id) == before
        assert journal.load(game_id).game == game
    assert corrections(tmp_path / "journal.sqlite") == []


def test_a_correction_that_ends_the_game_earlier_is_refused(tmp_path: Path) -> None:
    record = example("odyssey-8-players")
    old = record.reveals[7]
    red_finds = Reveal(old.cards, {**old.votes, "red": (7,)})
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record)
        before = History(journal).rounds(game_id)
        with pytest.raises(CorrectionError) as caught:
            journal.correct_round(game_id, 8, red_finds)
        assert History(journal).rounds(game_id) == before
        assert journal.load(game_id).game == game
    assert str(caught.value) == (
        f"{tmp_path / 'journal.sqlite'}: game 1: with round 8 corrected, round 9 could not "
        "have been played (round 9: the game ended after round 8 (a score reached the "
        "target)); nothing was changed"
    )
    assert corrections(tmp_path / "journal.sqlite") == []


def test_a_correction_that_no_longer_ends_the_game_reopens_it(tmp_path: Path) -> None:
    record = example("odyssey-8-players")
    old = record.reveals[8]
    red_misses = Reveal(old.cards, {**old.votes, "red": (2,), "blue": (1,), "black": (6,)})
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, _ = play_into(journal, record)
        corrected = journal.correct_round(game_id, 9, red_misses)
        assert corrected.outcome is None
        stored = journal.resume()
    assert stored is not None
    assert stored.id == game_id
    assert stored.status is GameStatus.PLAYING


def test_a_correction_that_changes_nothing_is_not_recorded(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 2)
        assert journal.correct_round(game_id, 2, record.reveals[1]) == game
        assert not any(r.corrected for r in History(journal).rounds(game_id))


def test_a_correction_of_a_round_not_stored_names_it(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, _ = play_into(journal, record, 2)
        with pytest.raises(JournalError) as caught:
            journal.correct_round(game_id, 3, record.reveals[2])
    assert str(caught.value) == (
        f"{tmp_path / 'journal.sqlite'}: game 1 has no round 3 to correct (it has rounds 1 to 2)"
    )


def test_undo_then_replay_keeps_the_export_equal_to_the_game(tmp_path: Path) -> None:
    record = example("teams-8-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 5)
        journal.undo_round(game_id)
        journal.undo_round(game_id)
        again = game.undo().undo().play(record.reveals[3])
        journal.commit_round(game_id, again)
        assert game_document(journal.load(game_id).game) == game_document(again)
