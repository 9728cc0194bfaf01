"""The reader through each camera a café buys (the Camera Module 3, its Wide version
and a 4K webcam, each with its lens's barrel distortion), the board bumped after
calibration: every round is read exactly as laid, no tag is seen where it is not.

`bench/lenses.py` plays 120 rounds per lens; these are a few of them, every run."""

import pytest

from companion.demo.trial import Outcome, Setting
from companion.sim import LENSES
from companion.sim.looks import CAFE
from tests.demo.trials import check_never_wrong, play, recall


@pytest.mark.slow
@pytest.mark.parametrize("lens", list(LENSES))
def test_every_round_through_the_lens_is_read_exactly_as_laid(lens: str) -> None:
    rounds = play(Setting(LENSES[lens], CAFE), range(0, 41, 14), seed=20)
    assert len(rounds) >= 8
    check_never_wrong(rounds)
    assert [(r.case, r.outcome, r.screen) for r in rounds if r.outcome is not Outcome.EXACT] == []
    assert recall(rounds) >= 0.99
