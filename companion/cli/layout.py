"""`companion layout list [--boards] | show NAME`: the board layouts.

`list` prints the shipped layout names as one JSON list; `list --boards` prints one
line per shipped layout for a person choosing one: its name, the board's size, the
board it describes, and the height at which the recommended camera reads its kit.
`show` prints a layout (a shipped name or a layout file) as its JSON document, checked,
a starting point for a café's own board. An unknown or malformed layout prints one line
on stderr and exits 2.
"""

import argparse
import json
from typing import Any

from companion.cli.each import fail
from companion.errors import CompanionError
from companion.kit.layouts import Layout, layout_names, load_layout
from companion.kit.mounting import kit_check
from companion.names import one_line

TIMES = "\N{MULTIPLICATION SIGN}"
"""Between two sizes, as the guides write them."""


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand and its two actions."""
    parser = commands.add_parser(
        "layout",
        help="list the shipped board layouts, or show one as JSON",
        description="List the shipped board layouts, or show one as JSON.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the shipped layout names, as a JSON list")
    listing.add_argument(
        "--boards",
        action="store_true",
        help="one line per layout instead: its name, the board's size, which board it is, "
        "and the Camera Module 3's height over it",
    )
    show = actions.add_parser("show", help="a layout as its JSON document")
    show.add_argument("name", metavar="NAME", help="a shipped layout name or a layout file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the list, or the layout."""
    if args.action == "list":
        if not args.boards:
            print(json.dumps(layout_names()))
            return 0
        try:
            layouts = [load_layout(name) for name in layout_names()]
        except CompanionError as err:
            return fail("layout", err)
        width = max(len(layout.name) for layout in layouts)
        for layout in layouts:
            print(f"{layout.name:<{width}}  {board_line(layout)}")
        return 0
    try:
        layout = load_layout(args.name)
    except CompanionError as err:
        return fail("layout", err)
    print(json.dumps(layout.to_json(), indent=1))
    return 0


def board_line(layout: Layout) -> str:
    """A layout for a person choosing one: the board it is, its size and slots, its
    tokens, and the height at which the recommended camera reads its kit."""
    width, height = layout.board_mm
    words = "a board of its own" if layout.board is None else one_line(layout.board)
    plan = kit_check(layout).plan
    camera = (
        f"{plan.lens.name} at {plan.recommended_height_mm / 10:g} cm"
        if plan.recommended_height_mm is not None
        else f"too small for the {plan.lens.name}"
    )
    return (
        f"{words}; {width:g} {TIMES} {height:g} mm, {len(layout.slots)} slots, "
        f"{layout.token_size_mm:g} mm tokens, {camera}"
    )
