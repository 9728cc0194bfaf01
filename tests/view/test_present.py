"""What the screen says in each phase: setup steps, play, giving up, the winner."""

from companion.actions import Action, Press
from companion.display.view import CameraView, Level, ScreenView
from companion.journal import Journal
from companion.phrases import phrase
from companion.runtime.effects import JournalEffects
from companion.session.session import Session, Settings
from companion.view.present import present
from tests.session.observations import table_of
from tests.view.sessions import (
    LINEUP,
    ODYSSEY,
    ROUND_1,
    SLOTS,
    finished,
    giving_up,
    proposing,
    started,
)


def labels(view: ScreenView) -> dict[str, tuple[Action, bool]]:
    return {b.label: (b.action, b.enabled) for b in view.buttons}


def test_a_setup_step_shows_its_question_and_back_next_confirm(journal: Journal) -> None:
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    view = present(session.state, 0.0, None)
    assert view.title == "New game"
    assert view.setup is not None and view.headline == view.setup.question
    assert view.headline == "Which language?"
    assert view.rabbits == ()
    assert labels(view) == {
        "Back": (Action.BACK, False),
        "Next": (Action.NEXT, True),
        "Confirm": (Action.CONFIRM, True),
    }


def test_confirm_reads_start_when_choosing_who_tells_first(journal: Journal) -> None:
    session = Session.new(ODYSSEY, LINEUP, JournalEffects(journal), Settings(SLOTS))
    view = present(session.state, 0.0, None)
    assert view.headline == "Who tells first?"
    assert labels(view) == {
        "Back": (Action.BACK, True),
        "Next": (Action.NEXT, True),
        "Start": (Action.CONFIRM, True),
    }


def test_a_game_being_played_says_whose_turn_and_what_is_kept(journal: Journal) -> None:
    view = present(started(journal).state, 0.5, None)
    assert view.title == "Dixit Odyssey - round 1"
    assert view.headline == "Round 1: Ann tells"
    assert view.footer.startswith("draw pile ")
    assert view.footer.endswith(" - game 1")
    assert labels(view) == {
        "Confirm": (Action.CONFIRM, False),
        "Fix": (Action.FIX, True),
        "Undo": (Action.UNDO, False),
    }
    assert view.more_notices == "+{n} more"


def test_a_proposal_shows_its_score_with_reasons(journal: Journal) -> None:
    view = present(proposing(journal).state, 1.0, None)
    assert view.headline == "Round 1: confirm the score?"
    assert view.proposal is not None
    assert view.proposal.title == "Proposed score: round 1"
    reasons = {line.name: line.reasons for line in view.proposal.lines}
    assert reasons["Ben"] and all(r.startswith("+") for r in reasons["Ben"])
    assert labels(view)["Confirm"] == (Action.CONFIRM, True)


def test_giving_up_asks_first_and_shows_the_game_behind(journal: Journal) -> None:
    view = present(giving_up(journal).state, 10.0, None)
    assert view.headline == "Give up this game? It stays in the journal, marked abandoned"
    assert labels(view) == {"Give up": (Action.CONFIRM, True), "Go back": (Action.BACK, True)}
    assert [n.text for n in view.notices] == [
        "A long hold on Confirm (or a long touch on the screen) asked for this"
    ]
    assert [r.name for r in view.rabbits] == list(LINEUP.names)
    assert view.title == "Dixit Odyssey - round 1"


def test_the_winner_screen_offers_the_same_players_or_a_new_group(journal: Journal) -> None:
    view = present(finished(journal).state, 9.0, None)
    assert view.headline == "Ben wins!"
    assert view.winner is not None
    assert view.winner.winners == ("Ben",)
    assert view.winner.reason == "a score reached the target after round 1"
    assert (view.winner.heading, view.winner.shared_heading) == ("Winner", "Winners")
    assert labels(view) == {
        "Same players again": (Action.CONFIRM, True),
        "New group": (Action.NEXT, True),
        "Fix": (Action.FIX, True),
    }


def test_the_editor_asks_one_question_with_its_own_problem(journal: Journal) -> None:
    session = started(journal)
    session.press(Press(Action.FIX), 1.0)
    view = present(session.state, 1.0, None)
    assert view.editor is not None
    assert view.editor.question == "Ann's card: which slot?"
    assert (view.editor.answer, view.editor.progress) == ("none", "2 / 9")
    assert view.editor.problem == "Ann has not laid a card; one card expected"
    assert view.editor.unanswered and not view.editor.reviewing
    assert view.editor.title == view.headline == "Enter round 1 by hand"
    session.press(Press(Action.UP), 1.0)
    view = present(session.state, 1.0, None)
    assert view.editor is not None
    assert (view.editor.question, view.editor.answer) == ("Which round?", "1 (playing now)")
    assert view.editor.problem == ""


def test_the_editor_ends_on_a_summary_with_the_score(journal: Journal) -> None:
    session = started(journal)
    session.see(table_of(ROUND_1, LINEUP), False, 1.0)
    session.press(Press(Action.FIX), 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    view = present(session.state, 1.0, None)
    assert view.editor is not None and view.editor.reviewing
    assert view.editor.question == "Save round 1?"
    assert view.editor.progress == "9 / 9"
    assert view.editor.preview is not None
    assert {b.label: b.enabled for b in view.buttons}["Save"]


def test_a_summary_that_cannot_be_saved_says_what_is_left(journal: Journal) -> None:
    session = started(journal)
    session.press(Press(Action.FIX), 1.0)
    session.press(Press(Action.UP), 1.0)
    session.press(Press(Action.UP), 1.0)
    view = present(session.state, 1.0, None)
    assert view.editor is not None and view.editor.reviewing
    assert view.editor.question == "Round 1 cannot be saved yet"
    assert view.editor.summary[0] == "7 questions still to answer"
    assert view.editor.preview is None
    assert not {b.label: b.enabled for b in view.buttons}["Save"]


def test_the_camera_panel_is_worded_by_present(journal: Journal) -> None:
    camera = CameraView(None, phrase("camera starting"), working=True)
    view = present(started(journal).state, 0.5, camera)
    assert view.camera is not None
    assert view.camera.status == "camera starting"
    assert (view.camera.no_picture, view.camera.failed) == ("no picture yet", "Camera not working")


def test_a_failed_camera_says_to_enter_the_round_by_hand(journal: Journal) -> None:
    camera = CameraView(None, "camera lost", working=False)
    view = present(started(journal).state, 0.5, camera)
    assert view.headline == "Round 1: Ann tells. Press Fix to enter it by hand"


def test_a_message_is_shown_first_among_the_notices(journal: Journal) -> None:
    session = started(journal)
    session.say(phrase("round {number} undone", number=3), 1.0)
    view = present(session.state, 1.5, None)
    assert view.notices[0].text == "round 3 undone"
    assert view.notices[0].level is Level.INFO
