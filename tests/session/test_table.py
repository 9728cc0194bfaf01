"""Reading a settled table as the next round: waiting lists, problems, notes."""

from companion.kit.tags import KitTag, Role
from companion.phrases import Phrase
from companion.rules import Game, Reveal, find_ruleset
from companion.session.lineup import Lineup
from companion.session.table import read_table
from companion.vision.records import SlotContents, TableObservation, Unplaced, Vote

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
GAME = Game.start(find_ruleset("odyssey"), LINEUP.names, "Ann")


def table(slots: dict[int, SlotContents], **more: object) -> TableObservation:
    return TableObservation(slots, **more)  # type: ignore[arg-type]


def english(phrases: tuple[Phrase, ...]) -> tuple[str, ...]:
    """The phrases as an English-speaking table shows them."""
    return tuple(str(p) for p in phrases)


def laid_out() -> dict[int, SlotContents]:
    """Ann tells on slot 1; Ben, Cleo, Dan lay on 2, 3, 4; Ben and Cleo vote 1, Dan votes 2."""
    return {
        1: SlotContents(("red",), (Vote("blue", 1), Vote("green", 1))),
        2: SlotContents(("blue",), (Vote("yellow", 1),)),
        3: SlotContents(("green",)),
        4: SlotContents(("yellow",)),
    }


def test_an_empty_table_waits_for_every_owner_token_and_vote() -> None:
    report = read_table(TableObservation(), GAME, LINEUP)
    assert english(report.waiting) == (
        "waiting for votes from Ben, Cleo and Dan",
        "owner tokens missing: Ann, Ben, Cleo and Dan",
    )
    assert report.problems == ()
    assert not report.ready
    assert report.cleared


def test_a_complete_legal_table_is_ready_with_names_not_colours() -> None:
    report = read_table(table(laid_out()), GAME, LINEUP)
    assert report.ready
    assert report.reveal == Reveal(
        {1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan"}, {"Ben": (1,), "Cleo": (1,), "Dan": (2,)}
    )
    assert report.tokens == 7


def test_missing_votes_are_listed_by_name() -> None:
    slots = laid_out()
    slots[2] = SlotContents(("blue",))
    report = read_table(table(slots), GAME, LINEUP)
    assert english(report.waiting) == ("waiting for votes from Dan",)
    assert report.problems == ()


def test_a_vote_for_ones_own_card_is_a_problem_naming_player_and_slot() -> None:
    slots = laid_out()
    slots[2] = SlotContents(("blue",))
    slots[4] = SlotContents(("yellow",), (Vote("yellow", 1),))
    report = read_table(table(slots), GAME, LINEUP)
    assert english(report.problems) == ("Dan voted for slot 4, their own card",)
    assert not report.ready


def test_two_owner_tokens_on_one_slot_is_a_problem() -> None:
    slots = laid_out()
    slots[3] = SlotContents(("green", "yellow"))
    del slots[4]
    report = read_table(table(slots), GAME, LINEUP)
    assert "2 owner tokens on slot 3 (Cleo and Dan): one card has one owner" in english(
        report.problems
    )


def test_a_token_of_a_colour_nobody_plays_is_a_problem() -> None:
    slots = laid_out()
    slots[5] = SlotContents((), (Vote("pink", 1),))
    report = read_table(table(slots), GAME, LINEUP)
    assert english(report.problems) == ("a pink vote dial lies on slot 5, but nobody plays pink",)


def test_a_token_off_the_cards_is_a_problem_until_moved() -> None:
    text = KitTag("CAFE1", Role.VOTE, colour="yellow", index=1).text
    slots = laid_out()
    slots[2] = SlotContents(("blue",))
    report = read_table(table(slots, unplaced=(Unplaced(text, "between slots"),)), GAME, LINEUP)
    assert english(report.problems) == (
        "Dan's vote dial 1 lies off the cards: put it on a card or take it away",
    )
    assert not report.cleared


def test_another_kits_tag_is_shown_but_does_not_block_scoring() -> None:
    other = KitTag("NEXT2", Role.VOTE, colour="red", index=1).text
    report = read_table(table(laid_out(), foreign=(other, "https://menu.example")), GAME, LINEUP)
    assert english(report.alerts) == ("a tag of another kit (NEXT2) is on the table",)
    assert english(report.notes) == ("1 QR code in view that the companion ignores",)
    assert report.ready


def test_a_missing_trap_is_waited_for_in_party() -> None:
    lineup = Lineup.of_colours(6)
    game = Game.start(find_ruleset("party"), lineup.names, lineup.names[0])
    report = read_table(TableObservation(), game, lineup)
    assert "Red: trap dial missing" in english(report.waiting)


def test_a_team_that_has_not_laid_its_card_is_named_as_the_scoreboard_names_it() -> None:
    lineup = Lineup.of_colours(8)  # partners sit opposite: seats i and i + 4
    game = Game.start(find_ruleset("teams"), lineup.names, "Red")
    report = read_table(TableObservation(), game, lineup)
    (owners,) = [line for line in english(report.waiting) if "owner" in line]
    assert "Blue + Black" in owners and "Yellow + Pink" in owners
