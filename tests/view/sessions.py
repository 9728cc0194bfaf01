"""Sessions in each phase of a game of Odyssey between Ann, Ben, Cleo and Dan, for the
screens' tests: waiting for round 1, proposing it, giving the game up, its winner."""

from companion.actions import Action, Press
from companion.journal import Journal
from companion.rules import Reveal, find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.states import Phase
from companion.vision.records import TableObservation
from tests.session.observations import table_of

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
ODYSSEY = find_ruleset("odyssey")
SLOTS = tuple(range(1, 9))
ROUND_1 = Reveal(
    {1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan"}, {"Ben": (1,), "Cleo": (2,), "Dan": (1,)}
)
EMPTY = TableObservation()


def started(journal: Journal, target: int | None = None) -> Session:
    """A game of Odyssey between Ann, Ben, Cleo and Dan, waiting for round 1."""
    rules = ODYSSEY if target is None else ODYSSEY.with_options({"target": target})
    session = Session.new(rules, LINEUP, JournalEffects(journal), Settings(SLOTS))
    session.press(Press(Action.CONFIRM), 0.0)
    session.see(EMPTY, True, 0.0)
    assert session.state.phase is Phase.WAITING
    return session


def proposing(journal: Journal) -> Session:
    """Round 1 laid out, still, and proposed."""
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    assert session.state.phase is Phase.PROPOSAL
    return session


def finished(journal: Journal) -> Session:
    """A game to 3 points that round 1 ends (Ben wins)."""
    session = started(journal, target=3)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    assert session.state.phase is Phase.WINNER
    return session


def giving_up(journal: Journal) -> Session:
    """Round 1 being played, and a long hold asking to give the game up."""
    session = started(journal)
    session.press(Press(Action.ABANDON), 10.0)
    assert session.state.phase is Phase.ABANDONING
    return session
