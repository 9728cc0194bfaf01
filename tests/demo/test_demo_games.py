"""`companion demo --headless` sets up and plays the storyteller editions on the
table's screens, and the journal's export, as `companion history` and the phone page
give it, scores to the totals the demo showed (`tests.demo.demo_games`).

A whole game of each way a storyteller game ends: Dixit (2021) to its target, the
first edition until the draw pile runs out (with its lone finder's four points).
Odyssey's whole game for six was the 2021 edition's game, round for round: neither of
its own rules (the second vote from seven players, the bonus cap) came up. It plays
for seven instead, two rounds, second votes cast. The party and teams editions are
`test_demo_games_party_teams.py`'s.
"""

from pathlib import Path

import pytest

from tests.demo.demo_games import SMALL_BOARD, DemoGame, Runs, check, play_all

WHOLE = (DemoGame("classic"), DemoGame("classic-1e", players=4, board=SMALL_BOARD))
"""The 2021 edition at the demo's six; the first edition for four, on the small board."""
SECOND_VOTES = DemoGame("odyssey", players=7, rounds=2)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Runs]:
    folder = tmp_path_factory.mktemp("demo-games")
    return folder, play_all((*WHOLE, SECOND_VOTES), folder)


@pytest.mark.slow
@pytest.mark.parametrize("game", WHOLE, ids=str)
def test_the_headless_demo_plays_a_whole_game_and_its_export_scores_to_its_totals(
    game: DemoGame, runs: tuple[Path, Runs], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, played = runs
    check(game, played[game], folder, capsys)


@pytest.mark.slow
def test_odyssey_for_seven_reads_and_scores_second_votes(
    runs: tuple[Path, Runs], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, played = runs
    exported = check(SECOND_VOTES, played[SECOND_VOTES], folder, capsys)
    votes = [v for played_round in exported["rounds"] for v in played_round["votes"].values()]
    assert any(len(slots) == 2 for slots in votes), votes
