"""The main loop: one frame at a time, from the camera to the screen.

Each step takes the presses posted since the last one (buttons post from their own
thread; the screen gives keys, clicks and touches) and the phone page's requests
(each answered with a verdict once the session has acted on it), reads one frame, lets the
session see the settled table, and shows the session's snapshot on the screen, the
status light and the LED strip. Nothing here scores or decides: the session does,
and this module only carries.
"""

import queue
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from functools import partial

from companion.actions import Action, Press
from companion.controls.light import Status, StatusLight
from companion.controls.strip import TrackStrip
from companion.display.screen import Screen
from companion.display.view import CameraView, Level, ScreenView
from companion.errors import CompanionError, HardwareError, error_words
from companion.phrases import Phrase, phrase
from companion.runtime.camera import WEDGED_MESSAGE, Camera, Lost
from companion.runtime.housekeeping import Housekeeper
from companion.runtime.service import QuietManager, ServiceManager
from companion.session.commands import Command, Request, Verdict
from companion.session.session import Session
from companion.session.states import Phase, Snapshot
from companion.view.present import present, scorer_colours

STEPS_PER_SECOND = 30
"""The most turns of the loop a second: smooth rabbits, and an idle processor."""

UNHEARD = phrase("the service manager cannot hear the table: it will restart it soon")
"""Shown when systemd cannot be told the loop is alive (its watchdog will run out)."""

Clock = Callable[[], float]
"""Seconds since the loop started."""


class Loop:
    """The companion at one table: session, camera, screen, buttons and lights."""

    def __init__(
        self,
        session: Session,
        screen: Screen,
        clock: Clock,
        camera: Camera | None = None,
        *,
        camera_note: Phrase | str = "",
        light: StatusLight | None = None,
        strip: TrackStrip | None = None,
        service: ServiceManager | None = None,
        page: Callable[[], str | None] | None = None,
        housekeeper: Housekeeper | None = None,
    ) -> None:
        self.session = session
        self.screen = screen
        self.clock = clock
        self.camera = camera
        self.camera_note = camera_note
        """Why there is no camera, shown where its picture would be ("": no note)."""
        self.light = light
        """The status light, until it fails (then it is left out for good)."""
        self.strip = strip
        """The LED strip, until it fails (then it is left out for good)."""
        self.service = service or QuietManager()
        """Told when the first screen is drawn and after every step (the watchdog)."""
        self.page = page
        """The phone page's address now: asked at every step, since the Pi's address
        may come only once the network is up (None: no page, no QR code)."""
        self.housekeeper = housekeeper
        """Prunes the journal's old pictures between steps while the table is idle."""
        self.posted: queue.SimpleQueue[Press | Request] = queue.SimpleQueue()
        """Presses from the buttons' thread and requests from the web server's, taken
        at the start of each step."""
        self.shown: int | None = None
        """The version of the snapshot on the screen now (None before the first): each
        press carries it, so a Confirm acts on what the player saw when pressing."""
        self.quit = False

    @property
    def wedged(self) -> bool:
        """Whether the camera is held by a read that never returned: the watchdog is
        then left unfed, so the service manager restarts the companion."""
        return self.camera is not None and self.camera.wedged

    def stop(self) -> None:
        """End the loop after the current step (a service being stopped)."""
        self.quit = True

    def post(self, press: Press) -> None:
        """Hand a press to the loop, with the snapshot on the screen as it was pressed;
        safe from any thread (the buttons' callbacks)."""
        self.posted.put(self._seen(press))

    def snapshot(self) -> Snapshot:
        """The state the session last published; safe from any thread."""
        return self.session.snapshot

    def now(self) -> float:
        """The loop's clock now."""
        return self.clock()

    def submit(self, command: Command) -> "Future[Verdict]":
        """Hand a command from the phone page to the loop; safe from any thread. The
        future gets the session's verdict at the start of the next step."""
        request = Request(command)
        self.posted.put(request)
        return request.reply

    def step(self) -> None:
        """One turn of the loop: presses, a frame, the session, the screen.

        Nothing that goes wrong at the table may end the game: an error from the
        session's work is shown on the screen, and a light or strip that fails is
        switched off with a message.
        """
        now = self.clock()
        session = self.session
        for press in self._presses():
            if isinstance(press, Request):
                _answer(press, session, now)
            elif press.action is Action.QUIT:
                self.quit = True
                return
            else:
                self._guarded(partial(session.press, press, now), now)
        self._guarded(partial(self._look, now), now)
        self._guarded(partial(session.tick, now), now)
        snapshot = session.snapshot
        page = self.page() if self.page is not None else None
        view = present(snapshot.state, now, self._camera_view(now), page=page)
        self.screen.show(view)
        self.shown = snapshot.version
        self._show_lights(snapshot, view, now)
        if self.housekeeper is not None:
            self.housekeeper.tick(now, snapshot.state.phase)

    def _guarded(self, work: Callable[[], object], now: float) -> None:
        """Do a piece of the session's work; an error is shown on the screen, and the
        rest of the step (the next press, a phone's request) still happens."""
        try:
            work()
        except CompanionError as error:
            self.session.say(phrase("something went wrong: {error}", error=error.phrase), now)

    def _show_lights(self, snapshot: Snapshot, view: ScreenView, now: float) -> None:
        """The status light and the strip, each left out for good once it fails."""
        state = snapshot.state
        if self.light is not None:
            problem = any(n.level is Level.PROBLEM for n in view.notices)
            try:
                self.light.show(_status(state.phase, problem))
            except (HardwareError, OSError) as error:
                self.light = None
                words = phrase("status light switched off: {error}", error=error_words(error))
                self.session.say(words, now)
        if self.strip is not None:
            positions = state.positions(now)
            spots = [(positions[s], scorer_colours(state, s)) for s in positions]
            try:
                self.strip.show(spots, now)
            except (HardwareError, OSError) as error:
                self.strip = None
                words = phrase("LED strip switched off: {error}", error=error_words(error))
                self.session.say(words, now)

    def run(self) -> None:
        """Step until a player quits, at most `STEPS_PER_SECOND` times a second: a
        camera paces the loop by itself, but without one (a game by hand, a failed
        camera) the loop would spin. The service manager hears of every step, so a
        loop that hangs is restarted; a manager that cannot be told is shown."""
        ready = told = False
        while not self.quit:
            started = time.monotonic()
            self.step()
            if not ready:
                self.service.ready()
                ready = True
            if not self.wedged:
                self.service.alive(started)
            if told == self.service.healthy:  # said once each time it stops hearing
                told = not told
                if told:
                    self.session.say(UNHEARD, self.clock())
            time.sleep(max(0.0, 1 / STEPS_PER_SECOND - (time.monotonic() - started)))
        self.service.stopping()

    def _seen(self, press: Press) -> Press:
        """The press with the version of the snapshot on the screen, unless it has one."""
        return press if press.seen is not None else replace(press, seen=self.shown)

    def _presses(self) -> list[Press | Request]:
        presses: list[Press | Request] = [self._seen(p) for p in self.screen.presses()]
        while not self.posted.empty():
            presses.append(self.posted.get_nowait())
        return presses

    def _look(self, now: float) -> None:
        """Read a frame and show the session the settled table; a lost camera makes
        the session forget what it showed, and the game goes on by hand."""
        camera = self.camera
        if camera is None:
            return
        sight = camera.look(now)
        if isinstance(sight, Lost):
            self.session.lose_table(now)
            if sight.wedged:
                self.session.say(WEDGED_MESSAGE, now)
        elif sight is not None:
            state = self.session.see(sight.observation, sight.steady, now, sight.blind)
            camera.keep_evidence(state.proposal)

    def _camera_view(self, now: float) -> CameraView | None:
        if self.camera is not None:
            return self.camera.view(now)
        return CameraView(None, self.camera_note, working=False) if self.camera_note else None


def _answer(request: Request, session: Session, now: float) -> None:
    """Act on a request and hand its verdict back; an error is the verdict's reason,
    and a request its asker gave up on (cancelled) is left alone."""
    if not request.reply.set_running_or_notify_cancel():
        return
    try:
        verdict = session.command(request.command, now)
    except CompanionError as error:
        verdict = Verdict(session.snapshot.version, error.phrase)
    except BaseException as error:  # the asker hears of it, and the loop fails as ever
        request.reply.set_exception(error)
        raise
    request.reply.set_result(verdict)


def _status(phase: Phase, problem: bool) -> Status:
    """What the status light says."""
    if problem:
        return Status.PROBLEM
    if phase is Phase.PROPOSAL:
        return Status.READY
    return Status.WAITING
