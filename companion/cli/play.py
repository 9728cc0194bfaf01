"""`companion play`: the café game at a calibrated table.

It resumes the game the journal holds (after a restart or a power cut) unless told
to start a new one. The camera, buttons, status light and LED strip are each
optional: without a camera the game is entered by hand, without buttons it is played
by keys and touches. The options become a `TableConfig`, checked before anything is
opened, and the table is built from it by `build_table`, as the demo's is.
"""

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.cli import stopping
from companion.cli.each import EXIT_BAD_INPUT, fail
from companion.cli.parts import add_part_options
from companion.cli.web_options import PhonePage, add_web_options
from companion.display.screen import DISPLAY_MODES, DisplayMode, choose_mode
from companion.errors import CompanionError
from companion.language import Language, find_language
from companion.rules import OPTION_NAMES, RULESETS
from companion.runtime.build import Table, build_table, camera_source
from companion.runtime.config import DEFAULT_LANGUAGE, DEFAULT_SOURCE, TableConfig
from companion.runtime.config_error import show_config_error
from companion.runtime.housekeeping import KEEP_PICTURES_DAYS
from companion.runtime.service import NOTIFY_SOCKET, ServiceManager, service_manager
from companion.service_options import EX_CONFIG
from companion.session.draft import DEFAULT_RULESET
from companion.sources.registry import NO_SOURCE, SOURCE_FORMS
from companion.vision.decode import DECODERS

NAME = "play"
"""The subcommand's name."""


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
        default=DEFAULT_SOURCE,
        help=f"where frames come from: {', '.join(SOURCE_FORMS)}, or {NO_SOURCE} "
        f"(default {DEFAULT_SOURCE})",
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
    try:
        service = service_manager(os.environ)
        config = TableConfig.from_args(args)
    except CompanionError as err:
        status = fail(NAME, err)
        if under_service(args.display, os.environ):
            return refused_under_service(str(err), args.display, _language_or_none(args.language))
        return status
    try:
        with (
            PhonePage(config.web, config.journal, NAME) as page,
            play_table(config, service, page) as table,
            stopping.gently(table.loop.stop),  # after the frame it is drawing
        ):
            table.loop.run()
    except CompanionError as err:  # a journal in use, a full disk: may pass, restarted
        return fail(NAME, err)
    return 0


def play_table(
    config: TableConfig, service: ServiceManager | None = None, page: PhonePage | None = None
) -> Table:
    """The café table `config` describes, its camera the one the configuration names,
    what it leaves out said on stderr."""
    return build_table(
        config,
        camera_source(config.camera, say),
        say=say,
        service=service,
        page=page.address if page is not None else None,
        serve=page.serve if page is not None else None,
    )


def say(message: str) -> None:
    """What the table left out or recovered, in the log for whoever looks after it."""
    print(f"companion {NAME}: {message}", file=sys.stderr, flush=True)


def refused_under_service(
    message: str, display: str | None, language: Language | None = None
) -> int:
    """Show a mistake in the options on the table's screen, in `language` when the
    options name one (else English), until the service is stopped; `EX_CONFIG`, the one
    exit status the unit does not restart on, once it was shown (a screen that could
    not open is tried again: `EXIT_BAD_INPUT`)."""
    valid = display if display is not None and display.strip().lower() in DISPLAY_MODES else None
    shown = show_config_error(message, choose_mode(valid), os.environ, language)
    return EX_CONFIG if shown else EXIT_BAD_INPUT


def display_asked(words: Sequence[str]) -> str | None:
    """The `--display` a command line gives (the last, as argparse keeps), read from
    the words themselves: for a command line the parser refused."""
    return option_asked(words, "--display")


def language_asked(words: Sequence[str]) -> Language | None:
    """The language a command line names with `--language`, read from the words
    themselves, when it is one the table speaks: the error screen for a command line
    refused for another option is then in the table's language."""
    return _language_or_none(option_asked(words, "--language"))


def option_asked(words: Sequence[str], option: str) -> str | None:
    """The value of the last `option` (as argparse keeps) in `words`, given as two
    words or as `option=value`; None when there is none."""
    value = None
    for at, word in enumerate(words):
        if word == option and at + 1 < len(words):
            value = words[at + 1]
        elif word.startswith(f"{option}="):
            value = word.partition("=")[2]
    return value


def _language_or_none(code: str | None) -> Language | None:
    """The language `code` names, or None for none or one the table does not speak."""
    if code is None:
        return None
    try:
        return find_language(code)
    except CompanionError:
        return None


def under_service(display: str | None, environ: Mapping[str, str]) -> bool:
    """Whether this play runs as the table's service (systemd, or the full screen it
    draws on), where nobody reads stderr: a mistake in the options is shown on the
    screen instead of leaving it dark."""
    asked = display is not None and display.strip().lower() == DisplayMode.FULLSCREEN.value
    return bool(environ.get(NOTIFY_SOCKET)) or asked
