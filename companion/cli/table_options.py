"""The table's own `companion play` options, as the service reads them, checked by the doctor.

The service starts `companion play --display fullscreen $COMPANION_PLAY_OPTIONS`
with the variable taken from the options file (`/etc/default/dixit-companion`).
A mistake there keeps the table from starting; the table shows it on its screen, and
`companion doctor` names it too, with the same words, so a café owner at a terminal
finds it without reading the service's log.
"""

import argparse
from pathlib import Path
from typing import Any, NoReturn

from companion.app.config_error import OPTIONS_FILE, OPTIONS_VARIABLE
from companion.cli import play
from companion.doctor.findings import OPTIONS, Finding, Status
from companion.errors import CompanionError, SettingError, UnreadableFileError

DEFAULT_OPTIONS_FILE = Path(OPTIONS_FILE)
"""Where the service's options are on a table installed by hardware/install."""
SERVICE_OPTIONS = ("--display", "fullscreen")
"""What the service's command line adds before the file's options."""


class _Refusing(argparse.ArgumentParser):
    """A parser that raises instead of printing and exiting: the doctor reports the
    refusal as a finding and goes on with its other checks."""

    def error(self, message: str) -> NoReturn:
        raise SettingError(message)


def read_options_file(path: Path) -> tuple[str, ...] | None:
    """The play options `path` gives, split into words as systemd splits an unquoted
    `$VARIABLE` (on white space, after taking off one pair of quotes around the value);
    None when the file does not say them."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UnreadableFileError(f"{path}: cannot be read ({err})") from err
    found = None
    for line in text.splitlines():
        name, equals, value = line.strip().partition("=")
        if equals and name.strip() == OPTIONS_VARIABLE:
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            found = tuple(value.split())
    return found


def check_play_options(words: tuple[str, ...], journal: Path) -> None:
    """Refuse the options as `companion play` would, before it opens anything."""
    parser = _Refusing(prog="companion")
    play.add_parser(parser.add_subparsers())
    try:
        args: Any = parser.parse_args(["play", *SERVICE_OPTIONS, *words])
    except SystemExit as stop:  # --help or --version in the file: play would not start
        raise SettingError(f"{' '.join(words)} would not start the game") from stop
    play.check_options(args, args.journal or journal)


def options_finding(path: Path, journal: Path) -> Finding:
    """Whether the table's service would start with the options in `path`."""
    if not path.exists():
        return Finding(Status.SKIP, OPTIONS, f"no {path}: the table is not installed as a service")
    try:
        words = read_options_file(path)
        if words is None:
            return Finding(
                Status.FAIL,
                OPTIONS,
                f"{path} has no {OPTIONS_VARIABLE}",
                f'add a line {OPTIONS_VARIABLE}="--players 5" (see hardware/default-options)',
            )
        check_play_options(words, journal)
    except CompanionError as err:
        return Finding(
            Status.FAIL,
            OPTIONS,
            f"{OPTIONS_VARIABLE} in {path}: {err}",
            f"put it right in {path}, then: sudo systemctl restart dixit-companion",
        )
    return Finding(Status.OK, OPTIONS, f"{' '.join(words) or 'defaults'} ({path})")
