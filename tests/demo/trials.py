"""Shared checks of the reader's trials on simulated café tables (`companion.demo.trial`).

Each trial module plays a few rounds of games spread over every edition, on the
12-slot board bumped after calibration, and holds every round to what a café needs:
no score is ever wrong, no tag is ever seen where it is not, and a round is either
scored exactly as laid or held back with the screen naming the player whose token
cannot be seen.
"""

from companion.demo.trial import Outcome, RoundTrial, Setting, Trial, each_case
from companion.rules import RULESETS

ROUNDS_PER_GAME = 3


def play(setting: Setting, games: range, seed: int) -> list[RoundTrial]:
    """The rounds of `games` (case numbers of `each_case`) at `setting`."""
    trial = Trial(setting, seed)
    case = each_case(RULESETS.values())
    rounds: list[RoundTrial] = []
    for game in games:
        ruleset, players = case(game)
        rounds += trial.play(ruleset, players, ROUNDS_PER_GAME, f"{ruleset.name} {players}p")
    return rounds


def check_never_wrong(rounds: list[RoundTrial]) -> None:
    """No wrong score, no false tag, and every round held back names its hidden token."""
    assert [(r.case, r.false_tags) for r in rounds if r.false_tags] == []
    assert [r.case for r in rounds if r.outcome is Outcome.WRONG] == []
    held = [r for r in rounds if r.outcome is not Outcome.EXACT]
    assert [(r.case, r.outcome, r.screen) for r in held if r.outcome is not Outcome.NAMED] == []
    assert [(r.case, r.screen) for r in held if not r.hidden] == []


def recall(rounds: list[RoundTrial]) -> float:
    """The share of fully visible tokens single frames read in the right slot."""
    visible = sum(r.visible for r in rounds)
    assert visible > 0
    return sum(r.read for r in rounds) / visible
