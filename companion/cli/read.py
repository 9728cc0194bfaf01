"""`companion read --calibration CAL.json IMAGE...`: what lies on the table in each image."""

import argparse
from pathlib import Path
from typing import Any

from companion.cli.each import fail, for_each
from companion.errors import CalibrationError, CompanionError
from companion.kit.layouts import load_layout
from companion.kit.tags import parse_tag
from companion.vision.assign import kits_in, token_label
from companion.vision.calibration import Calibration, load_calibration
from companion.vision.decode import DECODERS, make_decoder
from companion.vision.images import load_gray
from companion.vision.pipeline import FrameReading, TableReader


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "read",
        help="read the tokens on the table in camera images (JSON)",
        description="Read the tokens on a calibrated table: one JSON line per image.",
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="a camera frame")
    parser.add_argument("--calibration", required=True, type=Path, help="from companion calibrate")
    parser.add_argument("--decoder", choices=sorted(DECODERS), help="QR decoder (default zxing)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read each image in turn."""
    try:
        calibration = load_calibration(args.calibration)
        reader = TableReader(
            calibration, load_layout(calibration.layout), make_decoder(args.decoder)
        )
    except CompanionError as err:
        return fail("read", err)
    return for_each("read", map(str, args.images), lambda name: _read(reader, calibration, name))


def _read(reader: TableReader, calibration: Calibration, name: str) -> dict[str, Any]:
    reading = reader.read(load_gray(Path(name), named=False))  # `for_each` names it
    _refuse_other_kit(reading, calibration)
    if reading.observation.wrong_board is not None:
        raise CalibrationError(str(reading.observation.wrong_board))
    return reading_document(name, reading)


def _refuse_other_kit(reading: FrameReading, calibration: Calibration) -> None:
    """A frame showing only another kit's tags is the wrong table, not an empty one."""
    if reading.kit_texts:
        return
    others = kits_in(reading.observation.foreign)
    if others:
        raise CalibrationError(
            f"the tags in view are of kit {', '.join(sorted(others))}, "
            f"but this table is calibrated for kit {calibration.kit}"
        )


def reading_document(image: str, reading: FrameReading) -> dict[str, Any]:
    """The JSON line `companion read` prints for one image."""
    observation = reading.observation
    return {
        "image": image,
        "slots": {
            str(slot): {
                "owners": list(contents.owners),
                "votes": [{"player": v.player, "dial": v.dial} for v in contents.votes],
                "trap": contents.trap,
            }
            for slot, contents in observation.slots.items()
        },
        "unplaced": [{"text": u.text, "reason": u.reason} for u in observation.unplaced],
        "foreign": list(observation.foreign),
        "problems": [str(d.worded(token_label(parse_tag(d.text)))) for d in observation.duplicates],
        "elapsed_ms": round(reading.elapsed_ms, 1),
    }
