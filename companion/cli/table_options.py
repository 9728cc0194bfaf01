"""The table's own `companion play` options, as the service reads them, checked by the doctor.

The service starts `companion play --display fullscreen $COMPANION_PLAY_OPTIONS`
with the variable taken from the options file (`/etc/default/dixit-companion`), or
the unit's own default when the file does not set it. A mistake there keeps the
table from starting; the table shows it on its screen, and `companion doctor` names
it too, with the same words, so a café owner at a terminal finds it without reading
the service's log. The options are checked as the service would run them: with the
service's state folder, not the doctor's, deciding whether a game can be resumed.
"""

import argparse
from pathlib import Path
from typing import Any, NoReturn

from companion.cli import play
from companion.doctor.findings import OPTIONS, Finding, Status
from companion.errors import CompanionError, SettingError, UnreadableFileError
from companion.service_options import (
    DEFAULT_PLAY_OPTIONS,
    OPTIONS_FILE,
    OPTIONS_VARIABLE,
    SERVICE_STATE_DIR,
)
from companion.statedir import JOURNAL_NAME

DEFAULT_OPTIONS_FILE = Path(OPTIONS_FILE)
"""Where the service's options are on a table installed by hardware/install."""
SERVICE_OPTIONS = ("--display", "fullscreen")
"""What the service's command line adds before the file's options."""
SERVICE_JOURNAL = SERVICE_STATE_DIR / JOURNAL_NAME
"""The journal the service resumes, unless its options name another."""
_SYSTEMD_SPACE = " \t\n\r"
"""What systemd splits an unquoted `$VARIABLE` on (its WHITESPACE): these four only,
where Python's `str.split()` would also split on a no-break space."""


class _Refusing(argparse.ArgumentParser):
    """A parser that raises instead of printing and exiting: the doctor reports the
    refusal as a finding and goes on with its other checks."""

    def error(self, message: str) -> NoReturn:
        raise SettingError(message)


def read_options_file(path: Path) -> tuple[str, ...] | None:
    """The play options `path` gives, split into words as systemd splits an unquoted
    `$VARIABLE`; None when the file does not say them.

    `EnvironmentFile=` takes off the quotes around the whole value; then `$FOO`, a
    word of its own on the command line, becomes "the value split at whitespace"
    (systemd.service(5), "Command lines"), which systemd does with quotes and
    backslashes honoured (`strv_split_full(..., WHITESPACE, EXTRACT_RELAX |
    EXTRACT_UNQUOTE)` in its env-util.c): `--players 'Ann Lee'` is two words."""
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
            found = systemd_words(value)
    return found


def systemd_words(value: str) -> tuple[str, ...]:
    """`value` split as systemd splits an unquoted `$VARIABLE`: at its white space,
    outside quotes, a backslash keeping the next character as it is; an unclosed quote
    or a last lone backslash is let be (EXTRACT_RELAX), not refused."""
    words: list[str] = []
    word: list[str] | None = None  # None between words; [] is an empty word, as ''
    quote = ""
    escaped = False
    for char in value:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
            word = word if word is not None else []
            continue
        elif quote:
            if char == quote:
                quote = ""
                continue
        elif char in "'\"":
            quote = char
            word = word if word is not None else []
            continue
        elif char in _SYSTEMD_SPACE:
            if word is not None:
                words.append("".join(word))
                word = None
            continue
        word = word if word is not None else []
        word.append(char)
    if escaped and word is not None:
        word.append("\\")
    if word is not None:
        words.append("".join(word))
    return tuple(words)


def check_play_options(words: tuple[str, ...], journal: Path) -> None:
    """Refuse the options as `companion play` would, before it opens anything."""
    parser = _Refusing(prog="companion")
    play.add_parser(parser.add_subparsers())
    try:
        args: Any = parser.parse_args(["play", *SERVICE_OPTIONS, *words])
    except SystemExit as stop:  # --help or --version in the file: play would not start
        raise SettingError(f"{' '.join(words)} would not start the game") from stop
    play.check_options(args, args.journal or journal)


def options_finding(path: Path, journal: Path = SERVICE_JOURNAL) -> Finding:
    """Whether the table's service would start with the options in `path`, resuming
    `journal` (the service's own) when they name no other."""
    if not path.exists():
        return Finding(Status.SKIP, OPTIONS, f"no {path}: the table is not installed as a service")
    default = ""
    try:
        words = read_options_file(path)
        if words is None:  # the unit's Environment= line then holds
            words = DEFAULT_PLAY_OPTIONS
            default = f", the service's default: {path} has no {OPTIONS_VARIABLE}"
        check_play_options(words, journal)
    except CompanionError as err:
        return Finding(
            Status.FAIL,
            OPTIONS,
            f"{OPTIONS_VARIABLE} in {path}: {err}",
            f"put it right in {path}, then: sudo systemctl restart dixit-companion",
        )
    return Finding(Status.OK, OPTIONS, f"{' '.join(words) or 'defaults'} ({path}{default})")
