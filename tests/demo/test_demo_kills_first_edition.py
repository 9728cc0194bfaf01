"""A power cut at any moment of a game loses no confirmed round and half-writes none,
in a game that ends when the draw pile runs out: the demo playing the first edition
of Dixit for four is killed with SIGKILL 25 times at random moments, each run going on
with the journal's game (`tests.demo.demo_kills`). With `test_demo_kills.py`'s 25, the
demo is killed 50 times.
"""

from pathlib import Path

import pytest

from tests.demo.demo_kills import kill_again_and_again

KILLS = 25
SEED = 20261122


@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_or_half_writes_a_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kill_again_and_again("classic-1e", KILLS, SEED, tmp_path, capsys)
