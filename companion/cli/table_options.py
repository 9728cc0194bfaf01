"""The table's own `companion play` options, as the service reads them, checked by the doctor.

The service starts `companion play --display fullscreen $COMPANION_PLAY_OPTIONS`
with the variable taken from the options file (`/etc/default/dixit-companion`), or
the unit's own default when the file does not set it. A mistake there keeps the
table from starting; the table shows it on its screen, and `companion doctor` names
it too, with the same words, so a café owner at a terminal finds it without reading
the service's log: the file is read as systemd reads it (`companion.cli.env_file`),
and its words become a `TableConfig` as play's own command line does, through the
same checks. The options are checked as the service would run them: with the
service's state folder, not the doctor's, deciding whether a game can be resumed.

The same file holds the staff PIN of the phone page (`COMPANION_STAFF_PIN`), which the
doctor reads with the same parser: without a usable PIN the staff tools are off.
"""

import argparse
from pathlib import Path
from typing import Any, NoReturn

from companion.cli import play
from companion.cli.env_file import env_file_assignments, systemd_words
from companion.doctor.findings import OPTIONS, Finding, Status
from companion.errors import CompanionError, SettingError, UnreadableFileError
from companion.runtime.config import TableConfig
from companion.service_options import (
    DEFAULT_PLAY_OPTIONS,
    GAME_OPTIONS,
    OPTIONS_FILE,
    OPTIONS_VARIABLE,
    PIN_DIGITS,
    STAFF_PIN_VARIABLE,
    pin_problem,
)

DEFAULT_OPTIONS_FILE = Path(OPTIONS_FILE)
"""Where the service's options are on a table installed by hardware/install."""
STAFF_PIN = "staff PIN"
"""The doctor's check of the staff PIN in the options file, reported after the options'."""
SERVICE_OPTIONS = ("--display", "fullscreen")
"""What the service's command line adds before the file's options."""


class _Refusing(argparse.ArgumentParser):
    """A parser that raises instead of printing and exiting: the doctor reports the
    refusal as a finding and goes on with its other checks."""

    def error(self, message: str) -> NoReturn:
        raise SettingError(message)


def read_options_file(path: Path) -> tuple[str, ...] | None:
    """The play options `path` gives, split into words as systemd splits an unquoted
    `$VARIABLE`; None when the file does not say them.

    Two stages, as in systemd: `EnvironmentFile=` reads the value with its own rules
    (`env_file_assignments`), then `$FOO`, a word of its own on the command line,
    becomes "the value split at whitespace" (systemd.service(5), "Command lines"),
    with quotes and backslashes honoured once more (`systemd_words`). So the file line
    `COMPANION_PLAY_OPTIONS=--players "Ann Lee"=red` keeps its quotes in the value and
    gives the words `--players` and `Ann Lee=red`. The last assignment counts; one
    whose name is not exactly the variable's (`export COMPANION_PLAY_OPTIONS=...`)
    is ignored, as systemd ignores it."""
    value = _last_assignment(path, OPTIONS_VARIABLE)
    return None if value is None else systemd_words(value)


def read_staff_pin(path: Path) -> str | None:
    """The staff PIN `path` gives the service, as `EnvironmentFile=` reads it (the
    service takes it from its environment, unsplit); None when the file sets none."""
    return _last_assignment(path, STAFF_PIN_VARIABLE)


def _last_assignment(path: Path, variable: str) -> str | None:
    """The value the environment file `path` gives `variable` (its last assignment, as
    in systemd); None when it gives none."""
    try:
        text = path.read_bytes().decode("utf-8")  # "\r" ends a line, as in systemd
    except (OSError, UnicodeDecodeError) as err:
        raise UnreadableFileError(f"{path}: cannot be read ({err})") from err
    found = None
    for name, value in env_file_assignments(text):
        if name == variable:
            found = value
    return found


def play_config(words: tuple[str, ...]) -> TableConfig:
    """The table's configuration the service would start `companion play` with, read
    and checked as play reads and checks its command line, before it opens anything."""
    parser = _Refusing(prog="companion")
    play.add_parser(parser.add_subparsers())
    try:
        args: Any = parser.parse_args(["play", *SERVICE_OPTIONS, *words])
    except SystemExit as stop:  # --help or --version in the file: play would not start
        raise SettingError(f"{' '.join(words)} would not start the game") from stop
    return TableConfig.from_args(args)


def options_finding(path: Path) -> Finding:
    """Whether the table's service would start with the options in `path`, and whether
    they hold only what belongs to the table."""
    if not path.exists():
        return Finding(Status.SKIP, OPTIONS, f"no {path}: the table is not installed as a service")
    default = ""
    try:
        words = read_options_file(path)
        if words is None:  # the unit's Environment= line then holds
            words = DEFAULT_PLAY_OPTIONS
            default = f", the service's default: {path} has no {OPTIONS_VARIABLE}"
        play_config(words)
    except CompanionError as err:
        return Finding(
            Status.FAIL,
            OPTIONS,
            f"{OPTIONS_VARIABLE} in {path}: {err}",
            f"put it right in {path}, then: sudo systemctl restart dixit-companion",
        )
    fixed = [w for w in words if w.partition("=")[0] in GAME_OPTIONS]
    if fixed:
        return Finding(
            Status.WARN,
            OPTIONS,
            f"{', '.join(fixed)} in {path} give every group the same game",
            f"remove them from {OPTIONS_VARIABLE}: each group sets up its own game on the "
            "table's screen (the file holds only the table's language, strip, pins and "
            "auto-confirm); then: sudo systemctl restart dixit-companion",
        )
    return Finding(Status.OK, OPTIONS, f"{' '.join(words) or 'defaults'} ({path}{default})")


def staff_pin_finding(path: Path) -> Finding:
    """Whether the options file in `path` gives the phone page a staff PIN it can use:
    a warning, not a failure, since the table plays without its staff tools. The PIN
    itself is never shown."""
    if not path.exists():
        return Finding(
            Status.SKIP, STAFF_PIN, f"no {path}: the table is not installed as a service"
        )
    try:
        pin = read_staff_pin(path)
    except CompanionError as err:
        return Finding(Status.SKIP, STAFF_PIN, f"not checked: {err}")
    problem = pin_problem(pin)
    if problem is not None:
        return Finding(
            Status.WARN,
            STAFF_PIN,
            f"{problem} ({STAFF_PIN_VARIABLE} in {path}): staff tools on the phone page are off",
            f"set {STAFF_PIN_VARIABLE}=... to {PIN_DIGITS[0]} to {PIN_DIGITS[-1]} digits in "
            f"{path} (hardware/install makes a random one), then: "
            "sudo systemctl restart dixit-companion",
        )
    return Finding(Status.OK, STAFF_PIN, f"{len(pin or '')} digits ({path})")
