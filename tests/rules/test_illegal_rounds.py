"""Every illegal or malformed round raises its own error, naming round, player and slot."""

import pytest

from companion.errors import (
    DuplicateVoteError,
    EmptySlotVoteError,
    ExtraVoteError,
    GameOverError,
    IllegalRoundError,
    InvalidOptionError,
    MalformedRoundError,
    MissingCardError,
    MissingVoteError,
    OwnCardVoteError,
    PlayerCountError,
    SeatingError,
    StorytellerVoteError,
    TeamCardsError,
    TrapError,
    UnexpectedCardError,
    UnknownRulesetError,
    VoterLaidCardError,
)
from companion.rules import Game, find_ruleset
from tests.rules.helpers import game, numbered, reveal

FOUR = ["red", "blue", "green", "pink"]
EIGHT = ["red", "blue", "green", "pink", "white", "black", "orange", "violet"]
TEN = ["bea", "val", "gus", "ola", "pam", "bob", "vic", "gil", "oz", "pia"]
TEAM_CARDS = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
TEAM_VOTES = {"vic": [2], "gil": [2], "oz": [1], "pia": [4]}


def legal_four() -> dict[str, list[int]]:
    return {"blue": [1], "green": [2], "pink": [3]}


def fails(error: type[IllegalRoundError], message: str, g: Game, **table: object) -> None:
    """The round raises `error` with exactly `message`, and names the fault."""
    with pytest.raises(error) as caught:
        g.play(reveal(**table))  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_vote_for_own_card() -> None:
    votes = legal_four() | {"green": [3]}
    fails(
        OwnCardVoteError,
        "round 1: green voted for slot 3, their own card",
        game("classic", FOUR),
        cards=numbered(FOUR),
        votes=votes,
    )


def test_vote_for_own_card_carries_player_and_slot() -> None:
    problems = game("classic", FOUR).problems(reveal(numbered(FOUR), legal_four() | {"green": [3]}))
    (problem,) = problems
    assert (problem.round_number, problem.player, problem.slot) == (1, "green", 3)


def test_storyteller_votes_outside_party() -> None:
    votes = legal_four() | {"red": [2]}
    fails(
        StorytellerVoteError,
        "round 1: red is the storyteller and does not vote",
        game("classic", FOUR),
        cards=numbered(FOUR),
        votes=votes,
    )


def test_two_votes_on_one_slot() -> None:
    votes = {p: [1] for p in EIGHT[1:]} | {"blue": [3, 3]}
    fails(
        DuplicateVoteError,
        "round 1: blue voted twice for slot 3",
        game("odyssey", EIGHT),
        cards=numbered(EIGHT),
        votes=votes,
    )


def test_second_vote_where_one_is_allowed() -> None:
    votes = legal_four() | {"blue": [1, 3]}
    fails(
        ExtraVoteError,
        "round 1: blue cast two votes (slots 1 and 3); only one vote allowed",
        game("odyssey", FOUR),
        cards=numbered(FOUR),
        votes=votes,
    )


def test_third_vote_with_seven_or_more() -> None:
    votes = {p: [1] for p in EIGHT[1:]} | {"blue": [1, 3, 4]}
    fails(
        ExtraVoteError,
        "round 1: blue cast three votes (slots 1, 3 and 4); only two votes allowed",
        game("odyssey", EIGHT),
        cards=numbered(EIGHT),
        votes=votes,
    )


def test_vote_on_an_empty_slot() -> None:
    votes = legal_four() | {"pink": [7]}
    fails(
        EmptySlotVoteError,
        "round 1: pink voted for slot 7, which holds no card",
        game("classic", FOUR),
        cards=numbered(FOUR),
        votes=votes,
    )


def test_a_voter_who_has_not_voted() -> None:
    votes = {"blue": [1], "green": [2]}
    fails(
        MissingVoteError,
        "round 1: pink has not voted",
        game("classic", FOUR),
        cards=numbered(FOUR),
        votes=votes,
    )


def test_an_empty_vote_list_is_a_missing_vote() -> None:
    votes = legal_four() | {"pink": []}
    fails(
        MissingVoteError,
        "round 1: pink has not voted",
        game("classic", FOUR),
        cards=numbered(FOUR),
        votes=votes,
    )


def test_card_laid_by_the_wrong_player() -> None:
    cards = {1: "red", 2: "blue", 3: "green", 4: "pink", 5: "blue"}
    fails(
        UnexpectedCardError,
        "round 1: blue laid two cards (slots 2 and 5) but must lay one card",
        game("classic", FOUR),
        cards=cards,
        votes=legal_four(),
    )


def test_missing_card() -> None:
    cards = {1: "red", 2: "blue", 3: "green"}
    fails(
        MissingCardError,
        "round 1: pink has not laid a card; one card expected",
        game("classic", FOUR),
        cards=cards,
        votes=legal_four(),
    )


def test_three_players_must_lay_two_cards_each() -> None:
    cards = {1: "red", 2: "blue", 3: "green", 4: "blue"}
    fails(
        MissingCardError,
        "round 1: green laid only one card; two cards expected",
        game("classic", ["red", "blue", "green"]),
        cards=cards,
        votes={"blue": [1], "green": [2]},
    )


def test_a_card_of_someone_not_playing_is_malformed() -> None:
    cards = numbered(FOUR) | {5: "purple"}
    with pytest.raises(
        MalformedRoundError, match="the card on slot 5 belongs to 'purple', who is not playing"
    ):
        game("classic", FOUR).play(reveal(cards, legal_four()))


def test_a_vote_by_someone_not_playing_is_malformed() -> None:
    with pytest.raises(MalformedRoundError, match="round 1: 'purple' voted but is not playing"):
        game("classic", FOUR).play(reveal(numbered(FOUR), legal_four() | {"purple": [1]}))


@pytest.mark.parametrize("slot", [0, -3])
def test_slot_numbers_start_at_one(slot: int) -> None:
    with pytest.raises(MalformedRoundError, match=f"slot {slot} does not exist"):
        game("classic", FOUR).play(reveal(numbered(FOUR) | {slot: "red"}, legal_four()))


SIX = ["ana", "ben", "cam", "dan", "eve", "fay"]
PARTY_VOTES = {"ana": [2], "ben": [2], "cam": [2], "dan": [3], "eve": [6], "fay": [6]}


def test_missing_trap_in_party() -> None:
    fails(
        TrapError,
        "round 1: ana, the storyteller, has not set the trap",
        game("party", SIX),
        cards=numbered(SIX),
        votes=PARTY_VOTES,
    )


def test_trap_on_an_empty_slot() -> None:
    fails(
        TrapError,
        "round 1: the trap is on slot 9, which holds no card",
        game("party-1e", SIX),
        cards=numbered(SIX),
        votes=PARTY_VOTES,
        trap=9,
    )


def test_trap_outside_party() -> None:
    fails(
        TrapError,
        "round 1: a trap lies on slot 2, but this ruleset has no trap",
        game("classic", FOUR),
        cards=numbered(FOUR),
        votes=legal_four(),
        trap=2,
    )


def test_in_party_everybody_votes_exactly_once() -> None:
    votes = dict(PARTY_VOTES)
    del votes["ana"]
    fails(
        MissingVoteError,
        "round 1: ana has not voted",
        game("party", SIX),
        cards=numbered(SIX),
        votes=votes,
        trap=6,
    )
    fails(
        ExtraVoteError,
        "round 1: ana cast two votes (slots 2 and 3); only one vote allowed",
        game("party", SIX),
        cards=numbered(SIX),
        votes=PARTY_VOTES | {"ana": [2, 3]},
        trap=6,
    )


def test_team_that_laid_two_cards() -> None:
    cards = TEAM_CARDS | {7: "oz"}
    fails(
        TeamCardsError,
        "round 1: team ola+oz laid two cards (ola on slot 5, oz on slot 7); only one member may",
        game("teams", TEN),
        cards=cards,
        votes={"vic": [2], "gil": [2], "pia": [4]},
    )


def test_team_that_laid_no_card() -> None:
    cards = {k: v for k, v in TEAM_CARDS.items() if v != "ola"}
    votes = {"vic": [2], "gil": [2], "pia": [4]}
    fails(
        MissingCardError,
        "round 1: team ola+oz has not laid a card; one of them must",
        game("teams", TEN),
        cards=cards,
        votes=votes,
    )


def test_voter_who_laid_a_card_in_teams() -> None:
    votes = TEAM_VOTES | {"gus": [2]}
    fails(
        VoterLaidCardError,
        "round 1: gus voted (slot 2) but laid a card, so does not vote",
        game("teams", TEN),
        cards=TEAM_CARDS,
        votes=votes,
    )


def test_storyteller_partner_does_not_vote() -> None:
    votes = TEAM_VOTES | {"bob": [1]}
    fails(
        VoterLaidCardError,
        "round 1: bob voted (slot 1) but laid a card, so does not vote",
        game("teams", TEN),
        cards=TEAM_CARDS,
        votes=votes,
    )


def test_storyteller_votes_in_teams() -> None:
    votes = TEAM_VOTES | {"bea": [1]}
    fails(
        StorytellerVoteError,
        "round 1: bea is the storyteller and does not vote",
        game("teams-1e", TEN),
        cards=TEAM_CARDS,
        votes=votes,
    )


@pytest.mark.parametrize("ruleset", ["teams", "teams-1e"])
def test_vote_for_partner_card_in_teams_is_not_refused(ruleset: str) -> None:
    # oz cannot know which card ola laid: the vote is legal, scored in test_team_scoring.
    votes = TEAM_VOTES | {"oz": [5]}
    assert game(ruleset, TEN).problems(reveal(TEAM_CARDS, votes)) == ()


def test_card_layer_voting_for_own_card_in_teams() -> None:
    votes = TEAM_VOTES | {"ola": [5]}
    fails(
        VoterLaidCardError,
        "round 1: ola voted (slot 5) but laid a card, so does not vote",
        game("teams", TEN),
        cards=TEAM_CARDS,
        votes=votes,
    )


def test_storyteller_partner_must_lay_a_card() -> None:
    cards = {k: v for k, v in TEAM_CARDS.items() if v != "bob"}
    votes = {"vic": [2], "gil": [2], "oz": [1], "pia": [1]}
    fails(
        MissingCardError,
        "round 1: bob has not laid a card; one card expected",
        game("teams", TEN),
        cards=cards,
        votes=votes,
    )


def test_every_problem_is_listed_at_once() -> None:
    cards = {1: "red", 2: "blue", 3: "green"}
    votes = {"blue": [2], "red": [1], "green": [9]}
    problems = game("classic", FOUR).problems(reveal(cards, votes))
    assert [str(p) for p in problems] == [
        "round 1: pink has not laid a card; one card expected",
        "round 1: red is the storyteller and does not vote",
        "round 1: blue voted for slot 2, their own card",
        "round 1: green voted for slot 9, which holds no card",
        "round 1: pink has not voted",
    ]


def test_a_round_after_the_game_ended() -> None:
    g = game("party-1e", SIX)
    for _ in SIX:
        g = g.play(reveal(numbered(SIX), PARTY_VOTES, trap=6))
    with pytest.raises(GameOverError) as caught:
        g.play(reveal(numbered(SIX), PARTY_VOTES, trap=6))
    assert str(caught.value) == (
        "round 7: the game ended after round 6 (every player has told their turns)"
    )


def test_unknown_ruleset() -> None:
    with pytest.raises(UnknownRulesetError) as caught:
        find_ruleset("dixit-mega")
    assert str(caught.value) == (
        "unknown ruleset 'dixit-mega'; known rulesets are "
        "classic, classic-1e, odyssey, party-1e, party, teams-1e, teams"
    )
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("ruleset", "players", "message"),
    [
        ("classic", 9, "classic is played by 3, 4, 5, 6, 7, 8 players, not 9"),
        ("classic-1e", 7, "classic-1e is played by 3, 4, 5, 6 players, not 7"),
        ("odyssey", 2, "odyssey is played by 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 players, not 2"),
        ("party", 5, "party is played by 6, 7, 8, 9, 10, 11, 12 players, not 5"),
        ("teams-1e", 7, "teams-1e is played by 6, 8, 10, 12 players, not 7"),
        ("teams", 6, "teams is played by 8, 10, 12 players, not 6"),
    ],
)
def test_player_count_the_ruleset_does_not_allow(ruleset: str, players: int, message: str) -> None:
    names = [f"p{i}" for i in range(players)]
    with pytest.raises(PlayerCountError) as caught:
        game(ruleset, names)
    assert str(caught.value) == message


def test_first_storyteller_must_be_playing() -> None:
    with pytest.raises(SeatingError, match="first storyteller 'purple' is not one of the players"):
        game("classic", FOUR, first="purple")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["red", "blue", "red"], "player 'red' is seated twice"),
        (["red", "", "green"], "seat 2: a player needs a name, not ''"),
        (["red", "a+b", "green"], "player 'a+b': names may not contain '+'"),
    ],
)
def test_bad_player_names(players: list[str], message: str) -> None:
    with pytest.raises(SeatingError) as caught:
        game("classic", players)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": 0}, "classic: target must be at least 1, not 0"),
        ({"bonus_cap": -1}, "classic: bonus_cap must be 0 or more (or null for no cap), not -1"),
        ({"deck": None}, "classic: deck must be a number of cards, not null"),
        ({"deck": 20}, "classic: a deck of 20 cards cannot deal 6 cards to each of 4 players"),
        (
            {"target": None},
            "classic: with no target, storyteller_turns or round_limit the game never ends",
        ),
        ({"round_limit": 0}, "classic: round_limit must be at least 1, not 0"),
        (
            {"colour": 3},
            "classic: unknown option colour; "
            "options are target, bonus_cap, storyteller_turns, deck, round_limit",
        ),
    ],
)
def test_invalid_options(options: dict[str, int | None], message: str) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        game("classic", FOUR, **options)
    assert str(caught.value) == message
