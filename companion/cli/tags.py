"""`companion tags --kit KIT --players N --out DIR`: print a kit's tags.

Writes into DIR one PNG per tag, `kit.pdf` (every tag at true size on A4 pages, framed
in its player's colour, labelled, with cut lines), `manifest.json` (what each tag is)
and, with `--mat`, `mat.pdf` (the layout's board as a play mat). Tag sizes come from
the layout. Every file is made in memory first, so bad input writes nothing: it prints
one line on stderr and exits 2.
"""

import argparse
import json
import math
from pathlib import Path
from typing import Any

from companion.cli.each import fail
from companion.colours import COLOURS
from companion.errors import CompanionError, InvalidKitIdError, TagSizeError, UnwritableFileError
from companion.kit.layouts import load_layout
from companion.kit.printing import manifest, printed_kit
from companion.kit.qr import png_bytes
from companion.kit.sheet import kit_sheet, mat_sheet

DEFAULT_LAYOUT = "mat-a1-12"
"""The layout whose sizes a kit takes unless told: the printable mat, with all 12 slots."""


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "tags",
        help="print a kit: tag PNGs, a PDF sheet to cut out, a manifest, a play mat",
        description=(
            "Write a kit's tags into DIR: one PNG per tag, kit.pdf (A4, true size, cut "
            "lines), manifest.json, and with --mat the layout's play mat, mat.pdf."
        ),
    )
    parser.add_argument("--kit", required=True, help="kit id: 2 to 6 capital letters or digits")
    parser.add_argument(
        "--players", required=True, metavar="N", help=f"player colours, 1 to {len(COLOURS)}"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    parser.add_argument(
        "--layout",
        default=DEFAULT_LAYOUT,
        metavar="NAME",
        help=f"shipped layout name or layout file giving tag sizes (default {DEFAULT_LAYOUT})",
    )
    parser.add_argument(
        "--token-mm",
        metavar="MM",
        help="size of vote dial, owner token and trap tags, quiet zone included "
        "(default: the layout's)",
    )
    parser.add_argument("--mat", action="store_true", help="also write the play mat, mat.pdf")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Make every file, then write them all."""
    try:
        layout = load_layout(args.layout)
        token_mm = None if args.token_mm is None else _size(args.token_mm)
        printed = printed_kit(args.kit, _players(args.players), layout, token_mm)
        files = {p.file_name: png_bytes(p.tag) for p in printed}
        files["kit.pdf"] = kit_sheet(printed)
        files["manifest.json"] = (json.dumps(manifest(printed), indent=1) + "\n").encode()
        if args.mat:
            files["mat.pdf"] = mat_sheet(layout, args.kit)
        out = Path(args.out)
        _write(out, files)
    except CompanionError as err:
        return fail("tags", err)
    mat = ", mat.pdf" if args.mat else ""
    print(f"wrote {len(printed)} tag PNGs, kit.pdf, manifest.json{mat} to {out}")
    return 0


def _players(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidKitIdError(f"--players must be a whole number, not {text!r}") from None


def _size(text: str) -> float:
    try:
        size = float(text)
    except ValueError:
        size = math.nan
    if not math.isfinite(size):
        raise TagSizeError(f"--token-mm must be a size in millimetres, not {text!r}")
    return size


def _write(out: Path, files: dict[str, bytes]) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (out / name).write_bytes(data)
    except OSError as err:
        raise UnwritableFileError(f"cannot write {err.filename or out}: {err.strerror}") from None
