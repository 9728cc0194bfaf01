"""The simulated table as a frame source: what the demo's players lay, as a camera sees it.

Whoever plays the table (the demo's simulated players, a test, a benchmark) says what
lies on it with `lay`; every `read` returns a camera frame of that. The camera keeps
the still table between frames (`SimCamera`), and each of the last few layouts is
drawn once and its frame handed out again whenever it lies on the table, as a still
table gives a camera the same picture (a hand over the board holds still while its
layout lasts). The camera's own hunting for focus and exposure, when its conditions
ask for it, goes over each frame as it is handed out: soft frames after the table
changes, an exposure step when a hand comes into view.
"""

from dataclasses import replace

import numpy as np

from companion.errors import CameraLostError
from companion.sim import CameraPose, Conditions, Lay, Scene, SimCamera, SimFrame
from companion.sim.autos import Autos
from companion.sim.effects import hunted
from companion.sources.base import Frame, FrameSource

KEEP_DRAWN = 2
"""Frames of recent layouts kept for handing out again: the one on the table (a stage
of laying out lasts several frames) and the one before (a hand comes and goes)."""


class SimulatedTable(FrameSource):
    """A camera over a simulated board."""

    def __init__(
        self, scene: Scene, pose: CameraPose, conditions: Conditions, rng: np.random.Generator
    ) -> None:
        self.pose = pose
        self.conditions = conditions
        self.rng = rng
        self.camera = SimCamera(pose)
        self.laid = Lay(scene)
        """What lies on the table now."""
        self.last: SimFrame | None = None
        """The frame last handed out, with its truth (before the camera's hunting)."""
        self._drawn: list[tuple[Lay, SimFrame]] = []
        self._autos = Autos()
        self._before: Lay | None = None
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
            drawn = self.camera.shoot(lay.scene, conditions, self.rng)
            self._drawn = [*self._drawn[-(KEEP_DRAWN - 1) :], (lay, drawn)]
        self._autos, tweak = self._autos.next(
            lay != self._before, lay.hands, self.conditions, self.pose.frame_px[0]
        )
        self._before = lay
        self.last = drawn
        return drawn.image if tweak.none else hunted(drawn.image, tweak)

    def close(self) -> None:
        """Forget the frames drawn; the table stays as laid."""
        self._drawn.clear()
