"""Replaying a folder of still images as if a camera had taken them one after another.

Saved frames (from a café table, a bug report or a benchmark) are read back in the
order a person sees them in a file manager, so `frame-2.png` comes before
`frame-10.png`. One unreadable file fails one frame, the way a camera hiccup would,
and the replay goes on with the next file.
"""

import re
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CameraLostError, CameraUnavailableError, SourceEndedError
from companion.sources.base import Frame, FrameSource
from companion.wording import count

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff"})
"""File name endings (compared without case) of the images a folder replay reads."""

_DIGITS = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[str | int, ...], str]:
    """Sort key that orders the numbers inside names by value: frame-2 before frame-10."""
    parts = _DIGITS.split(name)
    key = tuple(int(part) if i % 2 else part.casefold() for i, part in enumerate(parts))
    return key, name


def _images_in(folder: Path) -> tuple[Path, ...]:
    try:
        entries = list(folder.iterdir())
    except FileNotFoundError:
        raise CameraUnavailableError(f"{folder}: no such folder") from None
    except NotADirectoryError:
        raise CameraUnavailableError(f"{folder}: not a folder") from None
    except OSError as err:
        raise CameraUnavailableError(f"{folder}: cannot list the folder ({err.strerror})") from None
    images = [path for path in entries if _is_image(path)]
    return tuple(sorted(images, key=lambda path: natural_key(path.name)))


def _is_image(path: Path) -> bool:
    """An image file by its name; hidden files (`._frame.png` from a Mac) are left out."""
    hidden = path.name.startswith(".")
    return path.suffix.lower() in IMAGE_SUFFIXES and not hidden and path.is_file()


class FolderSource(FrameSource):
    """The images of one folder, in natural name order, once or over and over."""

    def __init__(self, folder: Path | str, *, loop: bool = False) -> None:
        self.folder = Path(folder)
        """The folder replayed."""
        self.files = _images_in(self.folder)
        """The image files, in the order they are replayed."""
        if not self.files:
            raise CameraUnavailableError(
                f"{self.folder}: no images in the folder (PNG, JPEG, BMP or TIFF)"
            )
        self.loop = loop
        """Whether the replay starts again after the last image."""
        self.description = f"folder {self.folder}, {count(len(self.files), 'image')}"
        self._next = 0
        self._closed = False

    def read(self) -> Frame:
        """The next image in colour (BGR); `CameraLostError` names a file that cannot be read."""
        if self._closed:
            raise CameraLostError(f"{self.folder}: the folder replay was closed")
        if self._next == len(self.files):
            if not self.loop:
                raise SourceEndedError(
                    f"{self.folder}: no images left after {count(len(self.files), 'image')}"
                )
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        try:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        except cv2.error as err:  # an image of more pixels than OpenCV reads
            raise CameraLostError(f"{path}: not an image that can be read ({err.err})") from None
        if image is None or image.size == 0:
            raise CameraLostError(f"{path}: not an image that can be read")
        return np.asarray(image, np.uint8)

    def close(self) -> None:
        """End the replay; nothing is held open between frames."""
        self._closed = True
