"""`companion score FILE... | -`: score whole games from game files.

One JSON line per file on stdout. A file that cannot be scored prints one line on
stderr naming the file and the fault, nothing on stdout, and makes the exit status 2;
the other files are still scored.
"""

import argparse
import sys
from typing import Any

from companion.cli.each import for_each
from companion.errors import UnreadableFileError
from companion.gamefile import parse_game, read_game_text, result_document


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "score",
        help="score whole games from game files (JSON)",
        description="Score whole games from game files; '-' reads standard input.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a game file, or - for stdin")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Score each file in turn."""
    return for_each(
        "score", args.files, lambda name: result_document(parse_game(_read(name)).play())
    )


def _read(name: str) -> str:
    if name == "-" and sys.stdin is None:
        raise UnreadableFileError("standard input is closed")
    try:
        if name == "-":
            return read_game_text(sys.stdin.buffer)
        with open(name, "rb") as file:
            return read_game_text(file)
    except OSError as err:
        raise UnreadableFileError(err.strerror or str(err)) from None
