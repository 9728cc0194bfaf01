"""The reader at a café table in each of its conditions (an evening, coloured lamps,
glare, an arm's shadow, focus and exposure hunting, tokens half off their card or
partly over another, flat printed tags): a score is never wrong and no tag is seen
where it is not; a round the table holds back names the player whose token it cannot
see.

`bench/cafe.py` plays 60 rounds per condition; these are a few of them, every run."""

import pytest

from companion.demo.trial import Outcome, Setting
from companion.sim import LENSES, VARIATIONS, look_with
from tests.demo.trials import check_never_wrong, play, recall

IN_FOCUS = set(VARIATIONS) - {"autofocus"}
"""Conditions whose frames are all sharp, so every single frame reads what it shows."""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VARIATIONS))
def test_no_condition_makes_a_wrong_score_or_a_false_tag(name: str) -> None:
    rounds = play(Setting(LENSES["standard"], look_with([name])), range(5, 41, 18), seed=30)
    assert len(rounds) >= 5
    check_never_wrong(rounds)
    if name in IN_FOCUS:
        assert recall(rounds) >= 0.97
    if name not in {"overlap", "glare"}:
        assert [r.case for r in rounds if r.outcome is not Outcome.EXACT] == []
