"""The table's own `companion play` options, as the service reads them, checked by the doctor.

The service starts `companion play --display fullscreen $COMPANION_PLAY_OPTIONS`
with the variable taken from the options file (`/etc/default/dixit-companion`), or
the unit's own default when the file does not set it. A mistake there keeps the
table from starting; the table shows it on its screen, and `companion doctor` names
it too, with the same words, so a café owner at a terminal finds it without reading
the service's log. The options are checked as the service would run them: with the
service's state folder, not the doctor's, deciding whether a game can be resumed.

The same file holds the staff PIN of the phone page (`COMPANION_STAFF_PIN`), which the
doctor reads with the same parser: without a usable PIN the staff tools are off.
"""

import argparse
from pathlib import Path
from typing import Any, NoReturn

from companion.cli import play
from companion.doctor.findings import OPTIONS, Finding, Status
from companion.errors import CompanionError, SettingError, UnreadableFileError
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
_SYSTEMD_SPACE = " \t\n\r"
"""What systemd splits an unquoted `$VARIABLE` on (its WHITESPACE): these four only,
where Python's `str.split()` would also split on a no-break space."""
_ENV_NEWLINE = "\n\r"
_ENV_COMMENT = "#;"
_ENV_UNESCAPED_IN_DOUBLE_QUOTES = '"\\`$'
"""What a backslash escapes inside double quotes in an environment file (systemd's
SHELL_NEED_ESCAPE); before any other character the backslash stays."""
(
    _PRE_KEY,
    _KEY,
    _PRE_VALUE,
    _VALUE,
    _VALUE_ESCAPE,
    _SINGLE_QUOTED,
    _DOUBLE_QUOTED,
    _DOUBLE_QUOTED_ESCAPE,
    _COMMENT,
) = range(9)
"""The states of `env_file_assignments`, those of systemd's parser."""


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


def env_file_assignments(text: str) -> list[tuple[str, str]]:
    """The `NAME=value` assignments of an environment file, in order, read as
    systemd's `EnvironmentFile=` reads them (`parse_env_file_internal` in its
    src/basic/env-file.c), which is not a shell:

    - a line whose first non-blank character is `#` or `;` is a comment; elsewhere
      these are ordinary characters; a line without `=` is skipped;
    - the name is what precedes `=`, without the white space around it;
    - white space after `=` is skipped, and so is white space after a closing quote;
    - `'...'` is taken literally; in `"..."` a backslash takes away its special
      meaning from `"`, `\\`, `$` and a backquote, and a backslash-newline is
      removed, while other backslashes stay; quoted values may span lines;
    - an unquoted part, begun by any other character, runs to the end of the line,
      quotes in it being ordinary characters: a backslash there keeps the next
      character as it is, a backslash-newline joining the next line, and the part's
      trailing white space is removed, unless escaped;
    - quoted parts and a last unquoted part are joined: `"a" 'b'c` is `abc`;
    - the file ends at a NUL character, as a C string does.
    """
    assignments: list[tuple[str, str]] = []
    state = _PRE_KEY
    name: list[str] = []
    value: list[str] = []
    trailing: int | None = None  # where the unquoted part's trailing white space begins

    def assign() -> None:
        end = trailing if state == _VALUE and trailing is not None else len(value)
        assignments.append(("".join(name).rstrip(_SYSTEMD_SPACE), "".join(value[:end])))

    for char in text.partition("\0")[0]:
        if state == _PRE_KEY:
            if char in _ENV_COMMENT:
                state = _COMMENT
            elif char not in _SYSTEMD_SPACE:
                state, name = _KEY, [char]
        elif state == _KEY:
            if char in _ENV_NEWLINE:
                state = _PRE_KEY
            elif char == "=":
                state, value, trailing = _PRE_VALUE, [], None
            else:
                name.append(char)
        elif state in (_PRE_VALUE, _VALUE) and char in _ENV_NEWLINE:
            assign()
            state = _PRE_KEY
        elif state == _PRE_VALUE:
            if char == "'":
                state = _SINGLE_QUOTED
            elif char == '"':
                state = _DOUBLE_QUOTED
            elif char == "\\":
                state = _VALUE_ESCAPE
            elif char not in _SYSTEMD_SPACE:
                state = _VALUE
                value.append(char)
        elif state == _VALUE:
            if char == "\\":
                state, trailing = _VALUE_ESCAPE, None
            else:
                if char not in _SYSTEMD_SPACE:
                    trailing = None
                elif trailing is None:
                    trailing = len(value)
                value.append(char)
        elif state == _VALUE_ESCAPE:
            state = _VALUE
            if char not in _ENV_NEWLINE:
                value.append(char)
        elif state == _SINGLE_QUOTED:
            if char == "'":
                state = _PRE_VALUE
            else:
                value.append(char)
        elif state == _DOUBLE_QUOTED:
            if char == '"':
                state = _PRE_VALUE
            elif char == "\\":
                state = _DOUBLE_QUOTED_ESCAPE
            else:
                value.append(char)
        elif state == _DOUBLE_QUOTED_ESCAPE:
            state = _DOUBLE_QUOTED
            if char in _ENV_UNESCAPED_IN_DOUBLE_QUOTES:
                value.append(char)
            elif char != "\n":
                value.extend(("\\", char))
        elif char in _ENV_NEWLINE:  # the end of a comment
            state = _PRE_KEY
    if state not in (_PRE_KEY, _KEY, _COMMENT):
        assign()
    return assignments


def systemd_words(value: str) -> tuple[str, ...]:
    """`value` split as systemd splits an unquoted `$VARIABLE`: at its white space,
    outside quotes, a backslash keeping the next character as it is; an unclosed quote
    or a last lone backslash is let be (EXTRACT_RELAX), not refused: the quoted part
    runs to the end, the backslash is dropped (without EXTRACT_UNESCAPE_RELAX systemd
    does not keep it)."""
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
    if word is not None:
        words.append("".join(word))
    return tuple(words)


def check_play_options(words: tuple[str, ...]) -> None:
    """Refuse the options as `companion play` would, before it opens anything."""
    parser = _Refusing(prog="companion")
    play.add_parser(parser.add_subparsers())
    try:
        args: Any = parser.parse_args(["play", *SERVICE_OPTIONS, *words])
    except SystemExit as stop:  # --help or --version in the file: play would not start
        raise SettingError(f"{' '.join(words)} would not start the game") from stop
    play.check_options(args)


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
        check_play_options(words)
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
