"""The table's problems from the reader: a token lying twice, a board that is not the
calibrated one. Either stops the round being proposed while it lasts."""

from companion.kit.tags import KitTag, Role
from companion.phrases import Phrase, verbatim
from companion.rules import Game, find_ruleset
from companion.session.lineup import Lineup
from companion.session.table import read_table
from companion.vision.records import Duplicate, SlotContents, TableObservation, Vote

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
GAME = Game.start(find_ruleset("odyssey"), LINEUP.names, "Ann")


def laid_out() -> dict[int, SlotContents]:
    """A legal round, but for Ben's vote dial, which lies twice elsewhere."""
    return {
        1: SlotContents(("red",), (Vote("green", 1),)),
        2: SlotContents(("blue",), (Vote("yellow", 1),)),
        3: SlotContents(("green",)),
        4: SlotContents(("yellow",)),
    }


def english(phrases: tuple[Phrase, ...]) -> tuple[str, ...]:
    """The phrases as an English-speaking table shows them."""
    return tuple(str(p) for p in phrases)


def test_a_vote_dial_lying_twice_is_a_problem_naming_its_player_and_slots() -> None:
    copy = Duplicate(KitTag("CAFE1", Role.VOTE, colour="blue", index=1).text, (2, 5))
    report = read_table(TableObservation(laid_out(), duplicates=(copy,)), GAME, LINEUP)
    assert "Ben's vote dial 1 is on the table twice (slots 2 and 5)" in english(report.problems)
    assert not report.ready
    assert report.tokens == 8


def test_an_owner_token_and_the_trap_dial_lying_twice_are_problems_too() -> None:
    owner = Duplicate(KitTag("CAFE1", Role.OWNER, colour="green", index=1).text, (3,), 1)
    trap = Duplicate(KitTag("CAFE1", Role.TRAP).text, (), 3)
    report = read_table(TableObservation(laid_out(), duplicates=(owner, trap)), GAME, LINEUP)
    assert english(report.problems[-2:]) == (
        "Cleo's owner token 1 is on the table twice (slot 3 and off the cards)",
        "the trap dial is on the table 3 times (3 off the cards)",
    )


def test_a_board_that_is_not_the_calibrated_one_is_the_first_problem() -> None:
    seen = "the board in view is not the board of layout classic-8 this table was calibrated on"
    votes = {**laid_out(), 1: SlotContents(("red",), (Vote("green", 1), Vote("blue", 1)))}
    report = read_table(TableObservation(votes, wrong_board=verbatim(seen)), GAME, LINEUP)
    assert english(report.problems) == (f"{seen}: run `companion calibrate` again",)
    assert not report.ready
