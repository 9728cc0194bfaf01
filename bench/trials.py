"""What the trial benchmarks share: running trials on both cores and summing them up.

`bench/lenses.py` and `bench/cafe.py` each play many simulated rounds through
`companion.demo.trial` and print one line per lens or condition; the rounds of one
line are split between two worker processes, each playing every other case.
"""

import multiprocessing
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from companion.demo.trial import Outcome, RoundTrial, Setting, Trial, each_case
from companion.rules import RULESETS

ROUNDS_PER_GAME = 3
"""Rounds played of each game before the next case starts a new one: later rounds
have other storytellers and scores."""


@dataclass(frozen=True)
class Job:
    """One worker's share of a line of the table."""

    setting: Setting
    games: tuple[int, ...]
    seed: int


def play(job: Job) -> list[RoundTrial]:
    """The rounds of one worker's games."""
    trial = Trial(job.setting, job.seed)
    case = each_case(RULESETS.values())
    rounds: list[RoundTrial] = []
    for game in job.games:
        ruleset, players = case(game)
        rounds += trial.play(
            ruleset, players, ROUNDS_PER_GAME, f"{ruleset.name} {players}p game {game}"
        )
    return rounds


def run(setting: Setting, rounds: int, seed: int, workers: int = 2) -> list[RoundTrial]:
    """At least `rounds` rounds at `setting`, the games spread over every ruleset and
    player count, split between `workers` processes."""
    games = -(-rounds // ROUNDS_PER_GAME)
    jobs = [Job(setting, tuple(range(w, games, workers)), seed + w) for w in range(workers)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        shares = pool.map(play, jobs)
    return [r for share in shares for r in share]


@dataclass(frozen=True)
class Summary:
    """A line of the table."""

    rounds: int
    exact: int
    named: int
    unnamed: int
    wrong: int
    hidden_rounds: int
    false_tags: int
    visible: int
    read: int
    reading_ms: tuple[float, ...]
    screen: str

    @property
    def recall(self) -> str:
        return f"{100 * self.read / self.visible:.2f}%" if self.visible else "-"

    @property
    def ms(self) -> str:
        deciles = statistics.quantiles(self.reading_ms, n=10)
        return f"{statistics.median(self.reading_ms):.0f} ({deciles[0]:.0f}-{deciles[-1]:.0f})"


def summary(rounds: Sequence[RoundTrial]) -> Summary:
    """Sum a line's rounds up; `screen` is the first thing the screen said of a round
    held back because a token could not be read."""
    said = [r.screen[0] for r in rounds if r.outcome is Outcome.NAMED and r.hidden]
    return Summary(
        rounds=len(rounds),
        exact=sum(r.outcome is Outcome.EXACT for r in rounds),
        named=sum(r.outcome is Outcome.NAMED for r in rounds),
        unnamed=sum(r.outcome is Outcome.UNNAMED for r in rounds),
        wrong=sum(r.outcome is Outcome.WRONG for r in rounds),
        hidden_rounds=sum(bool(r.hidden) for r in rounds),
        false_tags=sum(len(r.false_tags) for r in rounds),
        visible=sum(r.visible for r in rounds),
        read=sum(r.read for r in rounds),
        reading_ms=tuple(ms for r in rounds for ms in r.reading_ms),
        screen=said[0] if said else "",
    )


def failures(rounds: Sequence[RoundTrial]) -> list[str]:
    """One line for each round not scored exactly, or with a false tag."""
    lines = []
    for r in rounds:
        if r.outcome is not Outcome.EXACT or r.false_tags:
            lines.append(
                f"    {r.case}: {r.outcome.value}; hidden {list(r.hidden)}; "
                f"false tags {list(r.false_tags)}; screen {list(r.screen)}"
            )
    return lines
