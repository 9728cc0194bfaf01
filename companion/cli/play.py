"""`companion play`: the café game at a calibrated table.

It resumes the game the journal holds (after a restart or a power cut) unless told
to start a new one. The camera, buttons, status light and LED strip are each
optional: without a camera the game is entered by hand, without buttons it is played
by keys and touches. Which backend drives each is chosen here and nowhere else.
"""

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

from companion.app.lineup import Lineup
from companion.app.loop import Camera, Loop
from companion.app.service import service_manager
from companion.app.session import Session, Settings, check_auto_confirm
from companion.cli.each import fail
from companion.cli.parts import add_part_options
from companion.controls.buttons import ButtonPins, Buttons
from companion.controls.light import LightPins, StatusLight
from companion.controls.pins import parse_pins, quiet_gpio
from companion.controls.strip import TrackStrip, make_strip
from companion.display.screen import DISPLAY_MODES, Screen, choose_mode
from companion.errors import (
    CalibrationFileError,
    CameraUnavailableError,
    CompanionError,
    HardwareError,
    SettingError,
)
from companion.journal import Journal, default_journal_path
from companion.kit.layouts import load_layout
from companion.rules import RULESETS, Ruleset, find_ruleset
from companion.sources.guarded import GuardedSource
from companion.sources.registry import SOURCE_FORMS, open_source
from companion.statedir import camera_profile_path, default_calibration_path
from companion.vision.calibration import load_calibration
from companion.vision.decode import DECODERS, make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import Stabiliser

T = TypeVar("T")


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "play",
        help="run the café game at a calibrated table",
        description="Run the game: read the table, propose each round's score, keep it "
        "in the journal on Confirm, move the rabbits. Resumes the journal's unfinished game.",
    )
    parser.add_argument("--ruleset", default="odyssey", help=f"one of {', '.join(RULESETS)}")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a preset: target, bonus_cap, storyteller_turns, deck (null: no limit)",
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
        help=f"where frames come from: {', '.join(SOURCE_FORMS)}, or none (default picamera)",
    )
    parser.add_argument("--decoder", choices=sorted(DECODERS), help="QR decoder (default zxing)")
    parser.add_argument("--journal", type=Path, help="the journal file")
    parser.add_argument("--new-game", action="store_true", help="do not resume the last game")
    parser.add_argument(
        "--auto-confirm", type=float, metavar="SECONDS", help="confirm proposals after a countdown"
    )
    parser.add_argument("--display", choices=DISPLAY_MODES)
    add_part_options(parser, "use")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play until a player quits; the journal keeps every confirmed round."""
    try:
        with ExitStack() as stack:
            journal, recovered = Journal.open_or_recover(args.journal or default_journal_path())
            stack.enter_context(journal)
            loop = _loop(args, journal, stack)
            if recovered:
                loop.session.say(recovered, 0.0)
            signal.signal(signal.SIGTERM, lambda *_: loop.stop())
            loop.run()
    except CompanionError as err:
        return fail("play", err)
    return 0


def _loop(args: argparse.Namespace, journal: Journal, stack: ExitStack) -> Loop:
    """The loop with every part the options ask for."""
    camera, camera_note = _camera(args)
    slots = tuple(s.slot for s in camera.layout.slots) if camera else tuple(range(1, 13))
    settings = Settings(slots, auto_confirm=check_auto_confirm(args.auto_confirm))
    stored = None if args.new_game else journal.resume()
    if stored is not None:
        session = Session.resumed(stored, journal, settings)
        if args.players or args.option:
            print(
                f"companion play: going on with game {stored.id} as it was set up; "
                "--new-game starts a new one with these players and options",
                file=sys.stderr,
                flush=True,
            )
    else:
        session = Session(_ruleset(args), _lineup(args.players), journal, settings)
    screen = stack.enter_context(Screen(mode=choose_mode(args.display)))
    start = time.monotonic()
    service = service_manager(os.environ)
    loop = Loop(session, screen, lambda: time.monotonic() - start, camera=camera, service=service)
    loop.camera_note = camera_note
    if camera is not None:
        stack.callback(lambda: camera.source.close() if camera.source else None)
    if not args.no_buttons:
        pins = parse_pins(args.buttons, "--buttons")
        buttons = _optional(lambda: Buttons(ButtonPins(*pins), loop.post), "buttons")
        if buttons is not None:
            stack.callback(buttons.close)
    if not args.no_light:
        red, green, blue = parse_pins(args.light, "--light")
        loop.light = _optional(lambda: StatusLight(LightPins(red, green, blue)), "status light")
        if loop.light is not None:
            stack.callback(loop.light.close)
    driver = make_strip(args.strip)
    if driver is not None:
        loop.strip = TrackStrip(driver)
        stack.callback(loop.strip.close)
    return loop


def _camera(args: argparse.Namespace) -> tuple[Camera | None, str]:
    """The camera and reader, or None and why: the game is then entered by hand.

    A missing or damaged calibration does not stop the game (at boot there may be
    nobody at a keyboard to read an error): the screen says what to run instead."""
    if args.source == "none":
        return None, ""
    path = args.calibration or default_calibration_path()
    try:
        calibration = load_calibration(path)
    except CalibrationFileError as err:
        note = (
            f"no calibration: {err}. Put the empty board under the camera and run "
            "companion calibrate; until then the game is entered by hand (press Fix)"
        )
        print(f"companion play: {note}", file=sys.stderr, flush=True)
        return None, note
    layout = load_layout(calibration.layout)
    reader = TableReader(calibration, layout, make_decoder(args.decoder))
    spec, profile = args.source, camera_profile_path(path)
    camera = Camera(
        lambda: GuardedSource(open_source(spec, profile)),
        TableWatcher(reader, Stabiliser()),
        layout,
    )
    try:
        camera.source = camera.open_source()
    except CameraUnavailableError as err:
        camera.problem = f"camera not available: {err}"
    return camera, ""


def _ruleset(args: argparse.Namespace) -> Ruleset:
    ruleset = find_ruleset(args.ruleset)
    options: dict[str, int | None] = {}
    for entry in args.option:
        name, _, value = entry.partition("=")
        try:
            options[name.strip()] = None if value.strip() == "null" else int(value)
        except ValueError:
            raise SettingError(
                f"--option {entry}: the value must be a whole number or null"
            ) from None
    return ruleset.with_options(options) if options else ruleset


def _lineup(players: list[str] | None) -> Lineup:
    if not players:
        raise SettingError("say who plays: --players Ann=red Ben=blue ... (or --players 5)")
    if len(players) == 1 and players[0].isdigit():
        return Lineup.of_colours(int(players[0]))
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
