"""The cameras a café is likely to hang over its table, as the simulated table models them.

Each is a frame size, a horizontal field of view and a radial distortion, with its
principal point a little off the frame's centre as on a real sensor. The Camera
Module 3 Wide's terms give what Raspberry Pi publishes for it, 102 degrees across and
120 degrees corner to corner, which only a strong barrel makes agree (a pinhole 102
degrees across sees 110 corner to corner); top to bottom they give 61 degrees, where
Raspberry Pi says 67, which no radial lens with the other two figures can have. The
standard module is close to a pinhole (66 degrees across), and the webcam is a 4K
UVC one with the barrel of a cheap wide lens. Through the webcam's and the Wide's
barrel a plain homography misses the board's tags by several millimetres, and half
of them disagree with it: that is what calibration has to correct.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

import numpy as np

from companion.errors import SettingError
from companion.kit.layouts import Layout
from companion.kit.mounting import LENSES as CAMERAS
from companion.kit.mounting import Lens
from companion.sim.camera import CameraPose, View

MARGIN = 0.05
"""Room kept around the board in the frame, as a share of its size, when a lens is
hung over it (as the hardware guide advises)."""
EDGE_POINTS = 17
"""Points along each side of the board (and its margin) checked to be in the frame."""
HEIGHT_STEP_MM = 5.0
"""Heights tried apart when looking for the lowest that shows the whole board."""


@dataclass(frozen=True)
class SimLens:
    """A camera model: what the frame holds and how its lens bends it."""

    name: str
    """Its short name, as `--lens` takes it."""
    camera: Lens
    """The camera as the hardware guide plans with it (`companion.kit.mounting`): its
    name, the frame size the companion reads it at, and its fields of view (the
    horizontal one, distortion included, is the simulated lens's)."""
    k1: float
    """First radial distortion term (OpenCV's Brown model)."""
    k2: float
    """Second radial distortion term."""
    centre_offset_px: tuple[float, float]
    """The principal point's distance from the frame's centre."""

    @property
    def description(self) -> str:
        """What a person calls it."""
        return self.camera.name

    @property
    def frame_px(self) -> tuple[int, int]:
        """The frame size the companion reads it at."""
        return self.camera.resolution_px

    @property
    def hfov_deg(self) -> float:
        """Horizontal field of view, distortion included."""
        return self.camera.hfov_deg

    def pose(
        self,
        height_mm: float,
        *,
        tilt_deg: float = 0.0,
        yaw_deg: float = 0.0,
        offset_mm: tuple[float, float] = (0.0, 0.0),
    ) -> CameraPose:
        """This camera hung `height_mm` above the board, as placed."""
        return CameraPose(
            height_mm=height_mm,
            tilt_deg=tilt_deg,
            yaw_deg=yaw_deg,
            offset_mm=offset_mm,
            hfov_deg=self.hfov_deg,
            frame_px=self.frame_px,
            k1=self.k1,
            k2=self.k2,
            centre_offset_px=self.centre_offset_px,
        )

    def in_mode(self, frame_px: tuple[int, int]) -> "SimLens":
        """The same camera read at another frame size that keeps its whole field (a
        binned mode, such as 2304x1296 on a 4608x2592 sensor)."""
        scale = frame_px[0] / self.frame_px[0]
        offset = (self.centre_offset_px[0] * scale, self.centre_offset_px[1] * scale)
        return replace(self, camera=self.camera.in_mode(frame_px), centre_offset_px=offset)

    def over(self, layout: Layout, *, tilt_deg: float = 0.0, margin: float = MARGIN) -> CameraPose:
        """This camera hung as low as it can over the board's centre while the whole
        board, with `margin` of its size on each side, stays in the frame (its edges
        all along, which a barrel bulges out): every tag is then at its largest."""
        width, height = layout.board_mm
        low, high = (
            (-margin * width, -margin * height),
            ((1 + margin) * width, (1 + margin) * height),
        )
        along = np.linspace(0.0, 1.0, EDGE_POINTS)
        xs, ys = low[0] + along * (high[0] - low[0]), low[1] + along * (high[1] - low[1])
        corners = np.vstack(
            [
                np.column_stack([xs, np.full_like(xs, low[1])]),
                np.column_stack([xs, np.full_like(xs, high[1])]),
                np.column_stack([np.full_like(ys, low[0]), ys]),
                np.column_stack([np.full_like(ys, high[0]), ys]),
            ]
        )
        lowest = HEIGHT_STEP_MM * math.ceil(100.0 / HEIGHT_STEP_MM)
        for step in range(4000):
            pose = self.pose(lowest + step * HEIGHT_STEP_MM, tilt_deg=tilt_deg)
            view = View(pose, layout.board_mm)
            if (view.depths(corners) <= 0).any():
                continue
            seen = view.project(corners)
            frame_w, frame_h = self.frame_px
            if (seen >= 0).all() and (seen[:, 0] < frame_w).all() and (seen[:, 1] < frame_h).all():
                return pose
        raise SettingError(
            f"no height shows the whole of layout {layout.name} through {self.description}"
        )


LENSES: Mapping[str, SimLens] = MappingProxyType(
    {
        "standard": SimLens("standard", CAMERAS["cm3"], -0.03, 0.0, (14.0, -9.0)),
        "wide": SimLens("wide", CAMERAS["cm3-wide"], -0.14, 0.009, (23.0, -15.0)),
        "webcam": SimLens("webcam", CAMERAS["usb-4k"], -0.15, 0.02, (-19.0, 12.0)),
    }
)
"""The simulated cameras by name: the standard and Wide Camera Modules and a webcam."""


def find_lens(name: str) -> SimLens:
    """A simulated camera by name; `SettingError` lists the known ones."""
    try:
        return LENSES[name]
    except KeyError:
        raise SettingError(f"unknown lens {name!r}; lenses are {', '.join(LENSES)}") from None
