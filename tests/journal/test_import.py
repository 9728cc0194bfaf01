"""Games played elsewhere, imported from their game files: kept as this table's games
without pictures, each file once, and only if the rules play it."""

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from companion.errors import RulesError
from companion.journal import GameStatus, GameSummary, History, Journal, RoundImages
from tests.journal.helpers import YEAR_START, colours, example, play_into, replayed, rows

PLAYED_ON = YEAR_START - timedelta(days=30)


def test_a_finished_game_is_kept_finished_without_pictures_confirmed_when_it_was_played(
    tmp_path: Path,
) -> None:
    game = example("odyssey-8-players").play()
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id = journal.import_game(game, colours(game), PLAYED_ON, "odyssey file")
        assert game_id == 1
        stored = journal.load(game_id)
        history = History(journal)
        rounds = history.rounds(game_id)
        images = history.images(game_id, 1)
        assert journal.resume() is None
        listed = history.games()
        assert listed == replayed(history)
    assert (stored.game, stored.status, stored.started_at) == (game, GameStatus.FINISHED, PLAYED_ON)
    assert len(rounds) == len(game.played)
    assert {(r.has_frame, r.has_overlay, r.pruned, r.committed_at) for r in rounds} == {
        (False, False, False, PLAYED_ON)
    }
    assert images == RoundImages(None, None)
    assert rows(tmp_path / "journal.sqlite", "SELECT count(*) FROM round_images") == [(0,)]
    assert [(line.id, getattr(line, "status", None)) for line in listed] == [
        (1, GameStatus.FINISHED)
    ]


def test_an_unfinished_game_is_kept_abandoned_and_is_not_resumed(tmp_path: Path) -> None:
    record = example("classic-1e-4-players")
    game = record.start
    for reveal in record.reveals[:5]:
        game = game.play(reveal)
    with Journal(tmp_path / "journal.sqlite") as journal:
        playing, _ = play_into(journal, example("party-1e-7-players"), 2)
        game_id = journal.import_game(game, colours(game), PLAYED_ON, "half a game")
        assert game_id is not None
        resumed = journal.resume()
        stored = journal.load(game_id)
    assert (stored.status, stored.game) == (GameStatus.ABANDONED, game)
    assert resumed is not None and resumed.id == playing


def test_the_same_file_twice_is_imported_once(tmp_path: Path) -> None:
    game = example("teams-8-players").play()
    with Journal(tmp_path / "journal.sqlite") as journal:
        first = journal.import_game(game, colours(game), PLAYED_ON, "digest of the file")
        again = journal.import_game(game, colours(game), YEAR_START, "digest of the file")
        other = journal.import_game(game, colours(game), PLAYED_ON, "another file")
        listed = History(journal).games()
    assert (first, again, other) == (1, None, 2)
    assert [line.id for line in listed] == [2, 1]


def test_a_game_the_rules_do_not_play_raises_the_rules_error_and_writes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    classic = example("classic-1e-4-players").play()
    party = example("party-1e-7-players").play()
    with Journal(path) as journal:
        play_into(journal, example("odyssey-8-players"), 2)
        before = History(journal).games()
        with pytest.raises(RulesError, match=r"round 1: .*'orange', who is not playing"):
            journal.import_game(
                replace(classic, played=party.played), colours(classic), PLAYED_ON, "bad"
            )
        assert History(journal).games() == before
        assert journal.import_game(classic, colours(classic), PLAYED_ON, "bad") == 2
    assert rows(path, "SELECT game_id, count(*) FROM rounds GROUP BY game_id") == [(1, 2), (2, 15)]


def test_a_game_whose_scores_are_not_the_rules_is_listed_as_the_rules_score_it(
    tmp_path: Path,
) -> None:
    game = example("classic-1e-4-players").play()
    last = game.played[-1]
    inflated = {scorer: total + 100 for scorer, total in last.totals.items()}
    doctored = replace(game, played=(*game.played[:-1], replace(last, totals=inflated)))
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id = journal.import_game(doctored, colours(game), PLAYED_ON, "doctored")
        assert game_id is not None
        history = History(journal)
        (line,) = history.games()
        assert line == history.game(game_id)
    assert isinstance(line, GameSummary) and dict(line.totals) == dict(game.totals)
