"""Damaged camera profile files: a `CalibrationFileError` naming the file, or a profile
whose every value a camera could be held at.

The profile lies beside the calibration and is read at every start of `companion
play`; a file left half-written by a power cut or edited by hand must never stop the
start with a traceback, nor hold the camera at an exposure of NaN.
"""

import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CalibrationFileError
from companion.sources.picamera import CameraProfile, load_profile, save_profile
from tests.mutations import damaged_files

PROFILES = (CameraProfile(12000, 1.8, (2.1, 1.6), 3.2), CameraProfile(800, 1.0, (2.0, 1.0)))


@pytest.fixture(scope="module")
def profile_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("profiles") / "table.camera.json"


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PROFILES).flatmap(lambda profile: damaged_files(profile.to_json())))
def test_a_damaged_profile_file_is_refused_or_holds_the_camera_at_real_values(
    profile_path: Path, data: bytes
) -> None:
    profile_path.write_bytes(data)
    try:
        profile = load_profile(profile_path)
    except CalibrationFileError as err:
        assert str(err).startswith(f"{profile_path}: ")
        assert "\n" not in str(err)
        return
    assert isinstance(profile.exposure_us, int) and profile.exposure_us > 0
    values = [profile.analogue_gain, *profile.colour_gains]
    assert all(math.isfinite(v) and v > 0 for v in values)
    lens = profile.lens_position
    assert lens is None or (math.isfinite(lens) and lens >= 0)
    save_profile(profile, profile_path)
    assert load_profile(profile_path) == profile


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("analogue_gain", "1" + "0" * 400),
        ("colour_gains", "[1, 1e999]"),
        ("exposure_us", "9" * 5000),
    ],
)
def test_regression_overflowing_and_overlong_numbers_are_refused(
    profile_path: Path, field: str, value: str
) -> None:
    save_profile(PROFILES[0], profile_path)
    text = profile_path.read_text()
    start = text.index(f'"{field}": ') + len(f'"{field}": ')
    end = text.index(",\n", start) if field != "colour_gains" else text.index("],\n", start) + 1
    profile_path.write_text(text[:start] + value + text[end:])
    with pytest.raises(CalibrationFileError, match=f"^{re.escape(str(profile_path))}: "):
        load_profile(profile_path)
