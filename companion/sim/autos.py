"""A camera's automatic focus and exposure hunting, frame after frame.

A webcam (and a Camera Module before its settings are held) refocuses when the
picture changes: a few frames go soft while it hunts. When a hand comes into view
its metering sees a brighter picture and steps the exposure down, then back up over
a few frames. `Autos` is where that hunting stands; each frame it takes what changed
and answers with the next state and the `Tweak` for that frame.
"""

from dataclasses import dataclass

from companion.sim.effects import Conditions, Tweak

FOCUS_STEPS_PX = (2.5, 4.0, 1.5, 0.8)
"""Extra blur, in pixels of a 4608-wide frame, of the soft frames while focus hunts:
off one way, further off, then closing in."""
EXPOSURE_STEPS = (0.72, 0.82, 0.91, 0.97)
"""Brightness of the frames after a hand comes into view, against the settled
exposure, as the camera steps back to it."""
REFERENCE_WIDTH_PX = 4608
"""The frame width `FOCUS_STEPS_PX` are given at."""


@dataclass(frozen=True)
class Autos:
    """How far the camera is through its hunting."""

    focus_frames: int = -1
    """The last frame's place in the focus hunt (-1: focus settled)."""
    exposure_frames: int = -1
    """The last frame's place in the exposure steps (-1: exposure settled)."""
    hands: int = 0
    """Hands in view in the last frame."""

    def next(
        self, changed: bool, hands: int, conditions: Conditions, width_px: int
    ) -> tuple["Autos", Tweak]:
        """The hunting after one more frame, in which the table `changed` (or not) and
        `hands` hands are in view, and what it does to that frame."""
        focus = 0 if changed else self.focus_frames + (self.focus_frames >= 0)
        exposure = 0 if hands > self.hands else self.exposure_frames + (self.exposure_frames >= 0)
        steps_focus = FOCUS_STEPS_PX[: conditions.focus_hunt]
        steps_exposure = EXPOSURE_STEPS[: conditions.exposure_hunt]
        blur = (
            steps_focus[focus] * width_px / REFERENCE_WIDTH_PX
            if 0 <= focus < len(steps_focus)
            else 0.0
        )
        level = steps_exposure[exposure] if 0 <= exposure < len(steps_exposure) else 1.0
        settled = Autos(
            focus if focus < len(steps_focus) else -1,
            exposure if exposure < len(steps_exposure) else -1,
            hands,
        )
        return settled, Tweak(blur, level)
