"""Damaged calibration files: a `CalibrationFileError` naming the file, or a calibration
the table reader can use without crashing or reading nonsense.

A real calibration (the simulated small board, calibrated from a rendered frame, with
its straight lens or a bending one) is saved, damaged in its structure
(tests/mutations.py, plus degenerate matrices, sizes and lenses) and in its bytes, and
loaded. Whatever `load_calibration` accepts is then handed to a `TableReader` that
reads frames in which a token is seen but no board tag, so the calibration's own fit
must place it: every number that comes out must be finite.
"""

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli.read import reading_document
from companion.errors import CalibrationFileError
from companion.kit.tags import KitTag, Role
from companion.vision.calibration import Calibration, load_calibration, save_calibration
from companion.vision.decode import Gray
from companion.vision.pipeline import TableReader
from companion.vision.records import Detection
from tests.mutations import damaged_files
from tests.vision.scenes import KIT, calibration, layout

TOKEN = KitTag(KIT, Role.OWNER, colour="red", index=1).text


def lens(**changes: object) -> dict[str, object]:
    """A lens object of the calibration's 2304x1296 frame (a mild barrel), changed."""
    return {"centre_px": [1151.5, 647.5], "scale_px": [1321.7, 1321.7], "k": [0.1, 0, 0]} | changes


DEGENERATE = {
    "px_to_mm": [
        [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
        [[1, 2, 3], [2, 4, 6], [0, 0, 1]],
        [[1, 0, 0], [0, 1, 0], [0, 0, 0]],
        [[1e-9, 0, 0], [0, 1e-9, 0], [0, 0, 1]],
        [[1e200, 0, 0], [0, 1e200, 0], [0, 0, 1]],
        [[1, 0], [0, 1]],
        [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]],
    ],
    "frame_size": [
        [0, 0],
        [-2304, 1296],
        [2304.5, 1296],
        ["2304", "1296"],
        [True, True],
        [1, 1],
        [10**400, 1296],
        [2**40, 1296],
    ],
    "px_per_module": [
        dict.fromkeys(calibration().px_per_module, value)
        for value in (0, -4.5, 1e300, 5000, True, None)
    ],
    "kit": [12345, "cafe1", ""],
    "anchors_used": [-1, 4.5, "8"],
    "rms_error_mm": [-1.0, "0.1"],
    "straight_rms_error_mm": [-1.0, "0.1", None],
    "format": [0, 3, "2", True, 2.5],
    "lens": [
        None,
        [1151.5, 647.5],
        {"centre_px": [1151.5, 647.5], "scale_px": [1321.7, 1321.7]},
        lens(scale_px=[0, 1321.7]),
        lens(scale_px=[-1321.7, 1321.7]),
        lens(scale_px=[1e-10, 1e-10]),
        lens(scale_px=[1e300, 1e300]),
        lens(centre_px=[1e6, 647.5]),
        lens(centre_px=[True, 647.5]),
        lens(centre_px=[1151.5]),
        lens(k=[-0.6, 0, 0]),
        lens(k=[0, 0, 50]),
        lens(k=[0, 0, 1e300]),
        lens(k=[0.1, 0]),
        lens(k=["0.1", 0, 0]),
        lens(scale_px=[1e-300, 1e-300]),
    ],
}
"""Values of the right shape that still say nothing a table could have produced."""


class TokenOnly:
    """A decoder that sees one owner token in the middle of any image, never a board tag,
    so that the reader must place it with the calibration's fit."""

    name = "token-only"

    def decode(self, gray: Gray) -> list[Detection]:
        height, width = gray.shape
        x, y, h = width / 2, height / 2, min(width, height) / 4
        return [Detection(TOKEN, ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)))]


def saved_document() -> dict[str, Any]:
    return calibration().to_json()


@st.composite
def calibration_files(draw: st.DrawFn) -> bytes:
    doc = saved_document()
    if draw(st.booleans()):  # the simulated camera's lens is straight; a real one bends
        doc["lens"] = lens()
    if draw(st.booleans()):
        field = draw(st.sampled_from(sorted(DEGENERATE)))
        doc[field] = draw(st.sampled_from(DEGENERATE[field]))
    return draw(damaged_files(doc))


def load(path: Path) -> Calibration | None:
    """The calibration in the file, or None when refused naming the file."""
    try:
        return load_calibration(path)
    except CalibrationFileError as err:
        assert str(err).startswith(f"{path}: ")
        assert "\n" not in str(err)
        return None


def check_usable(accepted: Calibration) -> None:
    """The reader places a token with the calibration's fit in frames of its shape."""
    assert all(math.isfinite(v) for row in accepted.board.px_to_mm for v in row)
    width, height = accepted.frame_size
    reader = TableReader(accepted, layout(), TokenOnly())
    for longest in (64, 640):
        scale = longest / max(width, height)
        shape = (max(1, round(height * scale)), max(1, round(width * scale)))
        frame = np.full(shape, 128, np.uint8)
        reading = reader.read(frame)
        assert not reading.refitted
        json.dumps(reading_document("frame", reading), allow_nan=False)
        where = [u.reason for u in reading.observation.unplaced]
        assert not any("nan" in w or "inf" in w for w in where), where


@pytest.fixture(scope="module")
def calibration_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("calibrations") / "table.json"


def test_the_real_calibration_is_usable(calibration_path: Path) -> None:
    save_calibration(calibration(), calibration_path)
    accepted = load(calibration_path)
    assert accepted == calibration()
    check_usable(accepted)


def test_a_calibration_through_a_bending_lens_is_usable(calibration_path: Path) -> None:
    calibration_path.write_text(json.dumps(saved_document() | {"lens": lens()}))
    accepted = load(calibration_path)
    assert accepted is not None and not accepted.board.lens.is_straight
    check_usable(accepted)


@settings(max_examples=500, deadline=None)
@given(calibration_files())
def test_a_damaged_calibration_file_is_refused_or_usable(
    calibration_path: Path, data: bytes
) -> None:
    calibration_path.write_bytes(data)
    accepted = load(calibration_path)
    if accepted is not None:
        check_usable(accepted)


@pytest.mark.parametrize(
    ("field", "value"),
    [(field, value) for field, values in DEGENERATE.items() for value in values],
)
def test_regression_a_calibration_that_says_nothing_real_is_refused(
    calibration_path: Path, field: str, value: object
) -> None:
    calibration_path.write_text(json.dumps(saved_document() | {field: value}))
    with pytest.raises(CalibrationFileError, match="damaged calibration file"):
        load_calibration(calibration_path)
