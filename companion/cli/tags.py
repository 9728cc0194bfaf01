"""`companion tags --kit KIT --players N --out DIR`: print a kit's tags.

Writes into DIR one PNG per tag, `kit.pdf` (every tag at true size on A4 pages, framed
in its player's colour, labelled, with cut lines), `manifest.json` (what each tag is)
and, with `--mat`, `mat.pdf` (the layout's board as a play mat). Tag sizes come from
the layout. A kit the camera (`--camera`, the recommended Camera Module 3 unless told)
could not read over the layout's board is refused, saying what size would do, unless
`--force`: the rule is `companion.kit.mounting.kit_check`, the one the hardware guide's
camera table shows. Every file is made in memory first, so bad input writes nothing: it
prints one line on stderr and exits 2; each file is then written whole into DIR, so a write
that fails half-way leaves every file of the kit either the old one or the new one.
Only the kit's own files in DIR are replaced or removed: a file is removed only if the
previous kit's `manifest.json` in DIR lists it, since a name alone cannot tell a kit's
`slot-99.png` or `mat.pdf` from the café's own.
"""

import argparse
import json
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from companion.cli.each import complain, fail
from companion.colours import COLOURS
from companion.errors import CompanionError, UnreadableKitError, UnwritableFileError
from companion.kit.layouts import load_layout
from companion.kit.mounting import LENSES, RECOMMENDED_LENS, find_lens, kit_check
from companion.kit.printing import manifest, printed_kit
from companion.kit.qr import png_bytes
from companion.kit.sheet import kit_sheet, mat_sheet
from companion.kit.tags import MIN_PX_PER_MODULE
from companion.numbers import decimal_number, whole_number
from companion.phrases import Phrase, phrase

_KIT_FILE = re.compile(
    r"(corner-\d+|slot-\d+|(vote|owner)-[a-z]+-\d+|trap)\.png|kit\.pdf|mat\.pdf|manifest\.json"
)
"""The names a kit's files can have: a name the previous manifest lists is removed only
if it also fits, so a manifest.json that some other program left in DIR removes nothing
of the café's."""
_MANIFEST_MAX_BYTES = 4 << 20
"""Larger than any kit's manifest; a larger file is not one, and is not read whole."""
DEFAULT_LAYOUT = "odyssey-12"
"""The layout whose sizes a kit takes unless told: the board of Dixit Odyssey, whose 12
slots take every ruleset and player count. Its tags are the sizes of the Dixit (2021)
board's too, so the same kit serves both boxes."""


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
        help="your board, which sets the tag sizes: a shipped layout (companion layout list "
        f"--boards says which board each is) or a layout file (default {DEFAULT_LAYOUT}, the "
        "board of Dixit Odyssey)",
    )
    parser.add_argument(
        "--token-mm",
        metavar="MM",
        help="size of vote dial, owner token and trap tags, quiet zone included "
        "(default: the layout's)",
    )
    parser.add_argument("--mat", action="store_true", help="also write the play mat, mat.pdf")
    parser.add_argument(
        "--camera",
        default=RECOMMENDED_LENS,
        choices=list(LENSES),
        help=f"the camera the kit is checked against (default {RECOMMENDED_LENS}, the "
        "Camera Module 3 the hardware guide recommends)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="print the kit even if the camera cannot read it: skips the check that every "
        f"tag spans {MIN_PX_PER_MODULE:g} pixels per QR module from the height at which the "
        "camera sees the whole board",
    )
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
        check = kit_check(layout, token_mm, find_lens(args.camera))
        problem, remedy = check.problem(), check.remedy()
        if problem is not None and remedy is not None and not args.force:
            raise UnreadableKitError(_refusal(problem, remedy))
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
    if problem is not None:
        forced = phrase("printed anyway (--force): {problem}", problem=problem)
        complain(f"companion tags: {forced}")
    return 0


def _refusal(problem: Phrase, remedy: Phrase) -> Phrase:
    """Why a kit is refused and what to do, in one sentence."""
    return phrase(
        "{problem}; {remedy}, or add --force to print it anyway", problem=problem, remedy=remedy
    )


def _write(out: Path, files: dict[str, bytes]) -> None:
    """Write every file whole into a hidden folder inside `out` (so on the same file
    system, even at the root of a USB stick), synced to disk, then rename them one by
    one over the old kit's, the manifest last, and delete the files the old kit's
    manifest lists that the new kit lacks (a larger kit's tags). A failure half-way
    leaves each file the
    old one or the new one, never half-written. `out` itself is never renamed or
    copied: it may be the working folder or a home folder, and files of the café's
    own in it are left as they are."""
    target = out
    staging = None
    previous = _previous_kit_files(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".tags-", dir=out))
        for name, data in files.items():
            target = out / name
            _write_synced(staging / name, data)
        stale = [out / name for name in sorted(previous - files.keys()) if _is_file(out / name)]
        for name in sorted(files, key=lambda name: name == "manifest.json"):
            target = out / name
            os.replace(staging / name, target)
        for target in stale:
            target.unlink(missing_ok=True)
    except OSError as err:
        raise UnwritableFileError(f"cannot write {target}: {err.strerror}") from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


def _previous_kit_files(out: Path) -> set[str]:
    """The names of the files the previous kit in `out` wrote, from its manifest, read
    before the new kit replaces it: the tag PNGs (each entry's "file"). A missing,
    unreadable or damaged manifest gives none, so nothing is deleted on a guess; a name
    that could point outside `out` (a separator, `..`, an absolute path) or that no kit
    file could have is left out, so a hand-edited manifest deletes nothing else."""
    try:
        with (out / "manifest.json").open("rb") as file:
            raw = file.read(_MANIFEST_MAX_BYTES + 1)
        if len(raw) > _MANIFEST_MAX_BYTES:
            return set()
        document = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return set()
    if not isinstance(document, list):
        return set()
    names: set[str] = set()
    for entry in document:
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            return set()
        names.add(entry["file"])
    return {name for name in names if _stays_in_folder(name) and _KIT_FILE.fullmatch(name)}


def _stays_in_folder(name: str) -> bool:
    """Whether `name` is a plain file name, so `out / name` is inside `out`."""
    separators = {"/", "\\", "\0", os.sep} | ({os.altsep} if os.altsep else set())
    return (
        name not in ("", ".", "..")
        and not any(sep in name for sep in separators)
        and Path(name).name == name
    )


def _is_file(path: Path) -> bool:
    """Whether `path` is a plain file (not a folder, not a link): only such files are
    ever a kit's, so nothing else is deleted even if the manifest names it."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _write_synced(path: Path, data: bytes) -> None:
    """Write a file and wait for the disk: a rename must not put in place a file whose
    bytes a power cut would lose."""
    with path.open("wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
