"""Loading still images (calibration frames, saved frames) as greyscale arrays.

An image that is not whole is refused before it is decoded: OpenCV decodes a
truncated JPEG or PNG into a partial picture (the missing part grey) without a word
but libjpeg's and libpng's warnings written straight to standard error, and a table
read from half a picture is silently wrong. A JPEG's picture data ends with its
end-of-image marker and a PNG with its IEND chunk; checking those is cheap and needs
no other library. Only regular files of a photo's size are read.
"""

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UnreadableImageError
from companion.vision.decode import Gray


def _silence_opencv() -> None:
    """Keep OpenCV's own log off standard error: a damaged picture is reported by the
    companion, in its words. OpenCV 4 (what a Raspberry Pi's pip gets, see
    hardware/pi-constraints.txt) has `cv2.setLogLevel`; OpenCV 5 moved it to
    `cv2.utils.logging`. Level 0 is silent in both."""
    logging = getattr(cv2.utils, "logging", None)
    if logging is not None:
        logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    else:
        getattr(cv2, "setLogLevel")(0)  # noqa: B009 (not in OpenCV 5's type stubs)


_silence_opencv()

JPEG_START, JPEG_END = b"\xff\xd8", b"\xff\xd9"
"""A JPEG's start-of-image and end-of-image markers."""
PNG_START, PNG_END = b"\x89PNG\r\n\x1a\n", b"\x00\x00\x00\x00IEND\xaeB`\x82"
"""A PNG's signature and its closing IEND chunk (length, type and CRC never vary)."""
JPEG_SCAN = 0xDA
"""The marker byte of a JPEG's start of scan, after which the picture's data begins."""
DAMAGE_MESSAGES = ("Corrupt JPEG data", "Premature end of JPEG file", "libpng error")
"""How libjpeg and libpng begin what they say of a damaged picture. Anything else they
say ("libpng warning: iCCP: known incorrect sRGB profile", a JFIF revision) is about
a harmless oddity of a picture that decodes whole, and is not held against it."""
MAX_IMAGE_BYTES = 100_000_000
"""The largest image file read: a photo of a table is a few megabytes even from a
phone, so anything larger is a mistake (a video, a disk image) that would only fill
the Pi's memory."""


def load_gray(path: Path, *, named: bool = True) -> Gray:
    """The image at `path` in grey levels; `UnreadableImageError` if there is none, or
    it is not whole. Its message begins with the path unless `named` is False (for a
    command that names each input itself)."""
    try:
        data = _file_bytes(path)
    except FileNotFoundError:
        fault = "no such image file"
    except UnreadableImageError as err:  # an OSError too, so before the one below
        fault = str(err)
    except OSError as err:  # no permission, a failing card
        fault = f"cannot be read ({err.strerror or err})"
    else:
        try:
            return image_gray(data)
        except UnreadableImageError as err:
            fault = str(err)
    raise UnreadableImageError(f"{path}: {fault}" if named else fault)


def _file_bytes(path: Path) -> bytes:
    """A regular file's bytes, at most `MAX_IMAGE_BYTES` of them; `UnreadableImageError`
    (not naming the file) for anything else. Opened without blocking, so that a FIFO is
    refused rather than waited on, and checked before it is read, so that `/dev/zero`
    is refused rather than read for ever."""
    too_large = f"larger than any photo of a table ({MAX_IMAGE_BYTES // 1_000_000} MB)"
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise UnreadableImageError("no such image file")
        if not stat.S_ISREG(status.st_mode):
            raise UnreadableImageError("not a file (a device, a pipe or a socket)")
        if status.st_size > MAX_IMAGE_BYTES:
            raise UnreadableImageError(too_large)
        with open(fd, "rb", closefd=False) as file:
            data = file.read(MAX_IMAGE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_IMAGE_BYTES:  # grew while it was read
        raise UnreadableImageError(too_large)
    return data


def image_gray(data: bytes) -> Gray:
    """An image file's bytes in grey levels; `UnreadableImageError` (not naming any
    file) if they are not a whole image."""
    if data.startswith(JPEG_START) and not _jpeg_ends(data):
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
    damage = [line for line in said.splitlines() if line.startswith(DAMAGE_MESSAGES)]
    if damage:
        raise UnreadableImageError(f"the image is damaged ({damage[0]})")
    return image


def _jpeg_ends(data: bytes) -> bool:
    """Whether a JPEG is whole: an end-of-image marker after its first start of scan.
    Its header segments are walked by their lengths to the scan, so that the end
    marker of a thumbnail in the header does not count; inside the scan's data the
    bytes FF D9 cannot occur but as the end marker (a data byte FF is followed by 00),
    so a file cut short has none after the scan. Bytes after the end marker (phones
    append their own data, cameras pad with zeros) do not matter."""
    at = len(JPEG_START)
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return True  # not a JPEG header to judge: left to the decoder
        if data[at + 1] == 0xFF:  # fill byte before a marker
            at += 1
        elif data[at + 1] == JPEG_SCAN:
            return data.find(JPEG_END, at) != -1
        else:
            at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return False


def _decode_quietly(data: bytes) -> tuple[Gray | None, str]:
    """Decode with standard error caught at its file descriptor: libjpeg and libpng
    write their warnings there from C ("Corrupt JPEG data: ...") and still hand back a
    partial picture, so what they said is both kept off the command's error line and
    judged by its damage messages. Only the commands that read image files
    (`calibrate`, `read`, single-threaded) decode this way. With no standard error
    at all (fd 2 closed, `sys.stderr` None), fd 2 is borrowed for the decode and
    closed again, so damage is still caught."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):  # a stream closed under us
            sys.stderr.flush()
    with tempfile.TemporaryFile() as caught:
        try:
            saved: int | None = os.dup(2)
        except OSError:  # fd 2 is not open
            saved = None
        try:
            os.dup2(caught.fileno(), 2)
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
        finally:
            if saved is None:
                os.close(2)
            else:
                os.dup2(saved, 2)
                os.close(saved)
        caught.seek(0)
        said = caught.read().decode("utf-8", "replace").strip()
    return (None if image is None else np.asarray(image, np.uint8)), said
