"""Scoring of Dixit in teams (`teams-1e`, `teams`)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import RULESETS, AwardKind, Game, Reveal
from tests.rules.helpers import deltas, game, reveal
from tests.rules.strategies import COLOURS, TEAMS, legal_reveals, partner

# Ten players, five teams of partners sitting opposite each other (seats i and i + 5).
TEN = ["bea", "val", "gus", "ola", "pam", "bob", "vic", "gil", "oz", "pia"]
BLUE, VIOLET, GREEN, ORANGE, PINK = "bea+bob", "val+vic", "gus+gil", "ola+oz", "pam+pia"
MAX_ROUNDS = 40
"""Enough for a random team game to end; every round is checked as it is played."""


def test_team_names_join_partners_lower_seat_first() -> None:
    assert game("teams", TEN).scorers == (BLUE, VIOLET, GREEN, ORANGE, PINK)


@pytest.mark.parametrize("ruleset", ["teams", "teams-1e"])
def test_rulebook_004_ten_player_example(ruleset: str) -> None:
    # Blue tells (bea), partner bob lays a decoy. Violet and Green find it (+3 each),
    # Orange votes Green's card (Green +1), Pink votes the card of Blue's partner
    # (Blue +1): Blue 4, Green 4, Violet 3, Orange 0, Pink 0.
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    votes = {"vic": [2], "gil": [2], "oz": [1], "pia": [4]}
    score = game(ruleset, TEN).score(reveal(cards, votes))
    assert deltas(score) == {BLUE: 4, VIOLET: 3, GREEN: 4, ORANGE: 0, PINK: 0}
    assert score.reasons[BLUE] == (
        "+3 some teams, not all, found bea's card",
        "+1 one vote on bob's card",
    )
    assert score.reasons[GREEN] == (
        "+3 gil found the storyteller's card",
        "+1 one vote on gus's card",
    )
    assert score.reasons[ORANGE] == ("0 oz did not find the storyteller's card",)


def test_everybody_or_nobody_finding_gives_two_to_every_other_team() -> None:
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    everybody = game("teams", TEN).score(
        reveal(cards, {"vic": [2], "gil": [2], "oz": [2], "pia": [2]})
    )
    assert deltas(everybody) == {BLUE: 0, VIOLET: 2, GREEN: 2, ORANGE: 2, PINK: 2}
    nobody = game("teams", TEN).score(
        reveal(cards, {"vic": [4], "gil": [4], "oz": [4], "pia": [4]})
    )
    assert deltas(nobody) == {BLUE: 4, VIOLET: 2, GREEN: 2, ORANGE: 2, PINK: 2}


def test_teams_1e_caps_votes_per_card_at_three_and_teams_does_not() -> None:
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    votes = {"vic": [4], "gil": [4], "oz": [4], "pia": [4]}
    assert game("teams-1e", TEN).score(reveal(cards, votes)).deltas[BLUE] == 3
    assert game("teams", TEN).score(reveal(cards, votes)).deltas[BLUE] == 4


def test_six_players_in_teams_1e() -> None:
    six = ["ann", "bo", "cy", "al", "bea", "cid"]  # teams ann+al, bo+bea, cy+cid
    cards = {1: "ann", 2: "al", 3: "bo", 4: "cid"}
    score = game("teams-1e", six).score(reveal(cards, {"bea": [1], "cy": [2]}))
    assert deltas(score) == {"ann+al": 3 + 1, "bo+bea": 3, "cy+cid": 0}


@pytest.mark.parametrize("ruleset", ["teams", "teams-1e"])
def test_vote_for_partner_decoy_scores_one_for_the_voters_team(ruleset: str) -> None:
    # As the rulebook 004 example, but Orange's voter oz votes for the card his partner
    # ola laid: oz could not know it was hers, so the vote counts, Orange +1.
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    votes = {"vic": [2], "gil": [2], "oz": [5], "pia": [4]}
    score = game(ruleset, TEN).score(reveal(cards, votes))
    assert deltas(score) == {BLUE: 4, VIOLET: 3, GREEN: 3, ORANGE: 1, PINK: 0}
    assert score.reasons[ORANGE] == (
        "0 oz did not find the storyteller's card",
        "+1 one vote on ola's card",
    )


def test_teams_1e_caps_votes_on_the_voters_partner_card_like_any_card() -> None:
    # Every voter, oz included, votes for ola's decoy: nobody found bea's card (Orange
    # 2, as every other team) and ola's card draws four votes, capped at 3 in teams-1e.
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    votes = {"vic": [5], "gil": [5], "oz": [5], "pia": [5]}
    first = game("teams-1e", TEN).score(reveal(cards, votes))
    assert deltas(first) == {BLUE: 0, VIOLET: 2, GREEN: 2, ORANGE: 2 + 3, PINK: 2}
    assert first.reasons[ORANGE] == (
        "+2 nobody found the storyteller's card",
        "+3 four votes on ola's card, capped at 3",
    )
    later = game("teams", TEN).score(reveal(cards, votes))
    assert later.deltas[ORANGE] == 2 + 4


@st.composite
def team_games(draw: st.DrawFn) -> Game:
    """A new game of `teams` or `teams-1e`, any player count, cap and first storyteller."""
    rules = RULESETS[draw(st.sampled_from(sorted(TEAMS)))]
    players = COLOURS[: draw(st.sampled_from(rules.player_counts))]
    options: dict[str, int | None] = {}
    if draw(st.booleans()):
        options["bonus_cap"] = draw(st.sampled_from([None, 0, 1, 2, 3]))
    return Game.start(rules.with_options(options), players, draw(st.sampled_from(players)))


@st.composite
def partner_votes(draw: st.DrawFn, game: Game) -> Reveal:
    """A legal table for the next round of `game` where some voters vote for the card
    their partner laid (a voter's partner always laid one: that is why they vote)."""
    table = draw(legal_reveals(game))
    players = game.seating.players
    votes = dict(table.votes)
    for voter in votes:
        if draw(st.booleans()):
            votes[voter] = table.slots_of(partner(players, voter))
    return Reveal(table.cards, votes)


def expected_team_deltas(game: Game, table: Reveal) -> dict[str, int]:
    """RULES.md's team scoring: the storyteller part, then 1 per vote on each card a
    team's member laid other than the storyteller's, capped per card at `bonus_cap`."""
    players, teller, cap = game.seating.players, game.storyteller, game.ruleset.bonus_cap
    half = len(players) // 2

    def team(p: str) -> str:
        s = players.index(p) % half
        return f"{players[s]}+{players[s + half]}"

    result = {team(p): 0 for p in players}
    (target,) = (s for s, owner in table.cards.items() if owner == teller)
    found = [v for v, slots in table.votes.items() if target in slots]
    if len(found) in (0, len(table.votes)):
        for voter in table.votes:
            result[team(voter)] += 2
    else:
        result[team(teller)] += 3
        for voter in found:
            result[team(voter)] += 3
    for slot, owner in table.cards.items():
        if slot != target:
            received = sum(slot in slots for slots in table.votes.values())
            result[team(owner)] += received if cap is None else min(received, cap)
    return result


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_votes_for_the_partners_card_score_in_random_team_games(data: st.DataObject) -> None:
    state = data.draw(team_games())
    cap = state.ruleset.bonus_cap
    while state.outcome is None and state.round_number <= MAX_ROUNDS:
        table = data.draw(partner_votes(state))
        before, state = state, state.play(table)
        score = state.played[-1].score
        assert dict(score.deltas) == expected_team_deltas(before, table)
        for voter, (slot,) in table.votes.items():
            mate = before.seating.partner(voter)
            if table.cards[slot] != mate:
                continue
            received = len(table.votes_on(slot))
            (award,) = (
                a
                for a in score.awards[before.seating.team(voter)]
                if a.kind is AwardKind.VOTES_RECEIVED and f" on {mate}'s card" in str(a.reason)
            )
            assert award.points == (received if cap is None else min(received, cap))
