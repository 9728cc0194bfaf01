"""The Raspberry Pi camera module through picamera2, with exposure, colour and focus held still.

The reader compares frames over time to tell a settled table from hands moving over
it; a camera that keeps re-deciding its exposure, white balance or focus makes a still
table look as if it moved. So the camera runs one continuous video configuration,
started once (a mode switch per frame would cost a second each time and re-run the
automatic controls), lets the automatic controls settle on the first frames, then
fixes them at the values they settled on. Those values form a `CameraProfile`, which a
table can save and give back at the next start so the camera is fixed from its first
frame.

picamera2 exists only on a Raspberry Pi, so it is imported when a camera is opened,
never when this module is. Every call into it sits in a small method of
`Picamera2Source`, and every failure it raises becomes one of the companion's errors.
"""

import contextlib
import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import (
    CalibrationFileError,
    CameraLostError,
    CameraUnavailableError,
    SettingError,
    UnwritableFileError,
)
from companion.jsonfile import finite_number, load_json_file
from companion.sources.base import Frame, FrameSource

SETTLE_FRAMES = 15
"""Frames read before exposure, white balance and focus are fixed even if the camera
never reports them settled: half a second at 30 frames a second, and more in practice,
since the reader takes longer per frame than the sensor does."""
EARLY_LOCK_FRAMES = 5
"""Frames read at least before a camera's report of settled exposure is trusted: the
report can come on the first frames, while white balance is still moving."""
BUFFER_COUNT = 3
"""Frame buffers of the one configuration: one being filled, one queued, one being
read. Full-resolution colour frames are 36 MB each, from a limited memory pool."""
CAPTURE_TIMEOUT_S = 2.0
"""A frame that has not come in this long means the camera is lost (cable, power)."""
FRAME_FORMAT = "RGB888"
"""picamera2's name for 8-bit colour whose arrays are in BGR order, as OpenCV expects."""
PROFILE_FORMAT = 1
"""Version of the camera profile file format."""

_AE_STATE_CONVERGED = 2
"""libcamera `AeStateConverged`: the exposure algorithm has reached its target."""
_AF_STATES_DONE = frozenset({2, 3})
"""libcamera `AfStateFocused` and `AfStateFailed`: autofocus is no longer scanning."""
_INSTALL_HINT = (
    "install it with `sudo apt install python3-picamera2` (Raspberry Pi OS), and create "
    "the virtual environment with --system-site-packages so that it can see it"
)


@dataclass(frozen=True)
class CameraProfile:
    """The exposure, white balance and focus a camera is held at."""

    exposure_us: int
    """Exposure time of each frame, in microseconds."""
    analogue_gain: float
    """Sensor gain (1.0 = none)."""
    colour_gains: tuple[float, float]
    """White balance: the gains of the red and of the blue channel."""
    lens_position: float | None = None
    """Focus in dioptres (1 / distance in metres); None for a camera without autofocus."""

    def __post_init__(self) -> None:
        if isinstance(self.exposure_us, bool) or not isinstance(self.exposure_us, int):
            raise SettingError(f"exposure time {self.exposure_us!r} is not a whole number of µs")
        if self.exposure_us <= 0:
            raise SettingError(f"exposure time {self.exposure_us} µs is not positive")
        _check_positive("analogue gain", self.analogue_gain)
        if len(self.colour_gains) != 2:
            raise SettingError(f"colour gains {self.colour_gains!r} are not a red and a blue gain")
        for gain in self.colour_gains:
            _check_positive("colour gain", gain)
        if self.lens_position is not None:
            _check_positive("lens position", self.lens_position, allow_zero=True)

    def to_json(self) -> dict[str, Any]:
        """The profile as its JSON document."""
        return {
            "format": PROFILE_FORMAT,
            "exposure_us": self.exposure_us,
            "analogue_gain": self.analogue_gain,
            "colour_gains": list(self.colour_gains),
            "lens_position": self.lens_position,
        }


def _check_positive(what: str, value: object, *, allow_zero: bool = False) -> None:
    number = finite_number(value)
    if number is None or number < 0 or (number == 0 and not allow_zero):
        raise SettingError(f"{what} {value!r} is not a positive number")


def save_profile(profile: CameraProfile, path: Path) -> None:
    """Write the profile file (whole, then renamed, so a crash leaves the old one)."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(json.dumps(profile.to_json(), indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)
    except OSError as err:
        raise UnwritableFileError(f"{path}: cannot write the camera profile ({err})") from None


def load_profile(path: Path) -> CameraProfile:
    """Read a profile file; `CalibrationFileError` if missing, corrupt or malformed."""
    return load_json_file(path, "camera profile", CalibrationFileError, _parse_profile)


def _parse_profile(doc: Any) -> CameraProfile:
    keys = {"format", "exposure_us", "analogue_gain", "colour_gains", "lens_position"}
    if not isinstance(doc, dict) or doc.get("format") != PROFILE_FORMAT:
        raise ValueError(f"expected a camera profile object of format {PROFILE_FORMAT}")
    if set(doc) != keys:
        raise ValueError(f"expected exactly the keys {', '.join(sorted(keys))}")
    gains = doc["colour_gains"]
    if not isinstance(gains, list) or len(gains) != 2:
        raise ValueError("colour_gains must be a list of a red and a blue gain")
    red, blue = gains
    lens = doc["lens_position"]
    return CameraProfile(doc["exposure_us"], doc["analogue_gain"], (red, blue), lens)


def profile_from_metadata(metadata: dict[str, Any]) -> CameraProfile | None:
    """The values a frame was taken with, or None if its metadata lacks any of them."""
    try:
        red, blue = metadata["ColourGains"]
        lens = metadata.get("LensPosition")
        return CameraProfile(
            int(metadata["ExposureTime"]),
            float(metadata["AnalogueGain"]),
            (float(red), float(blue)),
            None if lens is None else float(lens),
        )
    except (KeyError, TypeError, ValueError):
        return None


def settled(metadata: dict[str, Any]) -> bool:
    """Whether a frame's metadata says exposure has converged and focus is not scanning."""
    exposure = metadata.get("AeState") == _AE_STATE_CONVERGED or metadata.get("AeLocked") is True
    focus = "AfState" not in metadata or metadata["AfState"] in _AF_STATES_DONE
    return exposure and focus


def _import_camera_modules() -> tuple[Any, Any]:
    """picamera2's camera class and libcamera's autofocus modes, or `CameraUnavailableError`."""
    try:
        picamera2 = importlib.import_module("picamera2")
        libcamera = importlib.import_module("libcamera")
    except ImportError as err:
        raise CameraUnavailableError(
            f"Raspberry Pi camera: the {err.name or 'picamera2'} library is missing; "
            + _INSTALL_HINT
        ) from None
    return picamera2.Picamera2, libcamera.controls.AfModeEnum


class Picamera2Source(FrameSource):
    """A Raspberry Pi camera module: one continuous stream, automatic controls then held."""

    def __init__(
        self,
        size: tuple[int, int] | None = None,
        *,
        camera: int = 0,
        profile: CameraProfile | None = None,
        profile_file: Path | None = None,
    ) -> None:
        """Open and start camera number `camera` at `size` (default: the sensor's full size).

        With a `profile`, exposure, white balance and focus are fixed at its values from
        the first frame; without, they are fixed once they have settled. A
        `profile_file` that exists is that profile; one that does not yet exist is
        written with the values the camera settled on, so the table is seen alike at
        every start.
        """
        if profile is None and profile_file is not None and profile_file.exists():
            profile = load_profile(profile_file)
        self._profile_file = profile_file
        if size is not None and any(side <= 0 or side % 2 for side in size):
            raise SettingError(
                f"Raspberry Pi camera {camera}: frame size {size[0]}x{size[1]} must be "
                "positive and even"
            )
        self.name = f"Raspberry Pi camera {camera}"
        """The camera, as error messages name it."""
        self.description = self.name
        self._profile = profile
        self._frames = 0
        self._closed = False
        camera_class, self._af_modes = _import_camera_modules()
        self._camera = self._open(camera_class, camera)
        try:
            self._controls = self._supported_controls()
            width, height = size if size is not None else self._sensor_size()
            initial = self._settling_controls() if profile is None else self._lock_controls(profile)
            self._start((width, height), initial)
            self.description = f"{self.name} ({self._model()}), {width}x{height}"
        except Exception as err:
            with contextlib.suppress(CameraLostError):
                self._release()
            raise CameraUnavailableError(f"{self.name}: cannot be started ({err})") from err

    @property
    def profile(self) -> CameraProfile | None:
        """The values the camera is held at; None while it is still settling."""
        return self._profile

    def read(self) -> Frame:
        """The next frame (BGR); fixes the automatic controls once they have settled."""
        if self._closed:
            raise CameraLostError(f"{self.name}: read after the camera was closed")
        frame, metadata = self._capture()
        if self._profile is None:
            self._frames += 1
            self._settle(metadata)
        return np.asarray(frame, np.uint8)

    def close(self) -> None:
        """Stop the stream and let the camera go; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self._camera.stop()
        except Exception as err:
            raise CameraLostError(f"{self.name}: did not stop cleanly ({err})") from err
        finally:
            self._release()

    def _settle(self, metadata: dict[str, Any]) -> None:
        if self._frames < SETTLE_FRAMES and not (
            self._frames >= EARLY_LOCK_FRAMES and settled(metadata)
        ):
            return
        profile = profile_from_metadata(metadata)
        if profile is None:
            return
        self._set_controls(self._lock_controls(profile))
        self._profile = profile
        if self._profile_file is not None:
            save_profile(profile, self._profile_file)

    def _settling_controls(self) -> dict[str, Any]:
        """Continuous autofocus while settling, on a camera that has it; the rest is automatic."""
        return {"AfMode": self._af_modes.Continuous} if "AfMode" in self._controls else {}

    def _lock_controls(self, profile: CameraProfile) -> dict[str, Any]:
        """The controls that hold a camera at `profile`, of those this camera has."""
        wanted: dict[str, Any] = {
            "AeEnable": False,
            "ExposureTime": profile.exposure_us,
            "AnalogueGain": profile.analogue_gain,
            "AwbEnable": False,
            "ColourGains": profile.colour_gains,
        }
        if profile.lens_position is not None:
            wanted |= {"AfMode": self._af_modes.Manual, "LensPosition": profile.lens_position}
        return {name: value for name, value in wanted.items() if name in self._controls}

    # The methods below are the only calls into picamera2.

    def _open(self, camera_class: Any, camera: int) -> Any:
        try:
            return camera_class(camera)
        except Exception as err:
            raise CameraUnavailableError(
                f"{self.name}: cannot be opened ({err or type(err).__name__}); is it "
                "connected, enabled, and not in use by another program?"
            ) from err

    def _supported_controls(self) -> frozenset[str]:
        return frozenset(self._camera.camera_controls)

    def _sensor_size(self) -> tuple[int, int]:
        width, height = self._camera.sensor_resolution
        return int(width), int(height)

    def _model(self) -> str:
        return str(self._camera.camera_properties.get("Model", "unknown model"))

    def _start(self, size: tuple[int, int], controls: dict[str, Any]) -> None:
        config = self._camera.create_video_configuration(
            main={"size": size, "format": FRAME_FORMAT},
            buffer_count=BUFFER_COUNT,
            queue=False,
            controls=controls,
            display=None,
            encode=None,
        )
        self._camera.configure(config)
        self._camera.start()

    def _capture(self) -> tuple[Any, dict[str, Any]]:
        try:
            (frame,), metadata = self._camera.capture_arrays(["main"], wait=CAPTURE_TIMEOUT_S)
        except TimeoutError:
            raise CameraLostError(
                f"{self.name}: no frame within {CAPTURE_TIMEOUT_S:.0f} s (cable or power?)"
            ) from None
        except Exception as err:
            raise CameraLostError(
                f"{self.name}: capture failed ({err or type(err).__name__})"
            ) from err
        return frame, dict(metadata)

    def _set_controls(self, controls: dict[str, Any]) -> None:
        try:
            self._camera.set_controls(controls)
        except Exception as err:
            raise CameraLostError(f"{self.name}: controls refused ({err})") from err

    def _release(self) -> None:
        try:
            self._camera.close()
        except Exception as err:
            raise CameraLostError(f"{self.name}: did not close cleanly ({err})") from err
