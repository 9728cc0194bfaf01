"""A full card at the table, on a real small filesystem: the game goes on.

A round that cannot keep its pictures is kept without them and the screen says so; a
round that cannot be written at all is refused with a clear message and nothing
half-written; the table recovers by itself once there is room again.
"""

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.actions import Action, Press
from companion.journal import History, Journal, RoundImages
from companion.rules import Reveal, RoundScore, find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.states import Phase
from companion.view.present import present
from companion.vision.records import TableObservation
from tests.session.observations import table_of
from tests.small_disk import SmallDisk, small_disk

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
ROUNDS = (
    Reveal({1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan"}, {"Ben": (1,), "Cleo": (2,), "Dan": (1,)}),
    Reveal({1: "Ben", 2: "Ann", 3: "Cleo", 4: "Dan"}, {"Ann": (1,), "Cleo": (2,), "Dan": (3,)}),
    Reveal({1: "Cleo", 2: "Ann", 3: "Ben", 4: "Dan"}, {"Ann": (1,), "Ben": (1,), "Dan": (2,)}),
)
PICTURE_BYTES = 150_000
"""A round's pictures at their largest (`companion.imaging.evidence`)."""


def pictures(_: RoundScore | None) -> RoundImages:
    """Pictures that do not compress: every round's take their full size on the card."""
    noise = random.Random(len(_.round.reveal.cards) if _ else 0)
    return RoundImages(noise.randbytes(PICTURE_BYTES - 30_000), noise.randbytes(30_000))


@pytest.fixture
def card(tmp_path: Path) -> Iterator[SmallDisk]:
    with small_disk(tmp_path / "card", "3m") as disk:
        yield disk


def playing(journal: Journal) -> Session:
    session = Session.new(
        find_ruleset("odyssey"),
        LINEUP,
        JournalEffects(journal, pictures),
        Settings(tuple(range(1, 9))),
    )
    session.press(Press(Action.CONFIRM), 0.0)
    session.see(TableObservation(), True, 0.0)
    assert session.state.phase is Phase.WAITING
    return session


def lay_and_confirm(session: Session, reveal: Reveal, now: float) -> str:
    """Lay a round, confirm it; returns the message on the screen."""
    session.see(table_of(reveal, LINEUP), True, now)
    assert session.state.phase is Phase.PROPOSAL
    session.press(Press(Action.CONFIRM), now + 0.1)
    return message(session, now + 0.1)


def message(session: Session, now: float) -> str:
    return " / ".join(str(n.text) for n in present(session.state, now, None).notices)


def clear(session: Session, now: float) -> None:
    session.see(TableObservation(), True, now)
    assert session.state.phase is Phase.WAITING


def test_a_round_without_room_for_its_pictures_is_kept_without_them_and_said(
    card: SmallDisk,
) -> None:
    with Journal(card.root / "journal.sqlite") as journal:
        session = playing(journal)
        assert "round 1 scored" in lay_and_confirm(session, ROUNDS[0], 10.0)
        clear(session, 16.0)
        card.fill(leave=40_000)
        said = lay_and_confirm(session, ROUNDS[1], 20.0)
        assert "round 2 scored, without its pictures: the memory card is full" in said
        rounds = History(journal).rounds(session.state.game_id or 0)
        assert [(r.number, r.has_frame) for r in rounds] == [(1, True), (2, False)]


def test_a_round_that_cannot_be_written_is_refused_whole_and_kept_once_there_is_room(
    card: SmallDisk,
) -> None:
    path = card.root / "journal.sqlite"
    with Journal(path) as journal:
        session = playing(journal)
        lay_and_confirm(session, ROUNDS[0], 10.0)
        clear(session, 16.0)
        card.fill()
        said = lay_and_confirm(session, ROUNDS[1], 20.0)
        assert "round 2 was NOT saved: the memory card is full; make room and confirm again" in said
        assert session.state.phase is Phase.PROPOSAL
        assert len(session.state.game.played) == 1
        game_id = session.state.game_id or 0
        assert [r.number for r in History(journal).rounds(game_id)] == [1]
        card.filler.unlink()
        session.press(Press(Action.CONFIRM), 21.0)
        assert "round 2 scored" in message(session, 21.0)
        assert [(r.number, r.has_frame) for r in History(journal).rounds(game_id)] == [
            (1, True),
            (2, True),
        ]
    with Journal(path) as again:
        stored = again.resume()
        assert stored is not None and len(stored.game.played) == 2
