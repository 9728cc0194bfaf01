"""`companion calibrate IMAGE --layout NAME --out CAL.json`: remember where the board is."""

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.cli.each import fail
from companion.errors import CompanionError, UnwritableFileError
from companion.kit.layouts import load_layout
from companion.vision.calibration import calibrate, save_calibration
from companion.vision.decode import DECODERS, make_decoder
from companion.vision.images import load_gray


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "calibrate",
        help="find the board in a frame of the empty board and save the calibration",
        description=(
            "Find the corner and slot tags in a frame of the empty board, fit the board, "
            "and save the calibration that `companion read` and `companion play` use."
        ),
    )
    parser.add_argument("image", type=Path, help="a camera frame of the empty board")
    parser.add_argument("--layout", required=True, help="a layout name or a layout file")
    parser.add_argument("--out", required=True, type=Path, help="the calibration file to write")
    parser.add_argument("--decoder", choices=sorted(DECODERS), help="QR decoder (default zxing)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Calibrate and save, or say in one line why not."""
    try:
        layout = load_layout(args.layout)
        gray = load_gray(args.image)
        calibration = calibrate(gray, layout, make_decoder(args.decoder), args.layout)
        save_calibration(calibration, args.out)
    except CompanionError as err:
        return fail("calibrate", err)
    except OSError as err:
        return fail("calibrate", _unwritable(args.out, err))
    for warning in calibration.warnings:
        print(f"companion calibrate: warning: {warning}", file=sys.stderr)
    ppm = sorted(calibration.px_per_module.values())
    board = calibration.board
    print(
        f"calibrated kit {calibration.kit} on layout {layout.name}: "
        f"{board.anchors_used} of {board.anchors_seen} corner and slot tags "
        f"fit within {board.rms_error_mm:.1f} mm; "
        f"tags at {ppm[0]:.1f} to {ppm[-1]:.1f} px per module; saved to {args.out}"
    )
    return 0


def _unwritable(path: Path, err: OSError) -> CompanionError:
    return UnwritableFileError(f"{path}: cannot write the calibration ({err.strerror or err})")
