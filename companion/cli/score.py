"""`companion score FILE... | -`: score whole games from game files.

One JSON line per file on stdout. A file that cannot be scored prints one line on
stderr naming the file and the fault, nothing on stdout, and makes the exit status 2;
the other files are still scored.
"""

import argparse
import json
import sys
from typing import Any

from companion.errors import CompanionError, GameFileError, UnreadableFileError
from companion.gamefile import parse_game, result_document

EXIT_BAD_INPUT = 2
"""Exit status when any input was malformed or illegal."""


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
    status = 0
    for name in args.files:
        try:
            doc = result_document(parse_game(_read(name)).play())
        except CompanionError as err:
            print(f"companion score: {_label(name)}: {err}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        print(json.dumps(doc, ensure_ascii=False), flush=True)
    return status


def _read(name: str) -> str:
    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(name, "rb") as file:
            return file.read().decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError("not UTF-8 text, so not a game file") from None
    except OSError as err:
        raise UnreadableFileError(err.strerror or str(err)) from None


def _label(name: str) -> str:
    return "standard input" if name == "-" else name
