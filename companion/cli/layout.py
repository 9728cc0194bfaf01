"""`companion layout list | show NAME`: the board layouts, as JSON.

`list` prints the shipped layout names as one JSON list; `show` prints a layout (a
shipped name or a layout file) as its JSON document, checked, a starting point for a
café's own board. An unknown or malformed layout prints one line on stderr and exits 2.
"""

import argparse
import json
from typing import Any

from companion.cli.each import fail
from companion.errors import CompanionError
from companion.kit.layouts import layout_names, load_layout


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand and its two actions."""
    parser = commands.add_parser(
        "layout",
        help="list the shipped board layouts, or show one as JSON",
        description="List the shipped board layouts, or show one as JSON.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("list", help="the shipped layout names, as a JSON list")
    show = actions.add_parser("show", help="a layout as its JSON document")
    show.add_argument("name", metavar="NAME", help="a shipped layout name or a layout file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the list, or the layout."""
    if args.action == "list":
        print(json.dumps(layout_names()))
        return 0
    try:
        layout = load_layout(args.name)
    except CompanionError as err:
        return fail("layout", err)
    print(json.dumps(layout.to_json(), indent=1))
    return 0
