"""Stand-ins for the picamera2 and libcamera modules, for tests and for trying the camera
code on a machine that is not a Raspberry Pi.

picamera2 exists only on Raspberry Pi OS, and `Picamera2Source` imports it only when a
camera is opened. `installed()` puts these stand-ins where that import finds them, so
the camera source, the doctor's camera check and `companion play --source picamera`
run anywhere:

    with installed():
        main(["doctor", "--source", "picamera"])

`MockPicamera2` keeps to picamera2's real method names and arguments and records every
call, so a test can check what the camera was asked. Its class attributes say how the
camera behaves (the controls it offers, the frames and metadata it gives, where it
fails); a subclass, or the fresh class `installed()` hands back, changes them.
"""

import contextlib
import enum
import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt

MODULES = ("picamera2", "libcamera")
"""The modules `installed()` stands in for."""

AF_CONTROLS = ("AfMode", "LensPosition")
"""The controls of a camera with autofocus (Camera Module 3)."""
BASIC_CONTROLS = ("AeEnable", "ExposureTime", "AnalogueGain", "AwbEnable", "ColourGains")
"""The exposure and colour controls every camera module offers."""


class AfModeEnum(enum.IntEnum):
    """libcamera.controls.AfModeEnum: how the lens is focused."""

    Manual = 0
    Auto = 1
    Continuous = 2


def auto_metadata(frame: int) -> dict[str, Any]:
    """What a camera reports with frame number `frame` while its automatic controls are
    still moving: the exposure creeps up a microsecond a frame, nothing has converged."""
    return {
        "ExposureTime": 10000 + frame,
        "AnalogueGain": 2.0,
        "ColourGains": (1.8, 1.5),
        "LensPosition": 1.25,
        "AeState": 1,
        "AfState": 1,
    }


class MockPicamera2:
    """picamera2.Picamera2 as far as the companion uses it; `calls` lists every call made."""

    controls_offered: ClassVar[tuple[str, ...]] = BASIC_CONTROLS + AF_CONTROLS
    """The names in `camera_controls`: what this camera can be set to."""
    sensor_size: ClassVar[tuple[int, int]] = (4608, 2592)
    """The sensor's full size (width, height), as `sensor_resolution` gives it."""
    frame_shape: ClassVar[tuple[int, int]] = (4, 6)
    """Rows and columns of every frame captured, whatever size was configured (small,
    so that a test reads many quickly)."""
    frame_level: ClassVar[int | None] = None
    """The grey level of every pixel of a frame; None for the frame's number (1, 2, ...),
    so that frames differ."""
    failure_on_open: ClassVar[Exception | None] = None
    """Raised when the camera is opened (no camera, camera busy)."""
    failure_on_start: ClassVar[Exception | None] = None
    """Raised by `start`."""
    failure_on_capture: Exception | None = None
    """Raised by `capture_arrays` (the camera lost mid-game); also settable on one camera."""
    made: ClassVar[list["MockPicamera2"]] = []
    """Every camera opened of this class, oldest first (`installed()` gives each install
    a fresh class, so each starts empty)."""

    def __init__(self, camera_num: int = 0) -> None:
        if self.failure_on_open is not None:
            raise self.failure_on_open
        self.camera_num = camera_num
        self.calls: list[tuple[str, Any]] = []
        """Every call made, as (method name, arguments)."""
        self.captured = 0
        """Frames captured so far."""
        self.sensor_resolution = self.sensor_size
        self.camera_properties = {"Model": "imx708"}
        self.camera_controls = dict.fromkeys(self.controls_offered, (0, 1, 0))
        type(self).made.append(self)

    def metadata(self, frame: int) -> dict[str, Any]:
        """The metadata reported with frame number `frame` (see `auto_metadata`)."""
        return auto_metadata(frame)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", kwargs))
        return {"use_case": "video", **kwargs}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start", None))
        if self.failure_on_start is not None:
            raise self.failure_on_start

    def capture_arrays(
        self, names: list[str], wait: float | None = None
    ) -> tuple[list[npt.NDArray[np.uint8]], dict[str, Any]]:
        self.calls.append(("capture_arrays", (names, wait)))
        if self.failure_on_capture is not None:
            raise self.failure_on_capture
        self.captured += 1
        level = self.captured if self.frame_level is None else self.frame_level
        frame = np.full((*self.frame_shape, 3), level, np.uint8)
        return [frame], self.metadata(self.captured)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", controls))

    def switch_mode(self, *args: Any, **kwargs: Any) -> None:
        self.calls.append(("switch_mode", args))

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))

    def named(self, name: str) -> list[Any]:
        """The arguments of every call to method `name`, oldest first."""
        return [argument for called, argument in self.calls if called == name]


@contextlib.contextmanager
def installed(camera: type[MockPicamera2] = MockPicamera2) -> Iterator[type[MockPicamera2]]:
    """Stand-in picamera2 and libcamera modules in `sys.modules` for the `with` block.

    Their camera class is a fresh subclass of `camera`, handed to the block: it has its
    own list of cameras made, and settings changed on it end with the block. Whatever
    `sys.modules` held under those names before (a real picamera2, or None) comes back
    afterwards.
    """
    fresh = cast(type[MockPicamera2], type(camera.__name__, (camera,), {"made": []}))
    picamera2 = types.ModuleType("picamera2", "Stand-in from companion.sources.mock_picamera2.")
    picamera2.__dict__["Picamera2"] = fresh
    libcamera = types.ModuleType("libcamera", "Stand-in from companion.sources.mock_picamera2.")
    libcamera.__dict__["controls"] = types.SimpleNamespace(AfModeEnum=AfModeEnum)
    saved = {name: sys.modules[name] for name in MODULES if name in sys.modules}
    sys.modules.update(picamera2=picamera2, libcamera=libcamera)
    try:
        yield fresh
    finally:
        for name in MODULES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
