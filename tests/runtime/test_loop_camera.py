"""A camera that fails mid-game: reported on the screen, the game goes on by hand,
and the camera is tried again until it works."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np
import pytest

from companion.actions import Action, Press
from companion.controls.light import Status, StatusLight
from companion.errors import CameraLostError, CameraUnavailableError, HardwareUnavailableError
from companion.journal import Journal
from companion.runtime.camera import FAILURES_IN_A_ROW, RETRY_SECONDS, Camera, Watching
from companion.runtime.effects import JournalEffects
from companion.runtime.loop import Loop
from companion.runtime.service import ServiceManager
from companion.session.session import Session, Settings
from companion.session.states import Phase
from companion.sim import Lay, Scene
from companion.sources.base import Frame, FrameSource
from companion.sources.guarded import GuardedSource
from companion.sources.simulated import SimulatedTable
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import Stabiliser
from tests.screens import RecordingScreen
from tests.session.table_frames import LINEUP, RULESET
from tests.vision.scenes import KIT, MILD, POSE, calibration, layout

WAIT = 60.0
"""Longest wait for the loop, on its own thread, to draw the screens a test waits for
(or for a thread to end): a bound on a failure, generous for a loaded machine."""


def test_a_lost_camera_is_reported_retried_and_the_game_goes_on_by_hand(
    tmp_path: Path, recording_screen: RecordingScreen
) -> None:
    board = layout()
    table = SimulatedTable(Scene(board, KIT), POSE, MILD, np.random.default_rng(3))
    reader = TableReader(calibration(), board, make_decoder())
    camera = Camera(lambda: table, TableWatcher(reader, Stabiliser()), board, Watching(table))
    now = [0.0]
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = Session.new(
            RULESET, LINEUP, JournalEffects(journal, camera.pictures), Settings((1, 2, 3, 4))
        )
        loop = Loop(session, recording_screen, lambda: now[0], camera)
        loop.post(Press(Action.CONFIRM))
        loop.step()
        assert (
            recording_screen.views[-1].camera is not None
            and recording_screen.views[-1].camera.working
        )
        assert session.state.phase is Phase.WAITING

        table.lay(Lay(Scene(board, KIT), camera_off=True))
        now[0] = 1.0
        for _ in range(FAILURES_IN_A_ROW - 1):
            loop.step()
            assert source_of(camera) is table, "one failed frame is skipped, not a lost camera"
        loop.step()
        view = recording_screen.views[-1]
        assert view.camera is not None and not view.camera.working
        status = view.camera.status
        assert isinstance(status, str), "the screen gets the camera's words, not a phrase"
        assert status.startswith("camera lost: ")
        assert status.endswith("(trying again); the game goes on by hand: press Fix")
        assert view.headline == "Round 1: Ann tells. Press Fix to enter it by hand"

        loop.post(Press(Action.FIX))
        loop.step()
        assert session.state.phase is Phase.EDITING
        loop.post(Press(Action.BACK))
        loop.step()

        table.lay(Lay(Scene(board, KIT)))
        now[0] = 1.0 + RETRY_SECONDS / 2
        loop.step()
        assert recording_screen.views[-1].camera is not None
        assert not recording_screen.views[-1].camera.working
        now[0] = 1.0 + RETRY_SECONDS
        loop.step()
        assert source_of(camera) is table
        assert (
            recording_screen.views[-1].camera is not None
            and recording_screen.views[-1].camera.working
        )


class BrokenSource(FrameSource):
    """A camera whose every read fails and which cannot even be closed cleanly."""

    def read(self) -> Frame:
        raise CameraLostError("the camera did not answer")

    def close(self) -> None:
        raise CameraLostError("the camera did not stop cleanly")


class BrokenLight(StatusLight):
    """A status light whose GPIO write fails."""

    def __init__(self) -> None:
        pass

    def show(self, status: Status) -> None:
        raise HardwareUnavailableError("GPIO5 could not be written")


def test_failing_hardware_never_ends_the_game(
    tmp_path: Path, recording_screen: RecordingScreen
) -> None:
    board = layout()
    reader = TableReader(calibration(), board, make_decoder())
    camera = Camera(BrokenSource, TableWatcher(reader, Stabiliser()), board)
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = Session.new(
            RULESET, LINEUP, JournalEffects(journal, camera.pictures), Settings((1, 2, 3, 4))
        )
        loop = Loop(session, recording_screen, lambda: 0.0, camera, light=BrokenLight())
        for _ in range(FAILURES_IN_A_ROW + 1):
            loop.step()
        view = recording_screen.views[-1]
        assert view.camera is not None and not view.camera.working
        assert loop.light is None
        assert str(session.state.message.text).startswith("status light switched off: GPIO5")


class FailingTable(FrameSource):
    """The simulated table until told to fail, then failing the way `mode` says: a
    read that raises, a read that hangs, or black frames."""

    description = "table camera"

    def __init__(self, table: SimulatedTable, mode: str, release: threading.Event) -> None:
        self.table, self.mode, self.release = table, mode, release
        self.failing = False

    def read(self) -> Frame:
        if not self.failing:
            return self.table.read()
        if self.mode == "raises":
            raise CameraLostError("table camera: the camera did not answer")
        if self.mode == "stalls":
            self.release.wait()
        return np.zeros_like(self.table.read())

    def close(self) -> None:
        """The simulated table stays with the test."""


@dataclass
class Rig:
    """The loop at a simulated table, its camera opened by the test, a manual clock."""

    loop: Loop
    camera: Camera
    screen: RecordingScreen
    session: Session
    now: list[float]


@contextmanager
def rig(
    tmp_path: Path,
    screen: RecordingScreen,
    open_camera: Callable[[], FrameSource],
    service: ServiceManager | None = None,
) -> Iterator[Rig]:
    board = layout()
    reader = TableReader(calibration(), board, make_decoder())
    camera = Camera(open_camera, TableWatcher(reader, Stabiliser()), board)
    now = [0.0]
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = Session.new(
            RULESET, LINEUP, JournalEffects(journal, camera.pictures), Settings((1, 2, 3, 4))
        )
        loop = Loop(session, screen, lambda: now[0], camera, service=service)
        yield Rig(loop, camera, screen, session, now)


def source_of(camera: Camera) -> FrameSource | None:
    """The source the camera reads, while it is open."""
    status = camera.state.status
    return status.source if isinstance(status, Watching) else None


def empty_table() -> SimulatedTable:
    """The simulated empty board, its frame already drawn: a guarded read hands it out
    at once, far within its deadline however busy the machine (drawing it takes a
    good part of a second, and several on a loaded machine)."""
    table = SimulatedTable(Scene(layout(), KIT), POSE, MILD, np.random.default_rng(5))
    table.read()
    return table


def lose(table: Rig) -> None:
    """Step until the failing camera counts as lost."""
    for _ in range(FAILURES_IN_A_ROW):
        table.now[0] += 0.1
        table.loop.step()


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("raises", "the camera did not answer"),
        ("stalls", "no frame for 2 s"),
        ("black", "the picture is black"),
    ],
)
def test_a_camera_that_raises_stalls_or_goes_black_mid_game_is_retried_while_play_goes_on(
    tmp_path: Path, recording_screen: RecordingScreen, mode: str, said: str
) -> None:
    simulated = empty_table()
    release = threading.Event()
    opened: list[FailingTable] = []

    def open_camera() -> FrameSource:
        opened.append(FailingTable(simulated, mode, release))
        return GuardedSource(opened[-1], stall_seconds=2.0)

    try:
        with rig(tmp_path, recording_screen, open_camera) as table:
            table.loop.post(Press(Action.CONFIRM))
            table.loop.step()
            assert len(opened) == 1 and table.camera.state.frames == 1

            opened[0].failing = True
            lose(table)
            view = table.screen.views[-1]
            assert view.camera is not None and not view.camera.working
            status = str(view.camera.status)
            assert said in status and "trying again" in status
            assert view.headline == "Round 1: Ann tells. Press Fix to enter it by hand"
            table.loop.post(Press(Action.FIX))
            table.loop.step()
            assert table.session.state.phase is Phase.EDITING
            table.loop.post(Press(Action.BACK))
            table.loop.step()

            table.now[0] += RETRY_SECONDS
            table.loop.step()
            assert len(opened) == 2, "the camera is opened again"
            shown = table.screen.views[-1].camera
            assert shown is not None and shown.working
            assert table.camera.state.frames == 2
    finally:
        release.set()


class RecordingService(ServiceManager):
    """A service manager that keeps what it is told."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def ready(self) -> None:
        self.told.append("ready")

    def alive(self, now: float) -> None:
        self.told.append("alive")

    def extend_start(self, seconds: float) -> None:
        self.told.append("extend")

    def stopping(self) -> None:
        self.told.append("stopping")


def test_a_camera_held_by_a_read_that_never_returns_starves_the_watchdog_for_a_restart(
    tmp_path: Path, recording_screen: RecordingScreen
) -> None:
    release = threading.Event()
    stuck = FailingTable(empty_table(), "stalls", release)
    opened: list[str] = []

    def open_camera() -> FrameSource:
        if opened:
            opened.append("busy")
            raise CameraUnavailableError("camera 0 is in use")
        opened.append("opened")
        return GuardedSource(stuck, stall_seconds=2.0)

    service = RecordingService()
    try:
        with rig(tmp_path, recording_screen, open_camera, service) as table:
            table.loop.step()
            stuck.failing = True
            lose(table)
            assert not table.loop.wedged, "a stalled camera is first opened again"
            table.now[0] += RETRY_SECONDS
            table.loop.step()
            assert opened == ["opened", "busy"]
            assert table.loop.wedged
            assert str(table.session.state.message.text).startswith(
                "the camera is stuck in a read that never returned"
            )
            runner = threading.Thread(target=table.loop.run)
            runner.start()
            drawn = table.screen.wait_for_views(8, WAIT)
            table.loop.stop()
            runner.join(timeout=WAIT)
            assert drawn, "the wedged loop goes on drawing"
            assert service.told == ["ready", "stopping"], "no watchdog feed while wedged"
    finally:
        release.set()


def test_a_stalled_read_that_returns_frees_the_camera_and_the_watchdog(
    tmp_path: Path, recording_screen: RecordingScreen
) -> None:
    simulated = empty_table()
    release = threading.Event()
    sources: list[GuardedSource] = []

    def open_camera() -> FrameSource:
        if sources and sources[-1].stuck:
            raise CameraUnavailableError("camera 0 is in use")
        sources.append(GuardedSource(FailingTable(simulated, "stalls", release), 2.0))
        return sources[-1]

    try:
        with rig(tmp_path, recording_screen, open_camera) as table:
            table.loop.step()
            cast(FailingTable, sources[0].source).failing = True
            lose(table)
            table.now[0] += RETRY_SECONDS
            table.loop.step()
            assert table.loop.wedged
            release.set()
            sources[0]._worker.join(timeout=WAIT)
            table.now[0] += RETRY_SECONDS
            table.loop.step()
            assert not table.loop.wedged and len(sources) == 2
            shown = table.screen.views[-1].camera
            assert shown is not None and shown.working
    finally:
        release.set()
