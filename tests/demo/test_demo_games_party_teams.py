"""`companion demo --headless` sets up and plays the party and teams editions on the
table's screens, and the journal's export, as `companion history` and the phone page
give it, scores to the totals the demo showed (`tests.demo.demo_games`).

A whole game of each scoring, Party's and the teams', in its first printing (every
player tells once). The voting-dial printings play to 30 points, which the 2021
edition's whole game reaches (`test_demo_games.py`): they are set up with their own
options and play two rounds each, teams at eight (four teams).
"""

from pathlib import Path

import pytest

from tests.demo.demo_games import DemoGame, Runs, check, play_all

WHOLE = (DemoGame("party-1e"), DemoGame("teams-1e"))
SHORT = (DemoGame("party", rounds=2), DemoGame("teams", rounds=2))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Runs]:
    folder = tmp_path_factory.mktemp("demo-games")
    return folder, play_all((*WHOLE, *SHORT), folder)


@pytest.mark.slow
@pytest.mark.parametrize("game", WHOLE, ids=str)
def test_the_headless_demo_plays_a_whole_game_and_its_export_scores_to_its_totals(
    game: DemoGame, runs: tuple[Path, Runs], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, played = runs
    check(game, played[game], folder, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("game", SHORT, ids=str)
def test_the_editions_to_thirty_points_are_set_up_read_and_exported_to_their_totals(
    game: DemoGame, runs: tuple[Path, Runs], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, played = runs
    check(game, played[game], folder, capsys)
