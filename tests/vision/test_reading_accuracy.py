"""Accuracy of the whole reader on simulated tables: the 205 rounds of
`tests.vision.simulated_rounds`' accuracy run, 200+ rounds of every ruleset and player
count, hands, foreign codes and another kit's token included.

The run is played in two shares, a class each: the storyteller editions and the party
and teams editions. A share's rounds are played once for its class, on every core, and
each test checks one promise against them. The suite keeps a class on one worker
(`--dist loadscope`), so the two shares are played side by side.
"""

from typing import ClassVar

import pytest

from tests.vision.simulated_rounds import (
    RoundResult,
    check_foreign_codes_shown,
    check_no_misreads,
    check_settled_rounds,
    check_single_frames,
    play_rounds,
)


class Share:
    """Some rulesets' rounds of the accuracy run, and the promises they must keep."""

    RULESETS: ClassVar[tuple[str, ...]]
    """The share is the run's rounds of these rulesets, at every player count."""
    MORE_VISIBLE_THAN: ClassVar[int]
    """Kit tags fully visible in the share's clear frames, more than this: the two
    shares' together more than the whole run's 5,000."""

    @pytest.fixture(scope="class")
    @classmethod
    def results(cls) -> list[RoundResult]:
        return play_rounds(cls.RULESETS)

    @pytest.mark.slow
    def test_single_frames_read_at_least_99_percent_of_visible_tags(
        self, results: list[RoundResult]
    ) -> None:
        check_single_frames(results, self.MORE_VISIBLE_THAN)

    @pytest.mark.slow
    def test_no_tag_is_ever_read_where_it_is_not(self, results: list[RoundResult]) -> None:
        check_no_misreads(results)

    @pytest.mark.slow
    def test_foreign_codes_and_another_kit_were_in_view(self, results: list[RoundResult]) -> None:
        check_foreign_codes_shown(results)

    @pytest.mark.slow
    def test_every_settled_round_is_exactly_what_the_players_laid(
        self, results: list[RoundResult]
    ) -> None:
        check_settled_rounds(results, self.RULESETS)


class TestStorytellerEditions(Share):
    """100 rounds of Dixit (2021), its first edition and Odyssey."""

    RULESETS = ("classic", "classic-1e", "odyssey")
    MORE_VISIBLE_THAN = 2_500
    """2,636 when written."""


class TestPartyAndTeamsEditions(Share):
    """105 rounds of Dixit Party and Dixit in teams, both printings."""

    RULESETS = ("party-1e", "party", "teams-1e", "teams")
    MORE_VISIBLE_THAN = 3_000
    """3,320 when written."""
