"""The QR code of a tag: its module matrix, the one source every printed form is drawn from.

The PNG files, the PDF sheets and the frame simulator all draw `tag_modules`, so a tag
looks the same wherever it appears. A tag is a version 1 code (21 modules) with a
quiet zone of `QUIET_ZONE_MODULES` on each side: half the four modules the standard
asks for, which the kit's decoders read reliably and which keeps tokens small. A tag
printed `size_mm` across therefore has modules of `size_mm / MODULES_ACROSS`.
"""

import functools
import io

import numpy as np
import numpy.typing as npt
import segno
from PIL import Image

from companion.kit.tags import QUIET_ZONE_MODULES, KitTag

PNG_PX_PER_MODULE = 10
"""Pixels per module of the PNG files: sharp when scaled, small on disk."""

Modules = npt.NDArray[np.bool_]
"""A square matrix of modules, True where dark."""


def tag_symbol(tag: KitTag) -> segno.QRCode:
    """The tag's QR code: version 1, error correction M, alphanumeric mode.

    The version and mode are fixed, never chosen by segno, so every tag has the same
    module size at a given print size; `boost_error` is off so the error level is the
    same on every tag too.
    """
    return _symbol(tag.text)


def tag_modules(tag: KitTag) -> Modules:
    """The tag's modules with its quiet zone: a read-only (25, 25) array, True = dark."""
    return _modules(tag.text)


def png_bytes(tag: KitTag, px_per_module: int = PNG_PX_PER_MODULE) -> bytes:
    """The tag as a PNG: black modules on white, quiet zone included, nothing else."""
    grey = np.where(tag_modules(tag), 0, 255).astype(np.uint8)
    pixels = grey.repeat(px_per_module, axis=0).repeat(px_per_module, axis=1)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return buffer.getvalue()


def _symbol(text: str) -> segno.QRCode:
    symbol = segno.make_qr(text, version=1, error="m", mode="alphanumeric", boost_error=False)
    assert symbol.version == 1 and symbol.mode == "alphanumeric", symbol.designator
    return symbol


@functools.lru_cache(maxsize=256)
def _modules(text: str) -> Modules:
    matrix = np.array(_symbol(text).matrix, dtype=np.bool_)
    padded = np.pad(matrix, QUIET_ZONE_MODULES, constant_values=False)
    padded.flags.writeable = False
    return padded
