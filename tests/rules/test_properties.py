"""Properties over random legal games of every ruleset (hypothesis)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import GameOverError, IllegalRoundError
from companion.rules import AwardKind, Game, Reveal
from tests.rules.reference import reference_deltas
from tests.rules.strategies import games, last_round_by_deck, legal_reveals

MAX_ROUNDS = 40
"""Long enough for most games to end; every property is checked round by round."""

STORYTELLER_POINTS = {"classic": {0, 3}, "classic-1e": {0, 3}, "odyssey": {0, 3}}


def play_out(data: st.DataObject) -> list[Game]:
    """A random legal game, as the list of its states from the start."""
    states = [data.draw(games())]
    while states[-1].outcome is None and len(states) <= MAX_ROUNDS:
        states.append(states[-1].play(data.draw(legal_reveals(states[-1]))))
    return states


def ends_now(before: Game, after: Game) -> bool:
    """Whether, by the edition's rule, the round just played is the last."""
    rules, n, number = after.ruleset, len(after.seating), before.round_number
    if rules.target is not None and max(after.totals.values()) >= rules.target:
        return True
    if rules.storyteller_turns is not None and number == rules.storyteller_turns * n:
        return True
    if rules.round_limit is not None and number == rules.round_limit:
        return True
    return number == last_round_by_deck(before)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_scores_agree_with_the_reference_reading_of_the_rules(data: st.DataObject) -> None:
    states = play_out(data)
    for before, after in itertools.pairwise(states):
        table = after.played[-1].score.round.reveal
        assert dict(after.played[-1].score.deltas) == reference_deltas(before, table)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_totals_equal_the_sum_of_deltas(data: st.DataObject) -> None:
    final = play_out(data)[-1]
    for scorer, total in final.totals.items():
        assert total == sum(p.score.deltas[scorer] for p in final.played)
    for played in final.played:
        for scorer, awards in played.score.awards.items():
            assert played.score.deltas[scorer] == sum(a.points for a in awards)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_storyteller_scores_zero_or_three(data: st.DataObject) -> None:
    final = play_out(data)[-1]
    name, n = final.ruleset.name, len(final.seating)
    allowed = STORYTELLER_POINTS.get(name)
    if allowed is None:
        return
    if name == "classic-1e" and n == 3:
        allowed = {0, 4} | allowed
    for played in final.played:
        assert played.score.deltas[played.score.round.storyteller] in allowed


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_no_bonus_exceeds_the_cap(data: st.DataObject) -> None:
    final = play_out(data)[-1]
    cap = final.ruleset.bonus_cap
    capped = {AwardKind.VOTES_RECEIVED, AwardKind.POPULARITY}
    for played in final.played:
        for awards in played.score.awards.values():
            for award in awards:
                if award.kind in capped and cap is not None:
                    assert award.points <= cap
                if award.kind is AwardKind.VOTES_RECEIVED and final.ruleset.name not in (
                    "teams",
                    "teams-1e",
                ):
                    assert sum(a.points for a in awards if a.kind is award.kind) == award.points


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_game_ends_exactly_when_the_edition_says(data: st.DataObject) -> None:
    states = play_out(data)
    for before, after in itertools.pairwise(states):
        assert (after.outcome is not None) == ends_now(before, after)
    final = states[-1]
    if final.outcome is not None:
        best = max(final.totals.values())
        assert final.outcome.winners == tuple(s for s, t in final.totals.items() if t == best)
        with pytest.raises(GameOverError):
            final.play(data.draw(legal_reveals(final.undo())))


@settings(max_examples=100, deadline=None)
@given(st.data(), st.integers(1, 12))
def test_a_game_never_exceeds_its_round_limit(data: st.DataObject, limit: int) -> None:
    start = data.draw(games())
    rules = start.ruleset.with_options({"round_limit": limit})
    states = [Game(rules, start.seating, start.first_storyteller)]
    while states[-1].outcome is None:
        assert len(states[-1].played) < limit
        states.append(states[-1].play(data.draw(legal_reveals(states[-1]))))
    final = states[-1]
    assert len(final.played) <= limit
    if len(final.played) == limit:
        assert final.outcome is not None
    with pytest.raises(GameOverError):
        final.play(data.draw(legal_reveals(final.undo())))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_undo_returns_every_earlier_state(data: st.DataObject) -> None:
    states = play_out(data)
    game = states[-1]
    for earlier in reversed(states[:-1]):
        game = game.undo()
        assert game == earlier


def _drop_a_vote(table: Reveal, data: st.DataObject) -> Reveal:
    voter = data.draw(st.sampled_from(sorted(table.votes)))
    return Reveal(table.cards, {v: s for v, s in table.votes.items() if v != voter}, table.trap)


def _vote_on_an_empty_slot(table: Reveal, data: st.DataObject) -> Reveal:
    voter = data.draw(st.sampled_from(sorted(table.votes)))
    votes = dict(table.votes) | {voter: (*table.votes[voter][:1], 13)}
    return Reveal(table.cards, votes, table.trap)


def _move_a_card(table: Reveal, data: st.DataObject) -> Reveal:
    slot = data.draw(st.sampled_from(sorted(table.cards)))
    owners = sorted(set(table.cards.values()) | set(table.votes))
    owner = data.draw(st.sampled_from([p for p in owners if p != table.cards[slot]]))
    return Reveal(dict(table.cards) | {slot: owner}, table.votes, table.trap)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_broken_tables_are_refused(data: st.DataObject) -> None:
    game = data.draw(games())
    table = data.draw(legal_reveals(game))
    breaking = data.draw(st.sampled_from([_drop_a_vote, _vote_on_an_empty_slot, _move_a_card]))
    broken = breaking(table, data)
    assert game.problems(broken)
    with pytest.raises(IllegalRoundError):
        game.play(broken)
