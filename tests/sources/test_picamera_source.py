"""The Raspberry Pi camera source, on a stand-in for picamera2 that records what it is asked.

The stand-in (companion.sources.mock_picamera2, installed by the `fake` fixture) keeps to
picamera2's real method names and arguments; the one test that needs a real camera is
marked `hardware`.
"""

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.errors import (
    CalibrationFileError,
    CameraLostError,
    CameraUnavailableError,
    SettingError,
)
from companion.sources.mock_picamera2 import (
    BASIC_CONTROLS,
    AfModeEnum,
    MockPicamera2,
    auto_metadata,
)
from companion.sources.picamera import (
    EARLY_LOCK_FRAMES,
    SETTLE_FRAMES,
    CameraProfile,
    Picamera2Source,
    load_profile,
    save_profile,
)


def the_camera(fake: type[MockPicamera2]) -> MockPicamera2:
    (camera,) = fake.made
    return camera


PROFILE = CameraProfile(12000, 3.5, (1.9, 1.4), 2.0)


def test_the_camera_runs_one_configuration_started_once(fake: type[MockPicamera2]) -> None:
    with Picamera2Source((2304, 1296)) as source:
        for _ in range(SETTLE_FRAMES * 3):
            assert source.read().shape == (4, 6, 3)
    camera = the_camera(fake)
    (config,) = camera.named("create_video_configuration")
    assert config["main"] == {"size": (2304, 1296), "format": "RGB888"}
    assert config["buffer_count"] <= 4
    assert config["queue"] is False
    assert len(camera.named("configure")) == 1
    assert len(camera.named("start")) == 1
    assert camera.named("switch_mode") == []
    assert len(camera.named("capture_arrays")) == SETTLE_FRAMES * 3
    assert [name for name, _ in camera.calls[-2:]] == ["stop", "close"]


def test_without_a_size_the_sensor_gives_its_full_size(fake: type[MockPicamera2]) -> None:
    source = Picamera2Source()
    (config,) = the_camera(fake).named("create_video_configuration")
    assert config["main"]["size"] == (4608, 2592)
    assert source.description == "Raspberry Pi camera 0 (imx708), 4608x2592"


def test_autofocus_runs_while_settling(fake: type[MockPicamera2]) -> None:
    Picamera2Source()
    (config,) = the_camera(fake).named("create_video_configuration")
    assert config["controls"] == {"AfMode": AfModeEnum.Continuous}


def test_controls_are_fixed_at_the_values_of_the_settling_frame(fake: type[MockPicamera2]) -> None:
    source = Picamera2Source()
    camera = the_camera(fake)
    for _ in range(SETTLE_FRAMES - 1):
        source.read()
    assert source.profile is None
    assert camera.named("set_controls") == []
    source.read()
    for _ in range(10):
        source.read()
    expected = CameraProfile(10000 + SETTLE_FRAMES, 2.0, (1.8, 1.5), 1.25)
    assert source.profile == expected
    assert camera.named("set_controls") == [
        {
            "AeEnable": False,
            "ExposureTime": 10000 + SETTLE_FRAMES,
            "AnalogueGain": 2.0,
            "AwbEnable": False,
            "ColourGains": (1.8, 1.5),
            "AfMode": AfModeEnum.Manual,
            "LensPosition": 1.25,
        }
    ]


def test_controls_are_fixed_early_once_the_camera_reports_them_settled(
    fake: type[MockPicamera2],
) -> None:
    settle_at = EARLY_LOCK_FRAMES + 2
    fake.metadata = staticmethod(
        lambda frame: (
            auto_metadata(frame) | ({"AeState": 2, "AfState": 2} if frame >= settle_at else {})
        )
    )
    source = Picamera2Source()
    for _ in range(settle_at):
        source.read()
    assert source.profile is not None
    assert source.profile.exposure_us == 10000 + settle_at
    assert len(the_camera(fake).named("set_controls")) == 1


def test_an_early_report_of_settled_exposure_is_not_trusted(fake: type[MockPicamera2]) -> None:
    fake.metadata = staticmethod(
        lambda frame: auto_metadata(frame) | {"AeLocked": True, "AfState": 2}
    )
    source = Picamera2Source()
    for _ in range(EARLY_LOCK_FRAMES - 1):
        source.read()
    assert source.profile is None
    source.read()
    assert source.profile is not None


def test_exposure_settled_but_focus_still_scanning_waits(fake: type[MockPicamera2]) -> None:
    fake.metadata = staticmethod(lambda frame: auto_metadata(frame) | {"AeState": 2})
    source = Picamera2Source()
    for _ in range(SETTLE_FRAMES - 1):
        source.read()
    assert source.profile is None


def test_a_camera_without_autofocus_fixes_exposure_and_colour_only(
    fake: type[MockPicamera2],
) -> None:
    fake.controls_offered = BASIC_CONTROLS
    fake.metadata = staticmethod(
        lambda frame: {k: v for k, v in auto_metadata(frame).items() if k != "LensPosition"}
    )
    source = Picamera2Source()
    for _ in range(SETTLE_FRAMES):
        source.read()
    camera = the_camera(fake)
    (config,) = camera.named("create_video_configuration")
    assert config["controls"] == {}
    ((locked),) = camera.named("set_controls")
    assert set(locked) == set(BASIC_CONTROLS)
    assert source.profile is not None and source.profile.lens_position is None


def test_metadata_without_the_values_leaves_the_camera_automatic(fake: type[MockPicamera2]) -> None:
    fake.metadata = staticmethod(lambda frame: {"AeState": 2})
    source = Picamera2Source()
    for _ in range(SETTLE_FRAMES * 2):
        source.read()
    assert source.profile is None
    assert the_camera(fake).named("set_controls") == []


def test_a_profile_fixes_the_controls_from_the_first_frame(fake: type[MockPicamera2]) -> None:
    source = Picamera2Source(profile=PROFILE)
    assert source.profile == PROFILE
    for _ in range(SETTLE_FRAMES * 2):
        source.read()
    camera = the_camera(fake)
    (config,) = camera.named("create_video_configuration")
    assert config["controls"] == {
        "AeEnable": False,
        "ExposureTime": 12000,
        "AnalogueGain": 3.5,
        "AwbEnable": False,
        "ColourGains": (1.9, 1.4),
        "AfMode": AfModeEnum.Manual,
        "LensPosition": 2.0,
    }
    assert camera.named("set_controls") == []
    assert source.profile == PROFILE


def test_a_profile_file_is_written_once_settled_and_used_at_the_next_start(
    fake: type[MockPicamera2], tmp_path: Path
) -> None:
    path = tmp_path / "table.camera.json"
    first = Picamera2Source(profile_file=path)
    for _ in range(SETTLE_FRAMES):
        first.read()
    assert first.profile is not None
    assert load_profile(path) == first.profile
    first.close()
    again = Picamera2Source(profile_file=path)
    assert again.profile == first.profile


def test_a_missing_picamera2_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraUnavailableError, match="apt install python3-picamera2"):
        Picamera2Source()


def test_a_camera_that_cannot_be_opened_is_unavailable(fake: type[MockPicamera2]) -> None:
    fake.failure_on_open = IndexError("list index out of range")
    with pytest.raises(CameraUnavailableError, match="Raspberry Pi camera 1: cannot be opened"):
        Picamera2Source(camera=1)


def test_a_camera_that_cannot_start_is_unavailable_and_let_go(fake: type[MockPicamera2]) -> None:
    fake.failure_on_start = RuntimeError("Failed to start camera")
    with pytest.raises(CameraUnavailableError, match=r"camera 0: cannot be started \(Failed"):
        Picamera2Source()
    assert the_camera(fake).named("close") == [None]


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        (RuntimeError("Camera frontend has timed out!"), r"capture failed \(Camera frontend"),
        (TimeoutError(), r"no frame within 2 s"),
        (OSError(19, "No such device"), r"capture failed \(.*No such device"),
    ],
)
def test_a_failing_capture_is_a_lost_camera(
    fake: type[MockPicamera2], failure: Exception, message: str
) -> None:
    source = Picamera2Source()
    source.read()
    the_camera(fake).failure_on_capture = failure
    with pytest.raises(CameraLostError, match="Raspberry Pi camera 0: " + message):
        source.read()


def test_closing_twice_stops_and_closes_once(fake: type[MockPicamera2]) -> None:
    source = Picamera2Source()
    source.close()
    source.close()
    camera = the_camera(fake)
    assert camera.named("stop") == [None]
    assert camera.named("close") == [None]
    with pytest.raises(CameraLostError, match="closed"):
        source.read()


@pytest.mark.parametrize("size", [(0, 480), (641, 480), (-2, 4)])
def test_a_size_the_camera_cannot_give_is_refused(
    fake: type[MockPicamera2], size: tuple[int, int]
) -> None:
    with pytest.raises(SettingError, match="must be positive and even"):
        Picamera2Source(size)
    assert fake.made == []


def test_a_profile_is_saved_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "camera.json"
    save_profile(PROFILE, path)
    assert load_profile(path) == PROFILE
    without_focus = CameraProfile(800, 1.0, (2.0, 1.0))
    save_profile(without_focus, path)
    assert load_profile(path) == without_focus
    assert json.loads(path.read_text())["lens_position"] is None


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("{not json", "not a camera profile"),
        ("[]", "damaged camera profile"),
        ('{"format": 2}', "damaged camera profile"),
        (
            '{"format": 1, "exposure_us": 1000, "analogue_gain": 1.0, "colour_gains": [1, 1]}',
            "damaged camera profile",
        ),
        (
            '{"format": 1, "exposure_us": 1000.5, "analogue_gain": 1.0, "colour_gains": [1, 1], "lens_position": null}',
            "not a whole number",
        ),
        (
            '{"format": 1, "exposure_us": 1000, "analogue_gain": -1, "colour_gains": [1, 1], "lens_position": null}',
            "analogue gain -1 is not a positive number",
        ),
        (
            '{"format": 1, "exposure_us": 1000, "analogue_gain": 1, "colour_gains": [1, "x"], "lens_position": null}',
            "colour gain 'x'",
        ),
        (
            '{"format": 1, "exposure_us": 1000, "analogue_gain": 1, "colour_gains": [1], "lens_position": null}',
            "red and a blue gain",
        ),
        (
            '{"format": 1, "exposure_us": 1000, "analogue_gain": 1, "colour_gains": [1, 1], "lens_position": NaN}',
            "lens position nan",
        ),
        (
            '{"format": 1, "exposure_us": 1000, "analogue_gain": 1, "colour_gains": [1, 1], "lens_position": null, "x": 1}',
            "exactly the keys",
        ),
    ],
)
def test_a_damaged_profile_is_refused_naming_the_file(
    tmp_path: Path, text: str, fault: str
) -> None:
    path = tmp_path / "camera.json"
    path.write_text(text)
    with pytest.raises(CalibrationFileError, match=re.escape(f"{path}: ") + ".*" + fault):
        load_profile(path)


def test_a_missing_profile_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "none.json"
    with pytest.raises(CalibrationFileError, match=re.escape(f"{path}: no such camera profile")):
        load_profile(path)


@pytest.mark.hardware
def test_the_real_camera_gives_frames_and_settles() -> None:
    source = Picamera2Source((1536, 864))
    with source:
        frames = [source.read() for _ in range(SETTLE_FRAMES + 5)]
    assert source.profile is not None
    assert all(frame.shape == (864, 1536, 3) and frame.dtype == np.uint8 for frame in frames)
    with Picamera2Source((1536, 864), profile=source.profile) as again:
        assert again.read().shape == (864, 1536, 3)
