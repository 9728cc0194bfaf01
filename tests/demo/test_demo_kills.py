"""A power cut at any moment of a game loses no confirmed round and half-writes none:
the demo is killed with SIGKILL 50 times at random moments, each run going on with the
journal's game (`tests.demo.demo_kills`): 25 times playing Dixit Odyssey for four, and
25 times playing the first edition for four, a game that ends when the draw pile runs
out. Each edition is a class, and the suite keeps a class on one worker (`--dist
loadscope`), so the two editions are killed side by side.
"""

from pathlib import Path
from typing import ClassVar

import pytest

from tests.demo.demo_kills import kill_again_and_again

KILLS = 25
"""Per edition."""


class Kills:
    """The demo playing one edition, killed `KILLS` times."""

    RULESET: ClassVar[str]
    SEED: ClassVar[int]
    """Where the kills' random moments come from."""

    @pytest.mark.slow
    def test_sigkill_at_random_moments_never_loses_or_half_writes_a_round(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        kill_again_and_again(self.RULESET, KILLS, self.SEED, tmp_path, capsys)


class TestOdyssey(Kills):
    RULESET = "odyssey"
    SEED = 20261121


class TestFirstEdition(Kills):
    RULESET = "classic-1e"
    SEED = 20261122
