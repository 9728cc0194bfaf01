"""Loading still images (calibration frames, saved frames) as greyscale arrays.

An image that is not whole is refused before it is decoded: OpenCV decodes a
truncated JPEG or PNG into a partial picture (the missing part grey) without a word
but libjpeg's and libpng's warnings written straight to standard error, and a table
read from half a picture is silently wrong. A JPEG ends with its end-of-image marker
and a PNG with its IEND chunk; checking those is cheap and needs no other library.
"""

import os
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UnreadableImageError
from companion.vision.decode import Gray

cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)

JPEG_START, JPEG_END = b"\xff\xd8", b"\xff\xd9"
"""A JPEG's start-of-image and end-of-image markers."""
PNG_START, PNG_END = b"\x89PNG\r\n\x1a\n", b"\x00\x00\x00\x00IEND\xaeB`\x82"
"""A PNG's signature and its closing IEND chunk (length, type and CRC never vary)."""


def load_gray(path: Path, *, named: bool = True) -> Gray:
    """The image at `path` in grey levels; `UnreadableImageError` if there is none, or
    it is not whole. Its message begins with the path unless `named` is False (for a
    command that names each input itself)."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        fault = "no such image file"
    except OSError as err:  # a folder, no permission
        fault = f"cannot be read ({err.strerror or err})"
    else:
        try:
            return image_gray(data)
        except UnreadableImageError as err:
            fault = str(err)
    raise UnreadableImageError(f"{path}: {fault}" if named else fault)


def image_gray(data: bytes) -> Gray:
    """An image file's bytes in grey levels; `UnreadableImageError` (not naming any
    file) if they are not a whole image."""
    if data.startswith(JPEG_START) and not data.rstrip(b"\x00").endswith(JPEG_END):
        raise UnreadableImageError("the JPEG image is cut short: the file is not whole")
    if data.startswith(PNG_START) and not data.endswith(PNG_END):
        raise UnreadableImageError("the PNG image is cut short: the file is not whole")
    if not data:
        raise UnreadableImageError("not an image that can be read (PNG, JPEG, ...)")
    try:
        image, said = _decode_quietly(data)
    except cv2.error as err:  # a header claiming more pixels than OpenCV will read
        raise UnreadableImageError(f"OpenCV cannot read this image ({err.err})") from None
    if image is None or image.size == 0:
        raise UnreadableImageError("not an image that can be read (PNG, JPEG, ...)")
    if said:
        raise UnreadableImageError(f"the image is damaged ({said.splitlines()[0]})")
    return image


def _decode_quietly(data: bytes) -> tuple[Gray | None, str]:
    """Decode with standard error caught at its file descriptor: libjpeg and libpng
    write their warnings there from C ("Corrupt JPEG data: ...") and still hand back a
    partial picture, so what they said is both kept off the command's error line and
    taken as the sign of a damaged image. Only the commands that read image files
    (`calibrate`, `read`, single-threaded) decode this way."""
    sys.stderr.flush()
    with tempfile.TemporaryFile() as caught:
        saved = os.dup(2)
        try:
            os.dup2(caught.fileno(), 2)
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        said = caught.read().decode("utf-8", "replace").strip()
    return (None if image is None else np.asarray(image, np.uint8)), said
