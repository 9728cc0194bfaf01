"""Tokens as the players call them, and a token lying twice, in words."""

from companion.kit.tags import KitTag, Role
from companion.vision.assign import token_label
from companion.vision.records import Duplicate

VOTE = KitTag("CAFE1", Role.VOTE, colour="red", index=1)
OWNER = KitTag("CAFE1", Role.OWNER, colour="blue", index=2)
TRAP = KitTag("CAFE1", Role.TRAP)


def test_a_token_is_named_after_its_player_or_else_its_colour() -> None:
    assert str(token_label(VOTE, "Ann")) == "Ann's vote dial 1"
    assert str(token_label(OWNER, "Ben")) == "Ben's owner token 2"
    assert str(token_label(VOTE)) == "red's vote dial 1"
    assert str(token_label(OWNER)) == "blue's owner token 2"
    assert str(token_label(TRAP, "Ann")) == "the trap dial"


def test_a_token_lying_twice_names_every_place_it_lies() -> None:
    twice = Duplicate(VOTE.text, (2, 5))
    assert str(twice.worded(token_label(VOTE, "Ann"))) == (
        "Ann's vote dial 1 is on the table twice (slots 2 and 5)"
    )
    one_off = Duplicate(OWNER.text, (3,), 1)
    assert str(one_off.worded("Ben's owner token 2")) == (
        "Ben's owner token 2 is on the table twice (slot 3 and off the cards)"
    )
    many = Duplicate(TRAP.text, (1, 4), 2)
    assert str(many.worded(token_label(TRAP))) == (
        "the trap dial is on the table 4 times (slots 1 and 4 and 2 off the cards)"
    )
