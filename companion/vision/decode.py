"""QR decoding backends: zxing-cpp by default, pyzbar where Raspberry Pi OS ships it.

A decoder takes a greyscale frame (2-D uint8 array) and returns every QR code it
finds as a `Detection`. Backends are chosen by name in one place, `make_decoder`,
from a command-line option or the `COMPANION_DECODER` environment variable.
"""

import math
import os
from collections.abc import Callable
from typing import Protocol

import numpy as np
import numpy.typing as npt

from companion.errors import DecoderUnavailableError, UnknownDecoderError
from companion.vision.records import Detection, Point, Quad

Gray = npt.NDArray[np.uint8]
"""A greyscale frame, rows by columns."""

DECODER_VARIABLE = "COMPANION_DECODER"
"""Environment variable naming the decoder when no option does."""
DEFAULT_DECODER = "zxing"


class Decoder(Protocol):
    """Finds and decodes the QR codes in a greyscale frame."""

    name: str
    """The backend's name, as `make_decoder` takes it."""

    def decode(self, gray: Gray) -> list[Detection]:
        """Every QR code found, with its corners in the frame's pixels."""
        ...


class ZxingDecoder:
    """zxing-cpp: fast and robust on small, slightly blurred codes.

    Inverted and downscaled searches are off: kit tags are dark on light, and the
    pipeline decides the scale itself from the measured pixels per module.
    """

    name = "zxing"

    def __init__(self) -> None:
        import zxingcpp

        self._read = zxingcpp.read_barcodes
        self._qr = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)

    def decode(self, gray: Gray) -> list[Detection]:
        found = self._read(gray, formats=self._qr, try_invert=False, try_downscale=False)
        detections = []
        for code in found:
            p = code.position
            corners: Quad = (
                (float(p.top_left.x), float(p.top_left.y)),
                (float(p.top_right.x), float(p.top_right.y)),
                (float(p.bottom_right.x), float(p.bottom_right.y)),
                (float(p.bottom_left.x), float(p.bottom_left.y)),
            )
            detections.append(Detection(code.text, corners))
        return detections


class PyzbarDecoder:
    """pyzbar (the zbar library): ships with Raspberry Pi OS; slower and weaker on
    small codes, but a second opinion that needs nothing from PyPI's binary wheels."""

    name = "pyzbar"

    def __init__(self) -> None:
        try:
            from pyzbar import pyzbar
        except ImportError as err:
            raise DecoderUnavailableError(
                f"the pyzbar decoder needs the zbar library (apt install libzbar0): {err}"
            ) from None
        self._decode: Callable[..., list[object]] = pyzbar.decode
        self._qr = [pyzbar.ZBarSymbol.QRCODE]

    def decode(self, gray: Gray) -> list[Detection]:
        detections = []
        for code in self._decode(gray, symbols=self._qr):
            polygon: list[tuple[int, int]] = list(code.polygon)  # type: ignore[attr-defined]
            if len(polygon) != 4:
                continue
            text = code.data.decode("utf-8", errors="replace")  # type: ignore[attr-defined]
            detections.append(Detection(text, _clockwise(polygon)))
        return detections


def _clockwise(points: list[tuple[int, int]]) -> Quad:
    """Four points ordered clockwise in image coordinates, starting top left."""
    cx = sum(p[0] for p in points) / 4
    cy = sum(p[1] for p in points) / 4
    ordered = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    start = min(range(4), key=lambda i: ordered[i][0] + ordered[i][1])
    quad = [ordered[(start + i) % 4] for i in range(4)]
    a, b, c, d = (_point(p) for p in quad)
    return (a, b, c, d)


def _point(p: tuple[int, int]) -> Point:
    return (float(p[0]), float(p[1]))


DECODERS: dict[str, Callable[[], Decoder]] = {"zxing": ZxingDecoder, "pyzbar": PyzbarDecoder}
"""Decoder backends by name."""


def make_decoder(name: str | None = None) -> Decoder:
    """The decoder called `name`, else the one `COMPANION_DECODER` names, else zxing."""
    chosen = name or os.environ.get(DECODER_VARIABLE) or DEFAULT_DECODER
    try:
        factory = DECODERS[chosen]
    except KeyError:
        raise UnknownDecoderError(
            f"unknown decoder {chosen!r}; decoders are {', '.join(DECODERS)}"
        ) from None
    return factory()
