"""The simulated table as a frame source: what the demo's players lay, as a camera sees it.

Whoever plays the table (the demo's simulated players, a test) says what lies on it
with `lay`; every `read` returns a camera frame of that. Drawing a frame costs far
more than reading one, so each of the last few layouts is drawn once and its frame
handed out again whenever it lies on the table, as a still table gives a camera the
same picture (a hand over the board holds still while its layout lasts).
"""

from dataclasses import replace

import numpy as np

from companion.errors import CameraLostError
from companion.sim import CameraPose, Conditions, Lay, Scene, SimFrame, render
from companion.sources.base import Frame, FrameSource

KEEP_DRAWN = 6
"""Frames of recent layouts kept for handing out again: a round's few stages and the
empty table."""


class SimulatedTable(FrameSource):
    """A camera over a simulated board."""

    def __init__(
        self, scene: Scene, pose: CameraPose, conditions: Conditions, rng: np.random.Generator
    ) -> None:
        self.pose = pose
        self.conditions = conditions
        self.rng = rng
        self.laid = Lay(scene)
        """What lies on the table now."""
        self.last: SimFrame | None = None
        self._drawn: list[tuple[Lay, SimFrame]] = []
        width, height = pose.frame_px
        self.description = f"simulated table, {width}x{height}"

    def lay(self, lay: Lay) -> None:
        """Change what lies on the table from the next frame on."""
        self.laid = lay

    def read(self) -> Frame:
        """A frame of the table as it lies now."""
        lay = self.laid
        if lay.camera_off:
            raise CameraLostError(f"{self.description}: the simulated camera is unplugged")
        drawn = next((frame for seen, frame in self._drawn if seen == lay), None)
        if drawn is None:
            conditions = replace(self.conditions, hands=lay.hands)
            drawn = render(lay.scene, self.pose, conditions, self.rng)
            self._drawn = [*self._drawn[-(KEEP_DRAWN - 1) :], (lay, drawn)]
        self.last = drawn
        return drawn.image

    def close(self) -> None:
        """Forget the frames drawn; the table stays as laid."""
        self._drawn.clear()
