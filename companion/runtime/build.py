"""The one way a table is built: from its configuration and a source of frames.

`build_table` wires the whole table (the journal, recovered if damaged; the reader,
watcher and camera; the session, resumed or set up; the status light, LED strip and
screen; the loop with its housekeeper; the phone page served from the loop; the
buttons posting to it) for `companion play`, at a café table, and for
`companion demo`, over a simulated one. The two differ only in their configuration
and in their source: `camera_source` turns a configuration's camera into one (or
into the note of why there is none), the demo gives its simulated table.

A part that cannot be had is left out with a note, as at boot there may be nobody
at a keyboard: a status light or buttons on a machine without GPIO, a camera
without calibration (the game is then entered by hand). What the configuration
refused never reaches here.
"""

import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from companion.closing import Closing
from companion.controls.buttons import Buttons
from companion.controls.light import StatusLight
from companion.controls.pins import quiet_gpio
from companion.controls.strip import TrackStrip, open_strip
from companion.display.screen import Screen
from companion.errors import (
    CalibrationFileError,
    CompanionError,
    HardwareError,
    LayoutError,
    UnknownLayoutError,
)
from companion.journal import Journal
from companion.journal.checkpoint import Checkpointer
from companion.kit.layouts import Layout, load_layout
from companion.phrases import Phrase, in_context, phrase
from companion.runtime.camera import Camera, Failed, Watching, unavailable
from companion.runtime.config import CameraConfig, GameConfig, TableConfig
from companion.runtime.effects import JournalEffects, Pictures, no_pictures
from companion.runtime.housekeeping import Housekeeper, Retention
from companion.runtime.loop import Clock, Loop
from companion.runtime.service import QuietManager, ServiceManager
from companion.session.session import Session, Settings
from companion.session.setup import STEP_NAMES
from companion.session.states import PickingLanguage
from companion.sources.base import FrameSource
from companion.sources.guarded import GuardedSource
from companion.sources.registry import open_source
from companion.statedir import camera_profile_path
from companion.vision.calibration import Calibration, load_calibration
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import Stabiliser

T = TypeVar("T")

JOURNAL_OPEN_SECONDS = 30.0
"""Time allowed for opening a small journal, on top of the service's own start time."""
SD_CARD_BYTES_PER_SECOND = 20e6
"""A slow SD card's reading speed: salvaging a damaged journal reads the whole file."""
NO_CAMERA_SLOTS = tuple(range(1, 13))
"""The slots a table without a camera (and so without a board layout) offers."""

Say = Callable[[str], None]
"""Where a table's build says what it left out, or recovered: one line each."""


@dataclass(frozen=True)
class Sight:
    """A camera over a calibrated board."""

    open: Callable[[], FrameSource]
    """Opens the camera; called again to reopen it after a failure."""
    calibration: Calibration
    """Where the board lies in the camera's frames."""
    layout: Layout
    """The board the calibration was made on."""


@dataclass(frozen=True)
class Blind:
    """No camera: the game is entered by hand."""

    note: Phrase | str = ""
    """Why, shown where the camera's picture would be ("": asked for no camera)."""


@dataclass(eq=False)
class Table(Closing):
    """A table built and running its parts; closing it lets every part go, the journal last."""

    loop: Loop
    """The loop: run it (or step it) to play."""
    journal: Journal
    """The journal the session keeps every round in."""
    camera: Camera | None
    """The camera, or None when the game is entered by hand."""
    resumed: int | None
    """The number of the journal's game it went on with; None for a new one."""
    parts: ExitStack
    """Closes what was opened, in the reverse order."""

    @property
    def session(self) -> Session:
        """The game."""
        return self.loop.session

    @property
    def screen(self) -> Screen:
        """What the players see and touch."""
        return self.loop.screen

    @property
    def housekeeper(self) -> Housekeeper | None:
        """What prunes the journal's old pictures while the table is idle."""
        return self.loop.housekeeper

    def close(self) -> None:
        self.parts.close()


def camera_source(camera: CameraConfig, say: Say) -> Sight | Blind:
    """The camera a configuration names, or why there is none.

    A missing or damaged calibration does not stop the game (at boot there may be
    nobody at a keyboard to read an error): the screen says what to run instead."""
    if not camera.has_camera:
        return Blind()
    try:
        calibration = load_calibration(camera.calibration)
        layout = load_layout(calibration.layout)
    except (CalibrationFileError, LayoutError, UnknownLayoutError) as err:
        note = phrase(
            "no calibration: {problem}. Put the empty board under the camera and run "
            "companion calibrate; until then the game is entered by hand (press {button})",
            problem=err.phrase,
            button=in_context("button", "Fix"),
        )
        say(str(note))
        return Blind(note)
    spec, profile = camera.source, camera_profile_path(camera.calibration)
    return Sight(lambda: GuardedSource(open_source(spec, profile)), calibration, layout)


def journal_check_seconds(path: Path) -> float:
    """How long opening the journal may take at the worst: a sound journal opens in
    the same time whatever its size, but a damaged one is read and copied out into a
    fresh one, at SD card speed."""
    size = path.stat().st_size if path.is_file() else 0
    return JOURNAL_OPEN_SECONDS + 2 * size / SD_CARD_BYTES_PER_SECOND


def build_table(
    config: TableConfig,
    source: Sight | Blind,
    *,
    say: Say | None = None,
    clock: Clock | None = None,
    service: ServiceManager | None = None,
    page: Callable[[], str | None] | None = None,
    serve: Callable[[Loop], Closing | None] | None = None,
) -> Table:
    """The table `config` describes, reading the board from `source`, every part open.

    `say` hears what was left out or recovered (stderr by default), `clock` counts
    seconds from the start (the machine's, by default), `service` is told how the
    start goes. `page` gives the phone page's address for the screen's QR code, and
    `serve` starts what goes with the loop (the page's server). Raises only what
    stops a table: a journal in use or unwritable, a strip that cannot be opened."""
    say = say or _on_stderr
    service = service or QuietManager()
    parts = ExitStack()
    try:
        journal, recovered = _open_journal(config.journal, service, parts)
        camera = _camera(source, config.camera.decoder, parts)
        slots = tuple(s.slot for s in camera.layout.slots) if camera else NO_CAMERA_SLOTS
        settings = Settings(
            slots, auto_confirm=config.game.auto_confirm, language=config.game.language
        )
        pictures = camera.pictures if camera is not None else no_pictures
        session, resumed = _session(config.game, journal, settings, pictures, say)
        if recovered:  # on the screen for the players, in the log for whoever looks after it
            say(recovered)
            session.say(recovered, 0.0)
        light = strip = None
        if config.wiring.light is not None:
            light_pins = config.wiring.light
            light = _optional(lambda: StatusLight(light_pins), "status light", say, parts)
        if config.wiring.strip is not None:
            driver = parts.enter_context(open_strip(config.wiring.strip))
            strip = parts.enter_context(TrackStrip(driver))
        screen = parts.enter_context(Screen(config.screen, config.display))
        loop = Loop(
            session,
            screen,
            clock or _since_now(),
            camera,
            camera_note=source.note if isinstance(source, Blind) else "",
            light=light,
            strip=strip,
            service=service,
            page=page,
            housekeeper=Housekeeper(journal, Retention(keep_days=config.keep_pictures)),
        )
        server = serve(loop) if serve is not None else None
        if server is not None:
            parts.callback(server.close)
        if config.wiring.buttons is not None:
            button_pins = config.wiring.buttons
            _optional(lambda: Buttons(button_pins, loop.post), "buttons", say, parts)
    except BaseException:
        parts.close()
        raise
    return Table(loop, journal, camera, resumed, parts)


def _open_journal(
    path: Path, service: ServiceManager, parts: ExitStack
) -> tuple[Journal, str | None]:
    """The journal, opened, or salvaged into a fresh one if it is damaged (and then
    what was kept, in words), with its log checkpointed on a thread of its own."""
    service.extend_start(journal_check_seconds(path))
    journal, recovered = Journal.open_or_recover(path)
    parts.enter_context(journal)
    parts.enter_context(Checkpointer(journal.path))
    return journal, recovered


def _camera(source: Sight | Blind, decoder: str | None, parts: ExitStack) -> Camera | None:
    """The camera with its reader, or None without one. A camera that cannot be
    opened now is shown, and tried again, as the loop does later."""
    if isinstance(source, Blind):
        return None
    reader = TableReader(source.calibration, source.layout, make_decoder(decoder))
    start: Watching | Failed
    try:
        start = Watching(source.open())
    except CompanionError as err:
        start = Failed(unavailable(err), retry_at=0.0)
    camera = Camera(source.open, TableWatcher(reader, Stabiliser()), source.layout, start)
    parts.callback(camera.close)
    return camera


def _session(
    game: GameConfig, journal: Journal, settings: Settings, pictures: Pictures, say: Say
) -> tuple[Session, int | None]:
    """The session: the journal's unfinished game, unless a new one is asked for; else
    the game given outright, or its setup at the table. Also the game resumed."""
    effects = JournalEffects(journal, pictures)
    stored = None if game.new_game else journal.resume()
    if stored is not None and game.asks_for_another_game(stored):
        say(
            f"the players or ruleset given differ from game {stored.id}'s, "
            "which is left unfinished; starting a new game"
        )
        stored = None
    if stored is not None:
        return Session.resumed(stored, effects, settings), stored.id
    if game.lineup is not None:
        return Session.new(game.ruleset, game.lineup, effects, settings), None
    if game.setup is not None and game.new_game:
        journal.save_setup(STEP_NAMES[PickingLanguage], game.setup.document())
    return Session.setting_up(effects, settings), None


def _optional(make: Callable[[], T], what: str, say: Say, parts: ExitStack) -> T | None:
    """A GPIO part, or None with a note when this machine has no GPIO for it (the
    note says it all, so gpiozero's warnings about each library it tried are hushed)."""
    try:
        with quiet_gpio():
            made = make()
    except HardwareError as err:
        say(f"no {what}: {err}")
        return None
    if isinstance(made, Closing):
        parts.callback(made.close)
    return made


def _since_now() -> Clock:
    """Seconds since now, on the machine's clock."""
    start = time.monotonic()
    return lambda: time.monotonic() - start


def _on_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
