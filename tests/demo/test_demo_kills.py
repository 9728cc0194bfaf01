"""A power cut at any moment of a game loses no confirmed round and half-writes none:
the demo playing Dixit Odyssey for four is killed with SIGKILL 25 times at random
moments, each run going on with the journal's game (`tests.demo.demo_kills`).
`test_demo_kills_first_edition.py` kills a first-edition game 25 times more.
"""

from pathlib import Path

import pytest

from tests.demo.demo_kills import kill_again_and_again

KILLS = 25
SEED = 20261121


@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_or_half_writes_a_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kill_again_and_again("odyssey", KILLS, SEED, tmp_path, capsys)
