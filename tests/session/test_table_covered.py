"""A token hidden under another is named on the screen and never scored without: in an
Odyssey game of seven or more a second vote dial may be left out and the round still be
legal, so only the problem stops a wrong score being proposed."""

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion.actions import Action, Press
from companion.display.view import Level
from companion.journal import Journal, RoundImages
from companion.kit.tags import KitTag, Role
from companion.rules import Game, Reveal, find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.states import Phase
from companion.session.table import read_table
from companion.view.present import present
from companion.vision.records import Covered, SlotContents, TableObservation, Vote
from tests.session.observations import table_of

ODYSSEY = find_ruleset("odyssey")
EIGHT = Lineup(
    ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal"),
    ("red", "blue", "green", "yellow", "white", "black", "orange", "pink"),
)
DANS_SECOND_DIAL = KitTag("CAFE1", Role.VOTE, colour="yellow", index=2).text
ANNS_OWNER_TOKEN = KitTag("CAFE1", Role.OWNER, colour="red", index=1).text
UNDER_ANNS_CARD = Covered(DANS_SECOND_DIAL, 5, ANNS_OWNER_TOKEN)
HIDDEN = "Dan's vote dial 2 lies under Ann's owner token 1 on slot 5: move them apart"
SEEN = Reveal(
    {5: "Ann", 1: "Ben", 2: "Cleo", 3: "Dan", 4: "Eve", 6: "Fay", 7: "Gus", 8: "Hal"},
    {
        "Ben": (5,),
        "Cleo": (5,),
        "Dan": (2,),
        "Eve": (1,),
        "Fay": (2,),
        "Gus": (8,),
        "Hal": (5,),
    },
)
"""Ann tells on slot 5; Dan's second dial, on slot 5 too, lies under Ann's owner token."""
BOTH = Reveal(SEEN.cards, {**SEEN.votes, "Dan": (2, 5)})
"""The round with Dan's second dial where it was last seen."""


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j


def covered_table() -> TableObservation:
    return replace(table_of(SEEN, EIGHT), covered=(UNDER_ANNS_CARD,))


def test_a_token_under_another_is_a_problem_naming_both_tokens_and_the_slot() -> None:
    lineup = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
    game = Game.start(ODYSSEY, lineup.names, "Ann")
    slots = {
        1: SlotContents(("red",), (Vote("blue", 1), Vote("green", 1))),
        2: SlotContents(("blue",)),
        3: SlotContents(("green",)),
        5: SlotContents(("yellow",)),
    }
    seen = TableObservation(slots, covered=(Covered(DANS_SECOND_DIAL, 5, ANNS_OWNER_TOKEN),))
    report = read_table(seen, game, lineup)
    assert HIDDEN in [str(p) for p in report.problems]
    assert not report.ready
    assert report.tokens == 7


def test_a_covered_token_keeps_the_table_from_being_clear() -> None:
    game = Game.start(ODYSSEY, EIGHT.names, "Ann")
    report = read_table(TableObservation(covered=(UNDER_ANNS_CARD,)), game, EIGHT)
    assert report.tokens == 1
    assert not report.cleared


def test_a_covered_second_dial_at_eight_is_not_ready_though_the_rest_is_legal() -> None:
    game = Game.start(ODYSSEY, EIGHT.names, "Ann")
    assert game.problems(SEEN) == ()
    report = read_table(covered_table(), game, EIGHT)
    assert report.reveal == BOTH  # counted where it was last seen...
    assert report.waiting == ()
    assert [str(p) for p in report.problems] == [HIDDEN]  # ...and named, which holds it back
    assert not report.ready


def test_a_covered_owner_token_or_only_vote_is_named_alone() -> None:
    """Counted where it was last seen, a covered token does not also make its card look
    ownerless or its voter look as if they had not voted."""
    game = Game.start(ODYSSEY, EIGHT.names, "Ann")
    hals = KitTag("CAFE1", Role.VOTE, colour="pink", index=1).text
    without = Reveal(SEEN.cards, {v: s for v, s in SEEN.votes.items() if v != "Hal"})
    observation = replace(table_of(without, EIGHT), covered=(Covered(hals, 5, ANNS_OWNER_TOKEN),))
    report = read_table(observation, game, EIGHT)
    assert report.waiting == ()
    assert [str(p) for p in report.problems] == [
        "Hal's vote dial 1 lies under Ann's owner token 1 on slot 5: move them apart"
    ]


def test_a_covered_second_dial_is_never_proposed_and_is_named_on_the_screen(
    journal: Journal,
) -> None:
    settings = Settings(tuple(range(1, 13)), auto_confirm=3.0)
    session = Session.new(
        ODYSSEY,
        EIGHT,
        JournalEffects(journal, lambda _: RoundImages(b"frame", b"overlay")),
        settings,
    )
    session.press(Press(Action.CONFIRM), 0.0)
    session.see(TableObservation(), True, 0.0)
    assert session.state.phase is Phase.WAITING
    session.see(covered_table(), True, 1.0)
    session.tick(10.0)
    assert session.state.phase is Phase.WAITING
    assert session.state.proposal is None
    assert session.state.game.played == ()
    view = present(session.state, 10.0, None)
    said = [(n.text, n.level) for n in view.notices]
    assert (HIDDEN, Level.PROBLEM) in said or view.headline.endswith(HIDDEN)
    session.see(table_of(BOTH, EIGHT), True, 11.0)
    assert session.state.proposal is not None
    assert session.state.proposal.round.reveal == BOTH
