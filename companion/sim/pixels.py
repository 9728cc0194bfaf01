"""BGR frames and the pixel arithmetic shared by painting the table and spoiling the frame.

Every step works on uint8 images with OpenCV's saturating operations: they are fast
on full frames and give the same bytes every time, which seeded frames rely on.
"""

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
"""A BGR frame, or a single-channel mask, rows by columns."""


def scaled(image: cv2.typing.MatLike, gain: cv2.typing.MatLike) -> Image:
    """A BGR image scaled by a gain map, 255 leaving it unchanged."""
    return np.asarray(cv2.multiply(image, three_channels(gain), scale=1 / 255), np.uint8)


def three_channels(channel: cv2.typing.MatLike) -> Image:
    """One channel repeated as BGR."""
    return np.asarray(cv2.merge([channel, channel, channel]), np.uint8)
