"""The `companion` command: one subcommand per module, each with `add_parser` and `run`."""

import argparse
import sys
from collections.abc import Sequence

from companion import __version__
from companion.cli import calibrate, demo, doctor, history, layout, play, read, score, tags

_COMMANDS = (score, tags, layout, calibrate, read, play, demo, history, doctor)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The Dixit table companion: reads a Dixit table and keeps the score.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _COMMANDS:
        command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    status: int = args.run(args)
    return status


def entry_point() -> None:
    """The console script."""
    sys.exit(main())
