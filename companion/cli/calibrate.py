"""`companion calibrate IMAGE|--source SPEC --layout NAME`: remember where the board is.

From a saved frame of the empty board, or straight from the camera: then a few frames
are read first so that exposure and focus settle (a camera module saves the values
it settled on beside the calibration, and `companion play` holds them from its first
frame). Without `--out` the calibration goes to the state folder, where
`companion play` and `companion doctor` look for it. Stopped (Ctrl-C) while it reads
the camera, it writes nothing; the calibration file is written whole or not at all.
"""

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.cli import stopping
from companion.cli.each import fail
from companion.errors import CompanionError, UnwritableFileError
from companion.kit.layouts import layout_names, load_layout
from companion.numbers import whole_number
from companion.sources.guarded import GuardedSource
from companion.sources.registry import SOURCE_FORMS, open_source
from companion.statedir import camera_profile_path, default_calibration_path
from companion.vision.calibration import Calibration, calibrate, save_calibration
from companion.vision.decode import DECODERS, Gray, make_decoder
from companion.vision.images import load_gray
from companion.vision.pipeline import to_gray

SETTLE_FRAMES = 30
"""Frames read from a camera before the one calibrated on: about three seconds, for
exposure, white balance and focus to settle."""


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
    image = parser.add_mutually_exclusive_group(required=True)
    image.add_argument("image", type=Path, nargs="?", help="a camera frame of the empty board")
    image.add_argument(
        "--source", help=f"take the frame from a camera instead: {', '.join(SOURCE_FORMS)}"
    )
    parser.add_argument(
        "--frames",
        default=str(SETTLE_FRAMES),
        help=f"with --source: frames read before the one calibrated on (default {SETTLE_FRAMES})",
    )
    parser.add_argument("--layout", required=True, help="a layout name or a layout file")
    parser.add_argument(
        "--out",
        type=Path,
        help="the calibration file to write (default: calibration.json in the state folder)",
    )
    parser.add_argument("--decoder", choices=sorted(DECODERS), help="QR decoder (default zxing)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Calibrate and save, or say in one line why not."""
    out: Path = args.out or default_calibration_path()
    try:
        frames = whole_number("--frames", args.frames, "a number of frames", least=0)
        layout = load_layout(args.layout)
        out.parent.mkdir(parents=True, exist_ok=True)  # the camera's settings go there too
        gray = load_gray(args.image) if args.image else _from_camera(args.source, frames, out)
        calibration = calibrate(gray, layout, make_decoder(args.decoder), _layout_name(args.layout))
        with stopping.gently():  # a Ctrl-C waits for the file to be written whole
            save_calibration(calibration, out)
    except CompanionError as err:
        return fail("calibrate", err)
    except OSError as err:
        return fail("calibrate", _unwritable(out, err))
    for warning in calibration.warnings:
        print(f"companion calibrate: warning: {warning}", file=sys.stderr)
    ppm = sorted(calibration.px_per_module.values())
    board = calibration.board
    print(
        f"calibrated kit {calibration.kit} on layout {layout.name}: "
        f"{board.anchors_used} of {board.anchors_seen} corner and slot tags "
        f"fit within {board.rms_error_mm:.1f} mm{_lens_words(calibration)}; "
        f"tags at {ppm[0]:.1f} to {ppm[-1]:.1f} px per module; saved to {out}"
    )
    return 0


def _lens_words(calibration: Calibration) -> str:
    """How far the lens bent the board, when it was corrected (nothing for a straight
    lens: the camera is as good as a pinhole)."""
    straight = calibration.straight_rms_error_mm
    if calibration.board.lens.is_straight or straight is None:
        return ""
    return f" after correcting the lens (uncorrected the fit was off by {straight:.1f} mm)"


def _from_camera(spec: str, frames: int, out: Path) -> Gray:
    """The last of `frames` + 1 frames from the camera, once exposure and focus settled."""
    with GuardedSource(open_source(spec, camera_profile_path(out))) as source:
        for _ in range(frames):
            source.read()
        return to_gray(source.read())


def _layout_name(name_or_path: str) -> str:
    """How the calibration names its layout: a shipped name as it is, a café's own file
    by its full path, since `companion play` may run in another folder (the service's)."""
    return name_or_path if name_or_path in layout_names() else str(Path(name_or_path).resolve())


def _unwritable(path: Path, err: OSError) -> CompanionError:
    return UnwritableFileError(f"{path}: cannot write the calibration ({err.strerror or err})")
