"""Loading still images (calibration frames, saved frames) as greyscale arrays."""

from pathlib import Path

import cv2
import numpy as np

from companion.errors import UnreadableImageError
from companion.vision.decode import Gray


def load_gray(path: Path) -> Gray:
    """The image at `path` in grey levels; `UnreadableImageError` if there is none."""
    if not path.is_file():
        raise UnreadableImageError(f"{path}: no such image file")
    try:
        image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    except cv2.error as err:  # a header claiming more pixels than OpenCV will read
        raise UnreadableImageError(f"{path}: OpenCV cannot read this image ({err.err})") from None
    if image is None or image.size == 0:
        raise UnreadableImageError(f"{path}: not an image that can be read (PNG, JPEG, ...)")
    return np.asarray(image, np.uint8)
