"""The `companion` command: one subcommand per module, each with `add_parser` and `run`.

`main` owns what every command shares: argument errors in one line on stderr with exit
status 2 (a `play` under its service also shows them on its screen), a stop by Ctrl-C
or SIGTERM in one line (`companion.cli.stopping`), and standard output. Output that
cannot be written (a full disk, stdout closed, a reader that stopped reading:
`companion score *.json | head -c 1`) is one line on stderr and exit status 2, never a
traceback nor a result lost without a word; it is found at the first write, so a
command that writes only files runs with stdout closed. What is still buffered is then
dropped, as Python's `signal` documentation advises for a broken pipe, so that nothing
fails again at exit.
"""

import argparse
import errno
import importlib
import io
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn, TextIO, cast

from companion import __version__
from companion.cli import stopping
from companion.cli.each import EXIT_BAD_INPUT, complain

COMMANDS = ("score", "tags", "layout", "calibrate", "read", "play", "demo", "history", "doctor")
"""The subcommands, each a module of this package, in the order `--help` lists them.
Only the one asked for is imported: `companion history` need not load the camera,
the screen and the PDF kit to list the games."""

READER_GONE = "the reader of the output stopped reading"
"""What a broken pipe says: the output is lost, by the reader's choice (a `head`)."""


class _Refused(SystemExit):
    """The parser's refusal, exit status 2, keeping what it said: a refused `play`
    under the service shows it on the screen."""

    def __init__(self, message: str) -> None:
        super().__init__(EXIT_BAD_INPUT)
        self.message = message
        """What argparse said was wrong."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        complain(f"{self.prog}: {message} (see {self.prog} --help)")
        raise _Refused(message)


def build_parser(words: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The argument parser with the subcommand the command line `words` names, or with
    every subcommand when it names none (or no known one: `--help`, a misspelling)."""
    parser = _Parser(
        prog="companion",
        description="The Dixit table companion: reads a Dixit table and keeps the score.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _modules(words):
        command.add_parser(commands)
    return parser


def _modules(words: Sequence[str]) -> tuple[ModuleType, ...]:
    """The modules of the subcommand named first in `words`, or of them all."""
    asked = _command_named(words)
    names = (asked,) if asked is not None else COMMANDS
    return tuple(importlib.import_module(f"companion.cli.{name}") for name in names)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status. Ctrl-C and SIGTERM stop any
    command in one line (see `companion.cli.stopping`)."""
    words = sys.argv[1:] if argv is None else list(argv)
    with stopping.listening():
        try:
            return _run(words)
        except KeyboardInterrupt as interrupt:
            return stopping.stopped(_command_named(words), interrupt)


def _command_named(words: Sequence[str]) -> str | None:
    """The subcommand the command line names, if it names a known one."""
    asked = next((word for word in words if not word.startswith("-")), None)
    return asked if asked in COMMANDS else None


def _run(words: Sequence[str]) -> int:
    """Parse the command line and run its command, guarding standard output."""
    parser = build_parser(words)
    try:
        args = parser.parse_args(words)
    except _Refused as refused:  # by play's parser, or by the top one ("unrecognized")
        from companion.cli import play  # only now: the command asked for may not be play

        display = play.display_asked(words)
        command = next((word for word in words if not word.startswith("-")), None)
        if command != play.NAME or not play.under_service(display, os.environ):
            raise
        return play.refused_under_service(refused.message, display, play.language_asked(words))
    stdout = cast(TextIO, _ClosedOutput()) if sys.stdout is None else sys.stdout
    output = _Output(stdout)
    sys.stdout = cast(TextIO, output)
    try:
        status: int = args.run(args)
        output.flush()  # now, not at exit, where a failure could only be ignored
    except OSError:
        if output.failure is None:
            raise
    finally:
        sys.stdout = output.stream
    if output.failure is None:
        return status
    _discard_output(output.stream)
    if isinstance(output.failure, BrokenPipeError):
        return _unwritten(args.command, READER_GONE)
    return _unwritten(args.command, output.failure.strerror or str(output.failure))


def entry_point() -> None:
    """The console script."""
    sys.exit(main())


class _Output(io.TextIOBase):
    """Standard output that remembers a failed write, so that `main` can tell it apart
    from a command's own failure, even where a command caught it."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        """The standard output written to."""
        self.failure: OSError | None = None
        """The first write or flush that failed, if one did."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as err:
            self.failure = self.failure or err
            raise

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as err:
            self.failure = self.failure or err
            raise

    def close(self) -> None:
        """Leaves standard output open (it is the process's) and unflushed: collected
        after a failed write, the guard must not fail once more."""

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process was started without one (`>&-`): a command
    that writes only files runs as usual, one that prints fails at its first line."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _discard_output(stream: TextIO) -> None:
    """Point standard output at the null device, so that what is still buffered is
    dropped at exit instead of failing again there with a traceback."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # no descriptor: an in-memory stream, nothing at exit
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _unwritten(command: str, why: str) -> int:
    complain(f"companion {command}: cannot write the output: {why}")
    return EXIT_BAD_INPUT
