"""The rules engine: pure, synchronous scoring and game state for every Dixit edition.

Nothing here touches a camera, a file, a clock or a screen. Give it a ruleset, the
seating and what lay on the table; it answers with points and reasons, or with an
error that names the round, player and slot at fault.
"""

from companion.rules.game import Game, Outcome, Piles, PlayedRound, Termination
from companion.rules.round import Award, AwardKind, Reveal, Round, RoundScore
from companion.rules.rulesets import (
    OPTION_NAMES,
    RULESET_OPTIONS,
    RULESETS,
    Ruleset,
    RulesetOption,
    find_ruleset,
)
from companion.rules.seating import Seating

__all__ = [
    "OPTION_NAMES",
    "RULESETS",
    "RULESET_OPTIONS",
    "Award",
    "AwardKind",
    "Game",
    "Outcome",
    "Piles",
    "PlayedRound",
    "Reveal",
    "Round",
    "RoundScore",
    "Ruleset",
    "RulesetOption",
    "Seating",
    "Termination",
    "find_ruleset",
]
