"""`companion play`: the café game at a calibrated table.

It resumes the game the journal holds (after a restart or a power cut) unless told
to start a new one. The camera, buttons, status light and LED strip are each
optional: without a camera the game is entered by hand, without buttons it is played
by keys and touches. Which backend drives each is chosen here and nowhere else.
"""

import argparse
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

from companion.cli import stopping
from companion.cli.each import EXIT_BAD_INPUT, fail
from companion.cli.numbers import whole_number
from companion.cli.parts import add_part_options, read_parts
from companion.cli.web_options import add_web_options, check_web, open_listener, serve
from companion.controls.buttons import Buttons
from companion.controls.light import StatusLight
from companion.controls.pins import quiet_gpio
from companion.controls.strip import DEFAULT_BRIGHTNESS, TrackStrip, make_strip
from companion.controls.strip_track import SPACES, check_track
from companion.display.screen import DISPLAY_MODES, DisplayMode, Screen, choose_mode
from companion.errors import (
    CalibrationFileError,
    CompanionError,
    HardwareError,
    LayoutError,
    SettingError,
    UnknownLayoutError,
)
from companion.journal import Journal, StoredGame, default_journal_path
from companion.journal.checkpoint import Checkpointer
from companion.kit.layouts import load_layout
from companion.language import Language, find_language
from companion.numbers import in_digits, too_long
from companion.phrases import Phrase, in_context, phrase
from companion.rules import OPTION_NAMES, RULESETS, Game, Ruleset, find_ruleset
from companion.runtime.camera import Camera, Failed, Watching, unavailable
from companion.runtime.config_error import show_config_error
from companion.runtime.housekeeping import (
    KEEP_PICTURES_DAYS,
    Housekeeper,
    Retention,
    check_keep_days,
)
from companion.runtime.loop import Loop
from companion.runtime.service import NOTIFY_SOCKET, ServiceManager, service_manager
from companion.service_options import EX_CONFIG
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings, check_auto_confirm, no_pictures
from companion.sources.base import FrameSource
from companion.sources.guarded import GuardedSource
from companion.sources.registry import (
    NO_SOURCE,
    SOURCE_FORMS,
    check_source,
    open_source,
    scheme_of,
)
from companion.statedir import camera_profile_path, default_calibration_path
from companion.vision.calibration import load_calibration
from companion.vision.decode import DECODERS, make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import Stabiliser

T = TypeVar("T")

NAME = "play"
"""The subcommand's name."""
DEFAULT_RULESET = "odyssey"
"""The ruleset of a new game set up on the command line when none is named."""
DEFAULT_LANGUAGE = Language.ENGLISH
"""The language a new group is greeted in when the table's options name none."""
JOURNAL_OPEN_SECONDS = 30.0
"""Time allowed for opening a small journal, on top of the service's own start time."""
SD_CARD_BYTES_PER_SECOND = 20e6
"""A slow SD card's reading speed: salvaging a damaged journal reads the whole file."""


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        NAME,
        help="run the café game at a calibrated table",
        description="Run the game: read the table, propose each round's score, keep it "
        "in the journal on Confirm, move the rabbits. Resumes the journal's unfinished game.",
    )
    parser.add_argument(
        "--ruleset",
        help=f"one of {', '.join(RULESETS)} (default {DEFAULT_RULESET}; a resumed game keeps "
        "its own)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"override a preset: {', '.join(OPTION_NAMES)} (null: no limit)",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        metavar="NAME=COLOUR",
        help="players in seating order, each with their kit colour (Ann=red Ben=blue); "
        "a bare name takes the next free colour; a number seats that many named by colour",
    )
    parser.add_argument(
        "--calibration",
        type=Path,
        help="the table's calibration file (default: calibration.json in the state folder)",
    )
    parser.add_argument(
        "--source",
        default="picamera",
        help=f"where frames come from: {', '.join(SOURCE_FORMS)}, or {NO_SOURCE} "
        "(default picamera)",
    )
    parser.add_argument("--decoder", choices=sorted(DECODERS), help="QR decoder (default zxing)")
    parser.add_argument("--journal", type=Path, help="the journal file")
    parser.add_argument(
        "--new-game",
        action="store_true",
        help="do not resume the last game: set up a new one (at the table, or as --players says)",
    )
    parser.add_argument(
        "--language",
        default=None,
        help=f"the language a new group is greeted in: {', '.join(x.value for x in Language)} "
        f"(default: {DEFAULT_LANGUAGE.value}); each group can change it at the table",
    )
    parser.add_argument(
        "--auto-confirm", type=float, metavar="SECONDS", help="confirm proposals after a countdown"
    )
    parser.add_argument(
        "--keep-pictures",
        type=int,
        default=KEEP_PICTURES_DAYS,
        metavar="DAYS",
        help="days each finished game's pictures are kept before they are pruned while "
        f"the table is idle; scores are kept forever (default {KEEP_PICTURES_DAYS})",
    )
    parser.add_argument("--display", choices=DISPLAY_MODES)
    add_part_options(parser, "use")
    add_web_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play until a player quits, or Ctrl-C or SIGTERM ends the loop after the frame it
    is drawing; the journal keeps every confirmed round."""
    path = args.journal or default_journal_path()
    try:
        service = service_manager(os.environ)
        check_options(args)
    except CompanionError as err:
        status = fail(NAME, err)
        if under_service(args.display, os.environ):
            return refused_under_service(str(err), args.display)
        return status
    try:
        with ExitStack() as stack:
            service.extend_start(journal_check_seconds(path))
            journal, recovered = Journal.open_or_recover(path)
            stack.enter_context(journal)
            stack.enter_context(Checkpointer(journal.path))
            loop = _loop(args, journal, stack, service)
            if recovered:  # on the screen for the players, in the log for whoever looks after it
                print(f"companion play: {recovered}", file=sys.stderr, flush=True)
                loop.session.say(recovered, 0.0)
            with stopping.gently(loop.stop):  # after the frame it is drawing
                loop.run()
    except CompanionError as err:  # a journal in use, a full disk: may pass, restarted
        return fail(NAME, err)
    return 0


def refused_under_service(message: str, display: str | None) -> int:
    """Show a mistake in the options on the table's screen until the service is
    stopped; `EX_CONFIG`, the one exit status the unit does not restart on, once it was
    shown (a screen that could not open is tried again: `EXIT_BAD_INPUT`)."""
    valid = display if display is not None and display.strip().lower() in DISPLAY_MODES else None
    shown = show_config_error(message, choose_mode(valid), os.environ)
    return EX_CONFIG if shown else EXIT_BAD_INPUT


def display_asked(words: Sequence[str]) -> str | None:
    """The `--display` a command line gives (the last, as argparse keeps), read from
    the words themselves: for a command line the parser refused."""
    display = None
    for at, word in enumerate(words):
        if word == "--display" and at + 1 < len(words):
            display = words[at + 1]
        elif word.startswith("--display="):
            display = word.partition("=")[2]
    return display


def under_service(display: str | None, environ: Mapping[str, str]) -> bool:
    """Whether this play runs as the table's service (systemd, or the full screen it
    draws on), where nobody reads stderr: a mistake in the options is shown on the
    screen instead of leaving it dark."""
    asked = display is not None and display.strip().lower() == DisplayMode.FULLSCREEN.value
    return bool(environ.get(NOTIFY_SOCKET)) or asked


def check_options(args: argparse.Namespace) -> None:
    """Refuse any option that makes no sense, before anything is opened or written:
    a game started from a mistake (a misspelt source, two buttons on one pin) would
    run on without the part, or keep a game nobody meant in the journal."""
    check_source(args.source)
    ruleset = _ruleset(args)
    strip = read_parts(args).strip
    if strip is not None:  # the doctor lights shorter strips; the game needs the track
        check_track(strip.length, SPACES, DEFAULT_BRIGHTNESS)
    check_auto_confirm(args.auto_confirm)
    check_keep_days(args.keep_pictures)
    choose_mode(args.display)
    _language(args)
    check_web(args)
    if args.players:
        lineup = _lineup(args.players)
        Game.start(ruleset, lineup.names, lineup.names[0])


def _loop(
    args: argparse.Namespace,
    journal: Journal,
    stack: ExitStack,
    service: ServiceManager | None = None,
) -> Loop:
    """The loop with every part the options ask for."""
    parts = read_parts(args)
    button_pins, light_pins = parts.buttons, parts.light
    camera, camera_note = _camera(args)
    slots = tuple(s.slot for s in camera.layout.slots) if camera else tuple(range(1, 13))
    settings = Settings(
        slots, auto_confirm=check_auto_confirm(args.auto_confirm), language=_language(args)
    )
    stored = None if args.new_game else journal.resume()
    if stored is not None and _asks_for_another_game(args, stored):
        print(
            f"companion play: the players or ruleset given differ from game {stored.id}'s, "
            "which is left unfinished; starting a new game",
            file=sys.stderr,
            flush=True,
        )
        stored = None
    pictures = camera.pictures if camera is not None else no_pictures
    if stored is not None:
        session = Session.resumed(stored, journal, settings, pictures)
    elif args.players:
        session = Session.new(_ruleset(args), _lineup(args.players), journal, settings, pictures)
    else:
        session = Session.setting_up(journal, settings, pictures)
    if camera is not None:
        stack.callback(camera.close)
    light = None
    if light_pins is not None:
        light = _optional(lambda: StatusLight(light_pins), "status light")
        if light is not None:
            stack.callback(light.close)
    driver = make_strip(args.strip)
    strip = TrackStrip(driver) if driver is not None else None
    if strip is not None:
        stack.callback(strip.close)
    screen = stack.enter_context(Screen(mode=choose_mode(args.display)))
    listener = open_listener(args, NAME)
    if listener is not None:
        stack.callback(listener.close)
    start = time.monotonic()
    loop = Loop(
        session,
        screen,
        lambda: time.monotonic() - start,
        camera,
        camera_note=camera_note,
        light=light,
        strip=strip,
        service=service,
        page=listener.page if listener is not None else None,
        housekeeper=Housekeeper(journal, Retention(keep_days=args.keep_pictures)),
    )
    if listener is not None:
        server = serve(listener, loop, journal.path, os.environ, NAME)
        if server is not None:
            stack.callback(server.close)
    if button_pins is not None:
        buttons = _optional(lambda: Buttons(button_pins, loop.post), "buttons")
        if buttons is not None:
            stack.callback(buttons.close)
    return loop


def _camera(args: argparse.Namespace) -> tuple[Camera | None, Phrase | str]:
    """The camera and reader, or None and why: the game is then entered by hand.

    A missing or damaged calibration does not stop the game (at boot there may be
    nobody at a keyboard to read an error): the screen says what to run instead."""
    if scheme_of(args.source) == NO_SOURCE:  # as `check_source` reads it: " NONE" too
        return None, ""
    path = args.calibration or default_calibration_path()
    try:
        calibration = load_calibration(path)
        layout = load_layout(calibration.layout)
    except (CalibrationFileError, LayoutError, UnknownLayoutError) as err:
        note = phrase(
            "no calibration: {problem}. Put the empty board under the camera and run "
            "companion calibrate; until then the game is entered by hand (press {button})",
            problem=err.phrase,
            button=in_context("button", "Fix"),
        )
        print(f"companion play: {note}", file=sys.stderr, flush=True)
        return None, note
    reader = TableReader(calibration, layout, make_decoder(args.decoder))
    spec, profile = args.source, camera_profile_path(path)

    def open_camera() -> FrameSource:
        return GuardedSource(open_source(spec, profile))

    start: Watching | Failed
    try:
        start = Watching(open_camera())
    except CompanionError as err:  # shown, and tried again, as the loop does later
        start = Failed(unavailable(err), retry_at=0.0)
    return Camera(open_camera, TableWatcher(reader, Stabiliser()), layout, start), ""


def _asks_for_another_game(args: argparse.Namespace, stored: StoredGame) -> bool:
    """Whether the options name other players or another ruleset than the stored game
    has: a table's options changed between games. The same options (a restart) resume."""
    game = stored.game
    if args.players:
        lineup = _lineup(args.players)
        players = game.seating.players
        if lineup != Lineup(players, tuple(stored.colours[p] for p in players)):
            return True
    asked = args.ruleset is not None or bool(args.option)
    return asked and _ruleset(args) != game.ruleset


def journal_check_seconds(path: Path) -> float:
    """How long opening the journal may take at the worst: a sound journal opens in
    the same time whatever its size, but a damaged one is read and copied out into a
    fresh one, at SD card speed."""
    size = path.stat().st_size if path.is_file() else 0
    return JOURNAL_OPEN_SECONDS + 2 * size / SD_CARD_BYTES_PER_SECOND


def _ruleset(args: argparse.Namespace) -> Ruleset:
    ruleset = find_ruleset(DEFAULT_RULESET if args.ruleset is None else args.ruleset)
    options: dict[str, int | None] = {}
    for entry in args.option:
        if not entry.isprintable():  # a message names it on one line
            raise SettingError(f"--option {entry!r}: give NAME=VALUE in printable characters")
        name, _, value = entry.partition("=")
        value = value.strip()
        if value == "null":
            options[name.strip()] = None
            continue
        if not in_digits(value, signed=True):
            raise SettingError(
                f"--option {entry}: the value must be a whole number or null, in digits 0-9"
            )
        fault = too_long(value)
        if fault is not None:
            raise SettingError(f"--option {name.strip()}: {fault}")
        options[name.strip()] = int(value)
    return ruleset.with_options(options) if options else ruleset


def _language(args: argparse.Namespace) -> Language:
    """The table's default language: --language, else the default."""
    return DEFAULT_LANGUAGE if args.language is None else find_language(args.language)


def _lineup(players: list[str]) -> Lineup:
    if len(players) == 1 and players[0].isdigit():  # in any script: "²" is refused here
        return Lineup.of_colours(whole_number("--players", players[0], "a number of players"))
    return Lineup.parse(players)


def _optional(make: Callable[[], T], what: str) -> T | None:
    """A GPIO part, or None with a note when this machine has no GPIO for it (the
    note says it all, so gpiozero's warnings about each library it tried are hushed)."""
    try:
        with quiet_gpio():
            return make()
    except HardwareError as err:
        print(f"companion play: no {what}: {err}", file=sys.stderr, flush=True)
        return None
