"""`companion doctor`: check a table's camera, calibration, tags, controls and journal.

One line per check, each problem with its fix in plain words, for a café owner rather
than a programmer. The options are `companion play`'s, so the doctor checks the
parts the game will use. The exit status is 0 when nothing failed (warnings
allowed), 1 when a check failed, and 2 for options that make no sense.
"""

import argparse
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.cli.each import fail
from companion.cli.parts import add_part_options
from companion.cli.table_options import DEFAULT_OPTIONS_FILE, options_finding, staff_pin_finding
from companion.doctor import Probes, Settings, examine, exit_status, finding_lines, summary
from companion.doctor.findings import OPTIONS, TITLE, Finding
from companion.doctor.settings import FRAMES
from companion.errors import CompanionError
from companion.journal import default_journal_path
from companion.numbers import whole_number
from companion.runtime.config import DEFAULT_SOURCE, CameraConfig, Wiring
from companion.service_options import OPTIONS_VARIABLE, STAFF_PIN_VARIABLE
from companion.sources.registry import NO_SOURCE, SOURCE_FORMS
from companion.vision.decode import DECODERS


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "doctor",
        help="check the table: camera, calibration, tags, buttons, lights, journal, disk",
        description="Check every part of the table the game uses, one line each, with "
        "what to do about each problem. Exit status 1 if any check failed.",
    )
    parser.add_argument(
        "--source",
        default=DEFAULT_SOURCE,
        help=f"where frames come from: {', '.join(SOURCE_FORMS)}, or {NO_SOURCE} "
        f"(default {DEFAULT_SOURCE})",
    )
    parser.add_argument(
        "--calibration",
        type=Path,
        help="the table's calibration file (default: calibration.json in the state folder)",
    )
    parser.add_argument(
        "--journal", type=Path, help="the journal (default: journal.sqlite in the state folder)"
    )
    parser.add_argument("--decoder", choices=sorted(DECODERS), help="QR decoder (default zxing)")
    parser.add_argument(
        "--frames",
        default=str(FRAMES),
        help=f"frames to read from the camera (default {FRAMES})",
    )
    add_part_options(parser, "check")
    parser.add_argument(
        "--press", action="store_true", help="ask for a press of each button and wait for it"
    )
    parser.add_argument(
        "--options-file",
        type=Path,
        default=DEFAULT_OPTIONS_FILE,
        help=f"the service's options file, whose {OPTIONS_VARIABLE} is checked as play "
        f"would check it, and its {STAFF_PIN_VARIABLE} (default {DEFAULT_OPTIONS_FILE})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run every check, printing each line as it is known; the exit status says whether
    any failed."""
    try:
        settings = _settings(args)
    except CompanionError as err:
        return fail("doctor", err)
    print(TITLE, flush=True)
    findings: list[Finding] = []
    for finding in _findings(settings, args.options_file):  # Ctrl-C: the lines so far
        print(finding_lines(finding), flush=True)
        findings.append(finding)
    print(summary(findings), flush=True)
    return exit_status(findings)


def _findings(settings: Settings, options_file: Path) -> Iterator[Finding]:
    """Every check's finding in order, the staff PIN's next to the options', as the
    same file holds both."""
    options = functools.partial(options_finding, options_file)
    for finding in examine(settings, Probes(say=_say, table_options=options)):
        yield finding
        if finding.check == OPTIONS:
            yield staff_pin_finding(options_file)


def _say(message: str) -> None:
    """What the person at the table should look at or press, between the report's lines."""
    print(f"      {message}", flush=True)


def _settings(args: argparse.Namespace) -> Settings:
    """The settings the options give, checked before anything is opened: the camera and
    the wiring as `companion play` reads and checks them."""
    camera = CameraConfig.from_args(args)
    wiring = Wiring.from_args(args)
    return Settings.of(
        camera,
        args.journal or default_journal_path(),
        wiring,
        frames=whole_number("--frames", args.frames, "a number of frames"),
        press=args.press,
    )
