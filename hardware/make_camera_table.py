"""Print the table "camera height per layout and lens", or write it into docs/hardware.md.

The table is worked out by `companion.kit.mounting.kit_check` for every shipped layout
and every lens preset, each layout's kit at its own token size: the same rule by which
`companion tags` refuses a kit too small for its camera, so the heights and sizes a
café reads are the ones the code would give. With
`--write`, the table in the hardware guide between the two marker comments is replaced; a
test checks that the guide holds exactly what this script prints, so the two cannot drift.

    .venv/bin/python hardware/make_camera_table.py            # print it
    .venv/bin/python hardware/make_camera_table.py --write    # rewrite docs/hardware.md
    .venv/bin/python hardware/make_camera_table.py --layout my-board.json   # a board of your own
"""

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.errors import CompanionError
from companion.kit.layouts import Layout, layout_names, load_layout
from companion.kit.mounting import DEFAULT_MARGIN, LENSES, KitCheck, kit_check
from companion.kit.tags import MIN_PX_PER_MODULE

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "hardware.md"
"""The file whose table `--write` replaces."""
START = "<!-- camera-table: start (written by hardware/make_camera_table.py --write) -->"
"""The line after which the table begins."""
END = "<!-- camera-table: end -->"
"""The line before which the table ends."""
TIMES = " \N{MULTIPLICATION SIGN} "
"""Between two sizes, as the rest of the guide writes them."""


def table(layouts: Sequence[str] | None = None) -> str:
    """The markdown table, one row per layout (the shipped ones unless named: names or
    layout files) and lens, ending in a newline."""
    rows = [
        "| layout | board | smallest tags | camera | whole board in view from "
        f"| tags ≥ {MIN_PX_PER_MODULE:g} px/module up to | hang the camera at "
        "| smallest tags there |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name in layout_names() if layouts is None else layouts:
        layout = load_layout(name)
        for lens in LENSES.values():
            rows.append(_row(kit_check(layout, lens=lens), layout))
    return "\n".join(rows) + "\n"


def _row(check: KitCheck, layout: Layout) -> str:
    mount = check.plan
    width, height = mount.lens.resolution_px
    small = mount.smallest
    cells = [
        f"`{mount.layout}`",
        f"{layout.board_mm[0]:g}{TIMES}{layout.board_mm[1]:g} mm",
        f"{small.group.value}, {small.size_mm:g} mm",
        f"{mount.lens.name}, {width}{TIMES}{height}",
        _cm(mount.fit_height_mm),
        _cm(mount.max_height_mm),
    ]
    if mount.recommended_height_mm is None or mount.px_per_module is None:
        cells += ["**no height works**", _bigger(check)]
    else:
        height_cm = f"{mount.recommended_height_mm / 10:g} cm"
        cells += [f"**{height_cm}**", f"{mount.px_per_module:.1f} px/module"]
    return "| " + " | ".join(cells) + " |"


def _bigger(check: KitCheck) -> str:
    """How big the tags would have to be: the tokens alone, with the `--token-mm` that
    `companion tags` asks for, when every corner and slot tag is big enough already;
    else every tag."""
    needed, token = check.plan.tag_needed_mm, check.smallest_token_mm
    if token is not None:
        return f"tokens of at least {needed:.1f} mm would do (`--token-mm {token}`)"
    return f"every tag would need to be at least {needed:.1f} mm"


def _cm(mm: float) -> str:
    return f"{mm / 10:.1f} cm"


def replaced(text: str, new_table: str) -> str:
    """`text` with the lines between the markers replaced by `new_table`.

    Raises ValueError if the markers are missing or out of order.
    """
    lines = text.splitlines(keepends=True)
    marks = [line.strip() for line in lines]
    if START not in marks or END not in marks or marks.index(START) > marks.index(END):
        raise ValueError(f"the markers {START!r} and {END!r} are missing or out of order")
    head, tail = marks.index(START), marks.index(END)
    return "".join(lines[: head + 1]) + new_table + "".join(lines[tail:])


def main(argv: list[str] | None = None) -> int:
    """Print the table, or write it into the guide; 2 if the guide cannot be."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the guide's table")
    parser.add_argument("--guide", type=Path, default=GUIDE, help="the file to rewrite")
    parser.add_argument(
        "--layout",
        action="append",
        metavar="NAME_OR_FILE",
        help="a board of your own (repeatable); printed only, never written",
    )
    args = parser.parse_args(argv)
    if args.write and args.layout:
        parser.error("--write keeps the guide to the shipped layouts; drop --layout")
    try:
        generated = table(args.layout)
    except CompanionError as err:
        print(f"make_camera_table: {err}", file=sys.stderr)
        return 2
    if not args.write:
        sys.stdout.write(generated)
        return 0
    try:
        args.guide.write_text(
            replaced(args.guide.read_text(encoding="utf-8"), generated), encoding="utf-8"
        )
    except (OSError, ValueError) as err:
        print(f"make_camera_table: {args.guide}: {err}", file=sys.stderr)
        return 2
    print(f"wrote the camera table ({DEFAULT_MARGIN:.0%} margin) into {args.guide}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
