"""The one interface every frame source has: frames in, errors that say what failed.

A source hands out numpy frames (BGR or grey, uint8) one at a time. It raises
`CameraLostError` when it fails after having worked, `SourceEndedError` when a replay
runs out, and `CameraUnavailableError` when it cannot be opened; the game loop turns
each into a message on the screen and goes on by hand.
"""

import abc

import numpy as np
import numpy.typing as npt

from companion.closing import Closing

Frame = npt.NDArray[np.uint8]


class FrameSource(Closing):
    """A camera, a video, a folder of images or the simulated table."""

    description: str = "frame source"
    """What the source is, in a few words for the screen ("Camera Module 3, 4608x2592")."""

    @abc.abstractmethod
    def read(self) -> Frame:
        """The next frame; blocks until one is there (at most about a second)."""

    @abc.abstractmethod
    def close(self) -> None:
        """Let the camera or file go; safe to call twice."""

    @property
    def stuck(self) -> bool:
        """Whether a read that never returned still holds the camera, even after
        `close`: then only a new process frees it."""
        return False
