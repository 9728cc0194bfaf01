"""Tables as the reader would report them, built from what was laid."""

from companion.rules import Reveal
from companion.session.lineup import Lineup
from companion.vision.records import SlotContents, TableObservation, Vote


def table_of(reveal: Reveal, lineup: Lineup) -> TableObservation:
    """The table a reveal leaves: owner tokens and dials in the players' colours."""
    slots: dict[int, SlotContents] = {}
    for slot, owner in reveal.cards.items():
        slots[slot] = SlotContents((lineup.colour_of(owner),))
    for voter, voted in reveal.votes.items():
        for dial, slot in enumerate(voted, start=1):
            contents = slots.get(slot, SlotContents())
            vote = Vote(lineup.colour_of(voter), dial)
            slots[slot] = SlotContents(contents.owners, (*contents.votes, vote), contents.trap)
    return TableObservation(slots)
