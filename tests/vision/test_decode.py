"""Decoder backends: zxing-cpp by default, pyzbar where the zbar library is installed."""

import ctypes.util

import numpy as np
import pytest
import segno

from companion.errors import UnknownDecoderError
from companion.kit.tags import KitTag, Role
from companion.vision.decode import DECODER_VARIABLE, make_decoder

TAG = KitTag("CAFE", Role.VOTE, colour="green", index=2)
HAS_ZBAR = ctypes.util.find_library("zbar") is not None


def tag_image(text: str, scale: int = 8, at: tuple[int, int] = (60, 40)) -> np.ndarray:
    modules = np.array(segno.make_qr(text, version=1, error="m").matrix, dtype=bool)
    code = np.where(np.kron(np.pad(modules, 4), np.ones((scale, scale))) > 0, 0, 255)
    image = np.full((400, 500), 255, np.uint8)
    y, x = at
    image[y : y + code.shape[0], x : x + code.shape[1]] = code
    return image


def test_zxing_finds_the_code_and_its_corners() -> None:
    (found,) = make_decoder("zxing").decode(tag_image(TAG.text))
    assert found.text == TAG.text
    assert found.center_px == pytest.approx((40 + 4 * 8 + 84, 60 + 4 * 8 + 84), abs=2)
    assert found.side_px == pytest.approx(21 * 8, rel=0.05)


@pytest.mark.skipif(not HAS_ZBAR, reason="the zbar library is not installed (apt install libzbar0)")
def test_pyzbar_finds_the_code_and_orders_its_corners() -> None:
    (found,) = make_decoder("pyzbar").decode(tag_image(TAG.text))
    assert found.text == TAG.text
    (x0, y0), (x1, _), (_, y2), _ = found.corners_px
    assert x0 < x1 and y0 < y2
    assert found.side_px == pytest.approx(21 * 8, rel=0.05)


def test_the_environment_chooses_the_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DECODER_VARIABLE, "zxing")
    assert make_decoder().name == "zxing"
    monkeypatch.setenv(DECODER_VARIABLE, "nope")
    with pytest.raises(
        UnknownDecoderError, match="unknown decoder 'nope'; decoders are zxing, pyzbar"
    ):
        make_decoder()


def test_an_empty_frame_has_no_codes() -> None:
    assert make_decoder("zxing").decode(np.full((100, 100), 255, np.uint8)) == []
