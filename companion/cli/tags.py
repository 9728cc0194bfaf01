"""`companion tags --kit KIT --players N --out DIR`: print a kit's tags.

Writes into DIR one PNG per tag, `kit.pdf` (every tag at true size on A4 pages, framed
in its player's colour, labelled, with cut lines), `manifest.json` (what each tag is)
and, with `--mat`, `mat.pdf` (the layout's board as a play mat). Tag sizes come from
the layout. Every file is made in memory first, so bad input writes nothing: it prints
one line on stderr and exits 2; the kit is then written beside DIR and put in place
whole, so a write that fails half-way leaves the old kit as it was.
"""

import argparse
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from companion.cli.each import fail
from companion.cli.numbers import decimal_number, whole_number
from companion.colours import COLOURS
from companion.errors import CompanionError, UnwritableFileError
from companion.kit.layouts import load_layout
from companion.kit.printing import manifest, printed_kit
from companion.kit.qr import png_bytes
from companion.kit.sheet import kit_sheet, mat_sheet

_KIT_FILE = re.compile(
    r"(corner-\d+|slot-\d+|(vote|owner)-[a-z]+-\d+|trap)\.png|kit\.pdf|mat\.pdf|manifest\.json"
)
"""The names of the files a kit holds; anything else in its folder is the café's own."""
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
        players = whole_number("--players", args.players, "a number of players")
        token_mm = (
            None
            if args.token_mm is None
            else decimal_number("--token-mm", args.token_mm, "a size in millimetres")
        )
        printed = printed_kit(args.kit, players, layout, token_mm)
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


def _write(out: Path, files: dict[str, bytes]) -> None:
    """Write the kit into a new folder beside `out`, then put it in place whole, so a
    failure half-way (a full disk, a pulled card) leaves the old kit or an empty
    folder, never a mix. An old kit in `out` is replaced whole (no stale tags of a larger kit stay
    behind); files of the café's own in it are kept."""
    staging = None
    try:
        out.mkdir(parents=True, exist_ok=True)
        out = out.resolve()  # `--out .` has a name and a folder to be put beside
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        shutil.copymode(out, staging)  # not mkdtemp's owner-only mode
        for name, data in files.items():
            (staging / name).write_bytes(data)
        _keep_own_files(out, staging)
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
        os.replace(out, old / out.name)
        os.replace(staging, out)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as err:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise UnwritableFileError(f"cannot write {err.filename or out}: {err.strerror}") from None


def _keep_own_files(out: Path, staging: Path) -> None:
    """Copy into the new kit whatever in `out` is not a kit's file."""
    for entry in out.iterdir():
        if _KIT_FILE.fullmatch(entry.name) is None and not (staging / entry.name).exists():
            if entry.is_dir():
                shutil.copytree(entry, staging / entry.name, symlinks=True)
            else:
                shutil.copy2(entry, staging / entry.name, follow_symlinks=False)
