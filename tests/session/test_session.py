"""The session's phases: setup, proposal, auto-confirm, clearing, undo, resume, winner."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.actions import Action, Press
from companion.display.view import Level
from companion.journal import History, Journal, RoundImages
from companion.rules import Reveal, find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.states import ANIMATION_SECONDS, Phase
from companion.view.present import present
from companion.vision.records import SlotContents, TableObservation
from tests.session.observations import table_of

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
ODYSSEY = find_ruleset("odyssey")
SLOTS = tuple(range(1, 9))
ROUND_1 = Reveal(
    {1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan"}, {"Ben": (1,), "Cleo": (2,), "Dan": (1,)}
)


EMPTY = TableObservation()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j


def new_session(journal: Journal, auto_confirm: float | None = None) -> Session:
    settings = Settings(SLOTS, auto_confirm=auto_confirm)
    return Session.new(
        ODYSSEY,
        LINEUP,
        JournalEffects(journal, lambda _: RoundImages(b"frame", b"overlay")),
        settings,
    )


def started(journal: Journal, auto_confirm: float | None = None) -> Session:
    session = new_session(journal, auto_confirm)
    session.press(Press(Action.CONFIRM), 0.0)
    session.see(EMPTY, True, 0.0)
    assert session.state.phase is Phase.WAITING
    return session


def test_a_new_game_asks_for_a_clear_table_naming_the_first_storyteller(
    journal: Journal,
) -> None:
    session = new_session(journal)
    session.press(Press(Action.CONFIRM), 0.0)
    assert session.state.phase is Phase.CLEARING
    first = session.state.game.first_storyteller
    assert present(session.state, 0.0, None).headline == f"{first} tells first. Clear the table"


def test_an_owner_token_laid_alone_chooses_the_first_storyteller(journal: Journal) -> None:
    session = new_session(journal)
    session.see(EMPTY, True, 0.0)
    session.see(TableObservation({5: SlotContents(("green",))}), False, 0.0)
    assert session.state.phase is Phase.SETUP
    session.see(TableObservation({5: SlotContents(("green",))}), True, 0.1)
    assert session.state.phase is Phase.CLEARING
    assert session.state.game.first_storyteller == "Cleo"
    session.see(TableObservation({5: SlotContents(("green",))}), True, 0.2)
    assert session.state.phase is Phase.CLEARING
    session.see(EMPTY, True, 0.3)
    assert session.state.phase is Phase.WAITING
    assert present(session.state, 0.3, None).headline == "Round 1: Cleo tells"


def test_next_and_a_touch_choose_the_first_storyteller_and_confirm_starts(journal: Journal) -> None:
    session = new_session(journal)
    session.press(Press(Action.NEXT), 0.0)
    view = present(session.state, 0.0, None).setup
    assert view is not None and view.choices[1].selected
    session.press(Press(Action.PICK, 3), 0.0)
    session.press(Press(Action.CONFIRM), 0.0)
    assert session.state.game.first_storyteller == "Dan"
    assert journal.resume() is not None


def test_a_legal_still_table_is_proposed_and_confirmed_into_the_journal(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), False, 1.0)
    assert session.state.phase is Phase.WAITING
    view = present(session.state, 1.0, None)
    assert "hold still: the table is settling" in [n.text for n in view.notices]
    session.see(table_of(ROUND_1, LINEUP), True, 1.1)
    assert session.state.phase is Phase.PROPOSAL
    assert History(journal).rounds(session.state.game_id or 0) == ()
    session.press(Press(Action.CONFIRM), 1.2)
    assert session.state.phase is Phase.CLEARING
    assert dict(session.state.game.totals) == {"Ann": 3, "Ben": 4, "Cleo": 0, "Dan": 3}
    images = History(journal).images(session.state.game_id or 0, 1)
    assert (images.frame, images.overlay) == (b"frame", b"overlay")


def test_the_proposal_is_withdrawn_when_the_table_changes(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    assert session.state.phase is Phase.PROPOSAL
    moved = Reveal(ROUND_1.cards, {**ROUND_1.votes, "Dan": (3,)})
    session.see(table_of(moved, LINEUP), False, 1.1)
    assert session.state.phase is Phase.WAITING and session.state.proposal is None
    session.press(Press(Action.CONFIRM), 1.2)
    assert session.state.game.played == ()
    session.see(table_of(moved, LINEUP), True, 1.3)
    assert session.state.proposal is not None and session.state.proposal.round.reveal == moved


def test_auto_confirm_counts_down_then_commits(journal: Journal) -> None:
    session = started(journal, auto_confirm=3.0)
    session.see(table_of(ROUND_1, LINEUP), True, 10.0)
    session.tick(11.0)
    assert session.state.countdown(11.0) == pytest.approx(2.0)
    assert session.state.phase is Phase.PROPOSAL
    session.tick(13.0)
    assert session.state.phase is Phase.CLEARING
    assert len(History(journal).rounds(session.state.game_id or 0)) == 1


def test_a_frame_that_missed_most_of_the_table_neither_starts_nor_confirms_a_proposal(
    journal: Journal,
) -> None:
    """A camera hunting for focus, or an arm over the board, sees too little to judge:
    the tokens just laid may be missing from what it shows."""
    session = started(journal, auto_confirm=3.0)
    session.see(table_of(ROUND_1, LINEUP), True, 10.0, blind=True)
    assert session.state.phase is Phase.WAITING
    session.see(table_of(ROUND_1, LINEUP), True, 10.1)
    assert session.state.phase is Phase.PROPOSAL
    session.see(table_of(ROUND_1, LINEUP), True, 12.0, blind=True)
    assert session.state.phase is Phase.PROPOSAL  # no news: the proposal stays...
    session.tick(14.0)
    assert session.state.phase is Phase.PROPOSAL  # ...but does not confirm itself blind
    assert session.state.countdown(14.0) == 0.0
    session.see(table_of(ROUND_1, LINEUP), True, 14.1)
    session.tick(14.2)
    assert session.state.phase is Phase.CLEARING
    assert len(History(journal).rounds(session.state.game_id or 0)) == 1


def test_the_rabbits_hop_to_their_new_totals(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    halfway = session.state.positions(1.0 + ANIMATION_SECONDS / 2)
    assert 0 < halfway["Ben"] < 4
    assert session.state.positions(1.0 + ANIMATION_SECONDS)["Ben"] == 4


def test_the_next_round_starts_once_the_table_is_cleared(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    session.see(table_of(ROUND_1, LINEUP), True, 5.0)
    assert session.state.phase is Phase.CLEARING
    notices = [
        n.text for n in present(session.state, 5.0, None).notices if n.level is Level.WAITING
    ]
    assert notices == ["seven tokens still on the table"]
    session.see(EMPTY, True, 6.0)
    assert session.state.phase is Phase.WAITING
    assert session.state.game.storyteller == "Ben"


def test_a_table_left_from_the_scored_round_is_never_scored_again(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    session.press(Press(Action.CONFIRM), 5.0)
    session.see(table_of(ROUND_1, LINEUP), True, 5.1)
    assert session.state.phase is Phase.WAITING and session.state.proposal is None
    texts = [n.text for n in present(session.state, 5.1, None).notices]
    assert "the table still shows round 1, already scored: clear it" in texts


def test_undo_takes_back_the_last_round_in_the_journal(journal: Journal) -> None:
    session = started(journal)
    session.press(Press(Action.UNDO), 0.5)
    assert "there is no round to undo" in [
        n.text for n in present(session.state, 0.5, None).notices
    ]
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    session.press(Press(Action.UNDO), 2.0)
    assert session.state.game.played == ()
    assert History(journal).rounds(session.state.game_id or 0) == ()
    assert session.state.phase is Phase.WAITING


def test_a_round_the_journal_cannot_save_is_not_counted(journal: Journal) -> None:
    session = started(journal, auto_confirm=1.0)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    journal.close()
    session.tick(2.0)
    assert session.state.game.played == ()
    assert session.state.phase is Phase.PROPOSAL
    assert any("NOT saved" in n.text for n in present(session.state, 2.0, None).notices)
    assert session.state.countdown(3.0) is None


def test_a_restarted_session_goes_on_after_the_last_committed_round(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = started(journal)
        session.see(table_of(ROUND_1, LINEUP), True, 1.0)
        session.press(Press(Action.CONFIRM), 1.0)
        totals = dict(session.state.game.totals)
    with Journal(tmp_path / "journal.sqlite") as journal:
        stored = journal.resume()
        assert stored is not None
        again = Session.resumed(stored, JournalEffects(journal), Settings(SLOTS))
        assert again.state.phase is Phase.WAITING
        assert dict(again.state.game.totals) == totals
        assert again.state.lineup == LINEUP
        assert again.state.game.storyteller == "Ben"


def test_the_winner_screen_leads_to_a_new_game_or_back_by_undo(journal: Journal) -> None:
    short = ODYSSEY.with_options({"target": 3})
    session = Session.new(short, LINEUP, JournalEffects(journal), Settings(SLOTS))
    session.press(Press(Action.CONFIRM), 0.0)
    session.see(EMPTY, True, 0.0)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    assert session.state.phase is Phase.WINNER
    winner = present(session.state, 9.0, None).winner
    assert winner is not None and winner.winners == ("Ben",)
    session.press(Press(Action.UNDO), 10.0)
    assert session.state.phase is Phase.WAITING and session.state.game.played == ()
    session.see(table_of(ROUND_1, LINEUP), True, 11.0)
    session.press(Press(Action.CONFIRM), 11.0)
    session.press(Press(Action.CONFIRM), 11.1)
    assert session.state.phase is Phase.WINNER, "a bounced Confirm keeps the standings up"
    session.press(Press(Action.CONFIRM), 14.0)
    assert session.state.phase is Phase.SETUP


def test_the_editor_opens_on_fix_refuses_an_illegal_round_and_closes_on_back(
    journal: Journal,
) -> None:
    session = started(journal)
    session.press(Press(Action.FIX), 1.0)
    assert session.state.phase is Phase.EDITING
    session.press(Press(Action.CONFIRM), 1.1)
    assert session.state.phase is Phase.EDITING
    assert session.state.game.played == ()
    view = present(session.state, 1.1, None)
    assert view.editor is not None and view.editor.question == "Ben's card: which slot?"
    notices = [n.text for n in view.notices]
    assert "Ben has not laid a card; one card expected" in notices, "Confirm asks the next"
    assert "Ann has not laid a card; one card expected" not in notices, "only the question's"
    assert not {b.label: b for b in view.buttons}["Save"].enabled
    session.press(Press(Action.BACK), 1.2)
    assert session.state.phase is Phase.WAITING


def test_a_round_entered_by_hand_is_committed_like_a_read_one(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), False, 1.0)
    session.press(Press(Action.FIX), 1.0)
    assert session.state.editor is not None and session.state.editor.reveal() == ROUND_1
    session.press(Press(Action.CONFIRM), 1.1)
    assert session.state.phase is Phase.EDITING, "Confirm shows the summary first"
    session.press(Press(Action.CONFIRM), 1.1)
    assert len(History(journal).rounds(session.state.game_id or 0)) == 1
    assert session.state.phase is Phase.CLEARING


def test_a_token_left_from_the_last_game_does_not_choose_the_storyteller(journal: Journal) -> None:
    session = new_session(journal)
    session.see(TableObservation({5: SlotContents(("green",))}), True, 0.0)
    assert session.state.phase is Phase.SETUP


def test_moving_on_after_a_start_reads_the_table_for_the_new_game(journal: Journal) -> None:
    session = new_session(journal)
    session.see(table_of(ROUND_1, LINEUP), True, 0.0)
    session.press(Press(Action.NEXT), 0.1)
    session.press(Press(Action.CONFIRM), 0.2)
    session.press(Press(Action.CONFIRM), 0.3)
    assert session.state.phase is Phase.WAITING
    assert session.state.game.storyteller == "Ben"
    assert session.state.proposal is None


def test_undo_makes_the_same_table_wait_for_a_press(journal: Journal) -> None:
    session = started(journal, auto_confirm=2.0)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    session.press(Press(Action.UNDO), 2.0)
    session.see(table_of(ROUND_1, LINEUP), True, 3.0)
    assert session.state.phase is Phase.PROPOSAL
    assert session.state.countdown(3.0) is None
    session.tick(30.0)
    assert session.state.game.played == ()
    session.press(Press(Action.CONFIRM), 31.0)
    assert len(session.state.game.played) == 1


def test_a_correction_while_clearing_goes_back_to_clearing(journal: Journal) -> None:
    session = started(journal, auto_confirm=1.0)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.tick(2.0)
    assert session.state.phase is Phase.CLEARING
    session.press(Press(Action.FIX), 3.0)
    session.press(Press(Action.PICK, 0), 3.0)
    session.press(Press(Action.LEFT), 3.0)
    assert session.state.editor is not None and session.state.editor.past
    dan = next(
        i
        for i, r in enumerate(session.state.editor.rows)
        if r.player == "Dan" and r.kind.value == "vote"
    )
    session.press(Press(Action.PICK, dan), 3.0)
    session.press(Press(Action.RIGHT), 3.0)
    session.press(Press(Action.CONFIRM), 3.0)
    session.press(Press(Action.CONFIRM), 3.0)
    assert session.state.phase is Phase.CLEARING
    session.see(table_of(ROUND_1, LINEUP), True, 9.0)
    session.tick(20.0)
    assert len(session.state.game.played) == 1


def test_a_correction_the_journal_refuses_is_shown_in_the_editor(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    session.press(Press(Action.FIX), 2.0)
    session.press(Press(Action.PICK, 0), 2.0)
    session.press(Press(Action.LEFT), 2.0)
    journal.close()
    session.press(Press(Action.CONFIRM), 2.0)
    session.press(Press(Action.CONFIRM), 2.0)
    assert session.state.phase is Phase.EDITING
    assert session.state.at.problems != ()
    assert str(session.state.at.problems[0]) in [
        n.text for n in present(session.state, 2.0, None).notices
    ]
