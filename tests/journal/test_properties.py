"""Properties over random games of every ruleset: the journal always holds the game played."""

import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CorrectionError, RulesError
from companion.journal import GameStatus, History, Journal
from companion.rules import Game, Reveal
from tests.journal.helpers import colours
from tests.rules.strategies import games, legal_reveals

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_holds(journal: Journal, game_id: int, game: Game) -> None:
    stored = journal.load(game_id)
    assert stored.game == game
    finished = game.outcome is not None
    assert (stored.status is GameStatus.FINISHED) == finished
    rounds = History(journal).rounds(game_id)
    assert [r.number for r in rounds] == list(range(1, len(game.played) + 1))
    assert [dict(r.totals) for r in rounds] == [dict(p.totals) for p in game.played]


@SETTINGS
@given(st.data())
def test_commits_and_undos_keep_the_stored_rounds_equal_to_the_game(data: st.DataObject) -> None:
    game = data.draw(games())
    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "j.sqlite") as journal:
        game_id = journal.start_game(game, colours(game))
        for _ in range(data.draw(st.integers(0, 12), label="steps")):
            if game.played and data.draw(st.booleans(), label="undo"):
                game = game.undo()
                assert journal.undo_round(game_id) == game
            elif game.outcome is None:
                game = game.play(data.draw(legal_reveals(game)))
                journal.commit_round(game_id, game, frame=bytes([len(game.played)]))
            assert_holds(journal, game_id, game)


def start_of(game: Game) -> Game:
    return Game(game.ruleset, game.seating, game.first_storyteller)


def rescored(before: Game, fixed: Reveal, later: list[Reveal]) -> Game | None:
    """The game with the corrected round and the later ones, or None if one cannot be played."""
    game = before.play(fixed)
    for reveal in later:
        try:
            game = game.play(reveal)
        except RulesError:
            return None
    return game


@SETTINGS
@given(st.data())
def test_a_correction_stores_exactly_the_replayed_game(data: st.DataObject) -> None:
    game = data.draw(games())
    reveals: list[Reveal] = []
    for _ in range(data.draw(st.integers(1, 8), label="rounds")):
        if game.outcome is not None:
            break
        reveals.append(data.draw(legal_reveals(game)))
        game = game.play(reveals[-1])
    number = data.draw(st.integers(1, len(reveals)), label="corrected round")
    before = replace(game, played=game.played[: number - 1])
    fixed = data.draw(legal_reveals(before), label="correction")
    expected = rescored(before, fixed, reveals[number:])
    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "j.sqlite") as journal:
        game_id = journal.start_game(start_of(game), colours(game))
        for played in range(1, len(reveals) + 1):
            journal.commit_round(game_id, replace(game, played=game.played[:played]))
        if expected is None:
            with pytest.raises(CorrectionError):
                journal.correct_round(game_id, number, fixed)
            assert_holds(journal, game_id, game)
        else:
            assert journal.correct_round(game_id, number, fixed) == expected
            assert_holds(journal, game_id, expected)
