"""Accuracy of the whole reader on simulated tables: 200+ rounds of every ruleset and
player count, hands, foreign codes and another kit's token included.

The simulation runs once for the module (on every core) and each test checks one
promise against it.
"""

import multiprocessing

import pytest

from tests.vision.simulated_rounds import CASES, RoundResult, play_round

ROUNDS = 205
"""At least 200, spread over every ruleset and player count (41 cases, 5 each)."""


@pytest.fixture(scope="module")
def results() -> list[RoundResult]:
    jobs = [(name, n, 1000 + i) for i in range(ROUNDS) for name, n in [CASES[i % len(CASES)]]]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        return pool.map(play_round, jobs, chunksize=4)


@pytest.mark.slow
def test_single_frames_read_at_least_99_percent_of_visible_tags(results: list[RoundResult]) -> None:
    visible = sum(r.visible for r in results)
    read = sum(r.read for r in results)
    print(f"single frames: {read} of {visible} visible kit tokens read in the right slot")
    assert visible > 5_000
    assert read / visible >= 0.99, f"{read} of {visible} tags read"


@pytest.mark.slow
def test_no_tag_is_ever_read_where_it_is_not(results: list[RoundResult]) -> None:
    assert [(r.case, r.misread) for r in results if r.misread] == []


@pytest.mark.slow
def test_foreign_codes_and_another_kit_were_in_view(results: list[RoundResult]) -> None:
    assert sum(r.foreign_shown for r in results) >= len(results)


@pytest.mark.slow
def test_every_settled_round_is_exactly_what_the_players_laid(results: list[RoundResult]) -> None:
    exact = sum(r.settled_exact for r in results)
    print(f"settled rounds: {exact} of {len(results)} exactly as laid, {len(CASES)} cases")
    assert len(results) >= 200
    assert {r.case.split(" seed")[0] for r in results} == {f"{name} {n}p" for name, n in CASES}
    assert [(r.case, r.difference) for r in results if not r.settled_exact] == []
