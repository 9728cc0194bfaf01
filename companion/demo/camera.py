"""The demo's camera over its simulated table, and the calibration a café makes with it.

The camera is posed just high enough to see the whole board, read in the cheapest of
its modes that still shows a token sharply enough, leaning a little as real mounts
do; the board is calibrated from a frame of it, empty, once the camera has settled.
"""

from companion.kit.layouts import Layout
from companion.sim import LENSES, CameraPose, SimLens
from companion.sources.simulated import SimulatedTable
from companion.vision.calibration import Calibration, calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import to_gray

KIT = "DEMO1"
"""The kit id of the demo's tokens and board tags."""
MODES = (2, 1)
"""The camera's frame sizes, as fractions of its full size, the cheaper first: the
demo reads the first that shows a token in the board's middle at `PX_PER_MODULE` (the
12-slot board needs the full size)."""
PX_PER_MODULE = 3.8
"""Pixels per QR module the demo's camera gives a token in the board's middle, at
least: a little under the 4 the hardware guide asks of a café's camera (which must
hold in every light), enough for the demo's table, and it lets the tests' small board
be read at a quarter of the pixels."""
MARGIN = 0.02
"""Room kept round the board in the frame, as a share of its size on each side: the
simulated board is never pushed out of view."""
TILT_DEG = 6.0
"""How far the demo's camera leans: mounts are rarely quite level."""
CAMERA_SETTLE_FRAMES = 3
"""Frames read from the simulated camera before the one calibrated on: its focus and
exposure hunting (three frames at most in the named looks) is over by then, as a
café's camera has settled before `companion calibrate --source` takes its frame."""


def calibrated(table: SimulatedTable, layout: Layout, layout_name: str) -> Calibration:
    """The calibration a café makes: a frame of the empty board, the camera settled."""
    for _ in range(CAMERA_SETTLE_FRAMES):
        table.read()
    return calibrate(to_gray(table.read()), layout, make_decoder(), layout_name)


def demo_pose(layout: Layout, lens: SimLens = LENSES["standard"]) -> CameraPose:
    """The camera just high enough to see the whole board, read in the cheapest mode
    that still shows a token in the board's middle sharply enough."""
    middle = (layout.board_mm[0] / 2, layout.board_mm[1] / 2)
    poses = []
    for fraction in MODES:
        width, height = lens.frame_px
        mode = lens.in_mode((width // fraction, height // fraction))
        pose = mode.over(layout, tilt_deg=TILT_DEG, margin=MARGIN)
        sharp = pose.px_per_module(layout.board_mm, middle, layout.token_size_mm)
        poses.append((sharp >= PX_PER_MODULE, pose))
    return next((pose for sharp, pose in poses if sharp), poses[-1][1])
