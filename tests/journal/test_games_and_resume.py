"""Which game is being played, and the checks that keep a round in its own game."""

from pathlib import Path

import pytest

from companion.errors import JournalError, SeatingError, UnknownGameError
from companion.gamefile import GameRecord
from companion.journal import GameStatus, History, Journal, default_journal_path
from companion.rules import Reveal
from tests.journal.helpers import colours, example, play_into


def test_resume_picks_the_game_being_played(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.resume() is None
        play_into(journal, example("party-1e-7-players"))
        game_id, game = play_into(journal, example("classic-1e-4-players"), 5)
    with Journal(tmp_path / "journal.sqlite") as journal:
        resumed = journal.resume()
    assert resumed is not None
    assert (resumed.id, resumed.status, resumed.game) == (game_id, GameStatus.PLAYING, game)
    assert resumed.colours == colours(game)


def test_starting_a_new_game_abandons_the_one_being_played(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        first, _ = play_into(journal, example("classic-1e-4-players"), 2)
        second, _ = play_into(journal, example("odyssey-8-players"), 1)
        assert journal.load(first).status is GameStatus.ABANDONED
        resumed = journal.resume()
        assert resumed is not None
        assert resumed.id == second
        statuses = [g.status for g in History(journal).games()]
    assert statuses == [GameStatus.PLAYING, GameStatus.ABANDONED]


def test_a_round_cannot_be_added_to_an_abandoned_game(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        first, game = play_into(journal, record, 2)
        play_into(journal, record, 0)
        with pytest.raises(JournalError, match="game 1 is abandoned"):
            journal.commit_round(first, game.play(record.reveals[2]))


def test_only_the_next_round_can_be_committed(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 2)
        with pytest.raises(JournalError) as caught:
            journal.commit_round(game_id, game)
        skipped = game.play(record.reveals[2]).play(record.reveals[3])
        with pytest.raises(JournalError, match="the next is round 3, not round 4"):
            journal.commit_round(game_id, skipped)
        assert len(journal.load(game_id).game.played) == 2
    assert str(caught.value) == (
        f"{tmp_path / 'journal.sqlite'}: game 1 has rounds 1 to 2 stored, "
        "so the next is round 3, not round 2"
    )


def test_a_round_of_another_game_is_refused(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    other = example("odyssey-8-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, record, 2)
        with pytest.raises(JournalError, match="the game given is not game 1"):
            journal.commit_round(game_id, GameRecord(other.start, other.reveals[:3]).play())
        first = record.reveals[0]
        diverged = record.start.play(Reveal(first.cards, {**first.votes, "blue": (2,)}))
        diverged = diverged.play(record.reveals[1]).play(record.reveals[2])
        with pytest.raises(JournalError, match="differs from game 1 in round 1"):
            journal.commit_round(game_id, diverged)
        assert journal.load(game_id).game == game


def test_unknown_games_are_named(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        with pytest.raises(UnknownGameError) as empty:
            journal.load(1)
        play_into(journal, example("classic-1e-4-players"), 1)
        with pytest.raises(UnknownGameError) as caught:
            History(journal).rounds(7)
    path = tmp_path / "journal.sqlite"
    assert str(empty.value) == f"{path}: there is no game 1 (it holds no games)"
    assert str(caught.value) == f"{path}: there is no game 7 (the newest is game 1)"


def test_a_game_is_stored_before_its_first_round_with_every_colour(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    with Journal(tmp_path / "journal.sqlite") as journal:
        with pytest.raises(JournalError, match="and this one has round 1 played"):
            journal.start_game(record.start.play(record.reveals[0]), colours(record.start))
        with pytest.raises(SeatingError, match="player 'yellow' has no kit colour"):
            journal.start_game(record.start, {"red": "red", "blue": "blue", "green": "green"})
        with pytest.raises(SeatingError, match="'pink' is not one of the players"):
            journal.start_game(record.start, {**colours(record.start), "pink": "pink"})
        assert History(journal).games() == ()


def test_a_closed_journal_says_so(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    journal.close()
    with pytest.raises(JournalError, match="the journal is closed"):
        History(journal).games()


def test_the_default_path_follows_the_state_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMPANION_STATE_DIR", str(tmp_path))
    assert default_journal_path() == tmp_path / "journal.sqlite"
    monkeypatch.delenv("COMPANION_STATE_DIR")
    assert default_journal_path() == Path("state") / "journal.sqlite"
