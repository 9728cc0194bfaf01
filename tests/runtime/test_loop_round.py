"""A whole round through the real loop: replayed frames, mock GPIO buttons, the
headless screen and a journal file.

The table is laid out in stages as players do it; the test presses the buttons (and
a key, and a touch) between frames and checks what the screen shows and what the
journal keeps: the waiting list, a problem shown and then fixed, the proposal, the
confirm, an undo, and the correction of a past round with the game rescored.
"""

import queue
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from companion.actions import Action, Press
from companion.controls.buttons import ButtonPins, Buttons
from companion.display.view import Level, ScreenView
from companion.journal import History, Journal
from companion.rules import Game
from companion.runtime.camera import Camera
from companion.runtime.effects import JournalEffects
from companion.runtime.loop import Loop
from companion.session.editor import RowKind
from companion.session.session import Session, Settings
from companion.session.states import Phase
from companion.sources.folder import FolderSource
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import KEEP_FRAMES, SETTLE_FRAMES, Stabiliser
from tests.screens import RecordingScreen
from tests.session.table_frames import LINEUP, RULESET, round_one, write_frames
from tests.vision.scenes import calibration, layout

PINS = ButtonPins(undo_hold_seconds=0.05, next_hold_seconds=0.05)
PRESS_SECONDS = 60.0
"""The longest a mock button may take to post its press: a bound on a failure,
generous for a loaded machine."""
SETTLE = SETTLE_FRAMES + 2
"""Frames a new layout of the table needs before it counts, with a margin."""
CLEAR = KEEP_FRAMES + 3
"""Frames before tokens taken away are taken as gone."""


class Table:
    """The loop at a replayed table, with buttons on mock pins and a manual clock."""

    def __init__(self, tmp_path: Path, frames: list[bytes], screen: RecordingScreen) -> None:
        write_frames(tmp_path / "frames", frames)
        self.journal = Journal(tmp_path / "journal.sqlite")
        board = layout()
        reader = TableReader(calibration(), board, make_decoder())
        settings = Settings(tuple(s.slot for s in board.slots))
        self.now = 0.0
        self.screen = screen
        camera = Camera(
            lambda: FolderSource(tmp_path / "frames"),
            TableWatcher(reader, Stabiliser()),
            board,
        )
        session = Session.new(
            RULESET, LINEUP, JournalEffects(self.journal, camera.pictures), settings
        )
        self.loop = Loop(session, self.screen, lambda: self.now, camera)
        self.factory = MockFactory()
        self.pressed: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self.buttons = Buttons(PINS, self._post, pin_factory=self.factory)

    def _post(self, press: Press) -> None:
        self.pressed.put(press)
        self.loop.post(press)

    @property
    def session(self) -> Session:
        return self.loop.session

    @property
    def phase(self) -> Phase:
        """The phase the session is in after the last step."""
        return self.session.state.phase

    @property
    def view(self) -> ScreenView:
        return self.screen.views[-1]

    def frames(self, count: int) -> None:
        for _ in range(count):
            self.loop.step()
            self.now += 0.5

    def push(self, pin: int, hold: bool = False) -> None:
        """Press a button (holding it until it posts), then let it go."""
        device = self.factory.pin(pin)
        device.drive_low()
        if hold:
            self.pressed.get(timeout=PRESS_SECONDS)
        device.drive_high()
        if not hold:
            self.pressed.get(timeout=PRESS_SECONDS)

    def close(self) -> None:
        self.buttons.close()
        self.screen.close()
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path, recording_screen: RecordingScreen) -> Iterator[Table]:
    f = round_one()
    plan = [f.empty] * 2 + [f.owners] * SETTLE + [f.mistake] * SETTLE + [f.full] * (SETTLE + 1)
    plan += [f.empty] * (CLEAR + 2) + [f.full] * (SETTLE + 1) + [f.empty] * (CLEAR + 40)
    t = Table(tmp_path, plan, recording_screen)
    try:
        yield t
    finally:
        t.close()


def notices(view: ScreenView, level: Level) -> list[str]:
    return [n.text for n in view.notices if n.level is level]


def test_a_round_is_read_proposed_confirmed_undone_and_corrected(table: Table) -> None:
    f = round_one()
    table.frames(1)
    assert table.phase is Phase.SETUP
    table.push(PINS.confirm)
    table.frames(1)
    assert table.session.state.game_id is not None
    assert table.phase is Phase.WAITING

    table.frames(SETTLE)
    assert "waiting for votes from Ben, Cleo and Dan" in notices(table.view, Level.WAITING)
    assert notices(table.view, Level.PROBLEM) == []

    table.frames(SETTLE)
    # the one problem is the headline, with what to do, and not listed again
    assert notices(table.view, Level.PROBLEM) == []
    problem = table.view.headline.removeprefix("Put this right to score: ")
    assert problem.startswith(f"{f.wrong_voter} voted for slot ")
    assert problem.endswith("their own card")
    assert table.phase is Phase.WAITING

    table.frames(SETTLE)
    assert table.phase is Phase.PROPOSAL
    expected = Game.start(RULESET, LINEUP.names, "Ann").score(f.reveal)
    proposal = table.view.proposal
    assert proposal is not None
    assert [line.points for line in proposal.lines] == list(expected.deltas.values())
    assert notices(table.view, Level.PROBLEM) == []
    assert History(table.journal).rounds(table.session.state.game_id) == ()

    table.push(PINS.confirm)
    table.frames(1)
    assert table.phase is Phase.CLEARING
    stored = table.journal.load(table.session.state.game_id)
    assert stored.game.played[0].score.round.reveal == f.reveal
    assert dict(stored.game.totals) == {name: expected.deltas[name] for name in LINEUP.names}

    table.frames(CLEAR + 2)
    assert table.phase is Phase.WAITING
    assert table.view.title.endswith("round 2")

    table.push(PINS.undo, hold=True)
    table.frames(1)
    assert History(table.journal).rounds(table.session.state.game_id) == ()
    assert table.view.title.endswith("round 1")

    table.frames(SETTLE + 1)
    assert table.phase is Phase.PROPOSAL
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
    table.frames(1)
    assert len(History(table.journal).rounds(table.session.state.game_id)) == 1
    table.frames(CLEAR + 2)
    assert table.phase is Phase.WAITING

    table.push(PINS.next, hold=True)
    table.frames(1)
    assert table.phase is Phase.EDITING
    table.loop.post(Press(Action.PICK, 0))
    table.loop.post(Press(Action.LEFT))
    table.frames(1)
    editor = table.session.state.editor
    assert editor is not None and editor.number == 1 and editor.past
    vote = next(i for i, r in enumerate(editor.rows) if r.kind is RowKind.VOTE)
    table.loop.post(Press(Action.PICK, vote))
    table.frames(1)
    for _ in range(len(editor.slots) + 1):
        editor = table.session.state.editor
        assert editor is not None
        if editor.reveal() != f.reveal and not editor.problems():
            break
        table.loop.post(Press(Action.RIGHT))
        table.frames(1)
    corrected = editor.reveal()
    assert corrected != f.reveal
    buttons = {b.label: b for b in table.view.buttons}
    assert buttons["Save"].enabled
    table.loop.post(Press(Action.CONFIRM))
    table.frames(1)
    assert table.view.editor is not None and table.view.editor.reviewing, "the summary first"
    table.loop.post(Press(Action.CONFIRM))
    table.frames(1)
    assert table.phase is Phase.WAITING

    stored = table.journal.load(table.session.state.game_id)
    assert stored.game.played[0].score.round.reveal == corrected
    rescored = Game.start(RULESET, LINEUP.names, "Ann").play(corrected)
    assert dict(stored.game.totals) == dict(rescored.totals)
    assert dict(table.session.state.game.totals) == dict(rescored.totals)
    assert [r.corrected for r in History(table.journal).rounds(table.session.state.game_id)] == [
        True
    ]
