"""`companion demo --headless` sets up and plays every edition on the table's screens,
and the journal's export, as `companion history` and the phone page give it, scores to
the totals the demo showed (`tests.demo.demo_games`).

A whole game of each way a game ends and of each scoring: Dixit (2021) to its target,
the first edition until the draw pile runs out (with its lone finder's four points),
and Party's and the teams' scorings in their first printing (every player tells once).
Odyssey's whole game for six was the 2021 edition's game, round for round: neither of
its own rules (the second vote from seven players, the bonus cap) came up. It plays for
seven instead, two rounds, second votes cast. The voting-dial printings of Party and
the teams play to 30 points, which the 2021 edition's whole game reaches: they are set
up with their own options and play two rounds each, teams at eight (four teams).

The games are played in two batches, a class each: the storyteller editions and the
party and teams editions. The suite keeps a class on one worker (`--dist loadscope`),
so the two batches are played side by side.
"""

from pathlib import Path
from typing import ClassVar

import pytest

from tests.demo.demo_games import SMALL_BOARD, DemoGame, Runs, check, play_all

SECOND_VOTES = DemoGame("odyssey", players=7, rounds=2)
THIRTY_POINTS = (DemoGame("party", rounds=2), DemoGame("teams", rounds=2))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A batch's whole-game test runs over the batch's whole games."""
    if "whole_game" in metafunc.fixturenames:
        assert metafunc.cls is not None
        metafunc.parametrize("whole_game", metafunc.cls.WHOLE, ids=str)


class Batch:
    """Games the demo plays two at a time, once for their class's tests."""

    WHOLE: ClassVar[tuple[DemoGame, ...]]
    """The batch's games played to their winner."""
    GAMES: ClassVar[tuple[DemoGame, ...]]
    """All its games, the longest first."""

    @pytest.fixture(scope="class")
    @classmethod
    def runs(cls, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Runs]:
        folder = tmp_path_factory.mktemp("demo-games")
        return folder, play_all(cls.GAMES, folder)

    @pytest.mark.slow
    def test_the_headless_demo_plays_a_whole_game_and_its_export_scores_to_its_totals(
        self,
        whole_game: DemoGame,
        runs: tuple[Path, Runs],
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        folder, played = runs
        check(whole_game, played[whole_game], folder, capsys)


class TestStorytellerEditions(Batch):
    WHOLE = (DemoGame("classic"), DemoGame("classic-1e", players=4, board=SMALL_BOARD))
    """The 2021 edition at the demo's six; the first edition for four, on the small
    board."""
    GAMES = (*WHOLE, SECOND_VOTES)

    @pytest.mark.slow
    def test_odyssey_for_seven_reads_and_scores_second_votes(
        self, runs: tuple[Path, Runs], capsys: pytest.CaptureFixture[str]
    ) -> None:
        folder, played = runs
        exported = check(SECOND_VOTES, played[SECOND_VOTES], folder, capsys)
        votes = [v for played_round in exported["rounds"] for v in played_round["votes"].values()]
        assert any(len(slots) == 2 for slots in votes), votes


class TestPartyAndTeamsEditions(Batch):
    WHOLE = (DemoGame("party-1e"), DemoGame("teams-1e"))
    GAMES = (*WHOLE, *THIRTY_POINTS)

    @pytest.mark.slow
    @pytest.mark.parametrize("game", THIRTY_POINTS, ids=str)
    def test_the_editions_to_thirty_points_are_set_up_read_and_exported_to_their_totals(
        self, game: DemoGame, runs: tuple[Path, Runs], capsys: pytest.CaptureFixture[str]
    ) -> None:
        folder, played = runs
        check(game, played[game], folder, capsys)
