"""The main loop: one frame at a time, from the camera to the screen.

Each step takes the presses posted since the last one (buttons post from their own
thread; the screen gives keys, clicks and touches), reads one frame, lets the
session see the settled table, and draws. A camera that fails is closed, reported
on the screen and tried again every few seconds while the game goes on by hand.
Nothing here scores or decides: the session does, and this module only carries.
"""

import contextlib
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.app.overlay import annotate, encode_jpeg
from companion.app.present import present, scorer_colours
from companion.app.service import QuietManager, ServiceManager
from companion.app.session import Session
from companion.controls.actions import Action, Press
from companion.controls.light import Status, StatusLight
from companion.controls.strip import TrackStrip
from companion.display.screen import Screen
from companion.display.view import CameraView, Level, Phase, ScreenView
from companion.errors import CompanionError, HardwareError, SourceEndedError
from companion.journal import RoundImages
from companion.kit.layouts import Layout
from companion.rules import RoundScore
from companion.sources.base import Frame, FrameSource
from companion.vision.pipeline import FrameReading, TableWatcher

RETRY_SECONDS = 3.0
"""How often a failed camera is opened again."""
FAILURES_IN_A_ROW = 3
"""Failed frames in a row after which the camera counts as lost (one bad frame, a
replayed file that will not decode, is skipped)."""
THUMBNAIL_WIDTH = 480
"""Width of the camera picture on the screen, in pixels."""
THUMBNAIL_SECONDS = 0.25
"""How often the camera picture on the screen is redrawn."""
JOURNAL_FRAME_QUALITY = 85
"""JPEG quality of the frame kept with each round."""
JOURNAL_OVERLAY_WIDTH = 1280
"""Width of the annotated picture kept with each round."""

STEPS_PER_SECOND = 30
"""The most turns of the loop a second: smooth rabbits, and an idle processor."""

Clock = Callable[[], float]
"""Seconds since the loop started."""


@dataclass
class Camera:
    """The frame source and what the loop knows about it."""

    open_source: Callable[[], FrameSource]
    """Opens the source again after a failure."""
    watcher: TableWatcher
    """Reader and stabiliser of the calibrated table."""
    layout: Layout
    """The board, for drawing card areas on the picture."""
    source: FrameSource | None = None
    """The open source, or None while it is failed."""
    problem: str = ""
    """Why there is no source, in words."""
    retry_at: float = 0.0
    """When to open it again."""
    frame: Frame | None = None
    """The latest frame."""
    reading: FrameReading | None = None
    """What the reader made of it."""
    thumbnail: CameraView | None = None
    """The picture last put on the screen."""
    thumbnail_at: float = -1.0
    """When it was made."""
    frames: int = 0
    """Frames read since the start."""
    failures: int = 0
    """Failed frames in a row."""
    proposed: tuple[RoundScore, Frame, FrameReading | None] | None = None
    """The proposal with the frame it settled on, kept for the journal."""
    stuck: FrameSource | None = None
    """A failed source whose read never returned: it may hold the camera still."""


class Loop:
    """The companion at one table: session, camera, screen, buttons and lights."""

    def __init__(
        self,
        session: Session,
        screen: Screen,
        clock: Clock,
        camera: Camera | None = None,
        light: StatusLight | None = None,
        strip: TrackStrip | None = None,
        service: ServiceManager | None = None,
    ) -> None:
        self.session = session
        self.screen = screen
        self.clock = clock
        self.camera = camera
        self.light = light
        self.strip = strip
        self.service = service or QuietManager()
        """Told when the first screen is drawn and after every step (the watchdog)."""
        self.camera_note = ""
        """Why there is no camera, shown where its picture would be."""
        self.wedged = False
        """The camera is held by a read that never returned and cannot be opened again:
        the watchdog is left unfed, so the service manager restarts the companion (the
        journal resumes the game) and the new process has the camera."""
        self.posted: queue.SimpleQueue[Press] = queue.SimpleQueue()
        """Presses from the buttons' thread, taken at the start of each step."""
        self.quit = False
        session.pictures = self._pictures  # rounds are kept with the frames read here

    def stop(self) -> None:
        """End the loop after the current step (a service being stopped)."""
        self.quit = True

    def post(self, press: Press) -> None:
        """Hand a press to the loop; safe from any thread (the buttons' callbacks)."""
        self.posted.put(press)

    def step(self) -> None:
        """One turn of the loop: presses, a frame, the session, the screen.

        Nothing that goes wrong at the table may end the game: an error from the
        session's work is shown on the screen, and a light or strip that fails is
        switched off with a message.
        """
        now = self.clock()
        session = self.session
        try:
            for press in self._presses():
                if press.action is Action.QUIT:
                    self.quit = True
                    return
                session.press(press, now)
            self._look(now)
            session.tick(now)
        except CompanionError as error:
            session.say(f"something went wrong: {error}", now)
        view = present(session, now, self._camera_view(now))
        self.screen.show(view)
        self._show_lights(view, now)

    def _show_lights(self, view: ScreenView, now: float) -> None:
        """The status light and the strip, each left out for good once it fails."""
        session = self.session
        if self.light is not None:
            problem = any(n.level is Level.PROBLEM for n in view.notices)
            try:
                self.light.show(_status(view.phase, problem))
            except (HardwareError, OSError) as error:
                self.light = None
                session.say(f"status light switched off: {error}", now)
        if self.strip is not None:
            positions = session.positions(now)
            spots = [(positions[s], scorer_colours(session, s)) for s in positions]
            try:
                self.strip.show(spots, now)
            except (HardwareError, OSError) as error:
                self.strip = None
                session.say(f"LED strip switched off: {error}", now)

    def run(self) -> None:
        """Step until a player quits, at most `STEPS_PER_SECOND` times a second: a
        camera paces the loop by itself, but without one (a game by hand, a failed
        camera) the loop would spin. The service manager hears of every step, so a
        loop that hangs is restarted."""
        ready = False
        while not self.quit:
            started = time.monotonic()
            self.step()
            if not ready:
                self.service.ready()
                ready = True
            if not self.wedged:
                self.service.alive(started)
            time.sleep(max(0.0, 1 / STEPS_PER_SECOND - (time.monotonic() - started)))
        self.service.stopping()

    def _presses(self) -> list[Press]:
        presses = self.screen.presses()
        while not self.posted.empty():
            presses.append(self.posted.get_nowait())
        return presses

    def _look(self, now: float) -> None:
        """Read a frame and show the session the settled table; on failure, say so and
        try the camera again later."""
        camera = self.camera
        if camera is None:
            return
        if camera.source is None:
            if now < camera.retry_at:
                return
            try:
                camera.source = camera.open_source()
            except CompanionError as error:
                self._failed(camera, f"camera not available: {error}", now)
                if camera.stuck is not None and camera.stuck.stuck and not self.wedged:
                    self.wedged = True
                    self.session.say(
                        "the camera is stuck in a read that never returned: restart the "
                        "companion to free it (as a service it restarts by itself)",
                        now,
                    )
                return
            camera.problem = ""
            camera.stuck = None
            self.wedged = False
        try:
            frame = camera.source.read()
        except SourceEndedError:
            self._failed(camera, "the replay has no more frames", now, retry=False)
            return
        except (HardwareError, OSError) as error:
            camera.failures += 1
            if camera.failures >= FAILURES_IN_A_ROW:
                self._failed(camera, f"camera lost: {error}", now)
            return
        camera.failures = 0
        reading, settled = camera.watcher.push(frame)
        camera.frame, camera.reading = frame, reading
        camera.frames += 1
        self.session.see(settled.observation, settled.steady, now)
        proposal = self.session.proposal
        if proposal is not None and (camera.proposed is None or camera.proposed[0] is not proposal):
            camera.proposed = (proposal, frame, reading)

    def _failed(self, camera: Camera, problem: str, now: float, retry: bool = True) -> None:
        """Let the source go, say why, and forget what it showed."""
        if camera.source is not None:
            with contextlib.suppress(HardwareError, OSError):
                camera.source.close()
            if camera.source.stuck:
                camera.stuck = camera.source
            camera.source = None
        camera.problem = problem
        camera.failures = 0
        camera.retry_at = now + RETRY_SECONDS if retry else float("inf")
        camera.frame = camera.reading = camera.thumbnail = None
        camera.watcher.stabiliser.clear()
        self.session.lose_table()

    def _camera_view(self, now: float) -> CameraView | None:
        camera = self.camera
        if camera is None:
            return CameraView(None, self.camera_note, working=False) if self.camera_note else None
        if camera.problem:
            hint = "trying again" if camera.retry_at != float("inf") else "no more frames"
            status = f"{camera.problem} ({hint}); the game goes on by hand: press Fix"
            return CameraView(None, status, working=False)
        if camera.frame is None:
            return CameraView(None, "camera starting", working=True)
        if camera.thumbnail is None or now - camera.thumbnail_at >= THUMBNAIL_SECONDS:
            image = annotate(camera.frame, camera.reading, camera.layout, THUMBNAIL_WIDTH)
            description = camera.source.description if camera.source else "camera"
            camera.thumbnail = CameraView(image, description, working=True)
            camera.thumbnail_at = now
        return camera.thumbnail

    def _pictures(self) -> RoundImages:
        """The frame and annotated picture of the round about to be committed: those
        its proposal settled on, else the latest (a round entered by hand)."""
        camera = self.camera
        if camera is None:
            return RoundImages(None, None)
        proposed = camera.proposed
        if proposed is not None and proposed[0] is self.session.proposal:
            _, frame, reading = proposed
        elif camera.frame is not None:
            frame, reading = camera.frame, camera.reading
        else:
            return RoundImages(None, None)
        overlay = annotate(frame, reading, camera.layout, JOURNAL_OVERLAY_WIDTH)
        return RoundImages(
            encode_jpeg(frame, JOURNAL_FRAME_QUALITY), encode_jpeg(overlay, JOURNAL_FRAME_QUALITY)
        )


def _status(phase: Phase, problem: bool) -> Status:
    """What the status light says."""
    if problem:
        return Status.PROBLEM
    if phase is Phase.PROPOSAL:
        return Status.READY
    return Status.WAITING
