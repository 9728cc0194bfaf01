"""What the doctor is asked to check, and how it reaches the hardware and the person.

`Settings` are the table's parts as the command line names them: the same options as
`companion play`, read into the same records of the table's configuration
(`companion.runtime.config`) and checked by them before anything is opened. `Probes`
are the doctor's hands: the GPIO pin factory, how it speaks to the person at the
table, how long it waits; tests give mock pins, a recording voice and no pauses.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gpiozero import Factory

from companion.controls.buttons import ButtonPins
from companion.controls.light import LightPins
from companion.controls.strip import StripDriver, make_strip
from companion.doctor.findings import Finding
from companion.doctor.versions import installed_lock
from companion.errors import SettingError
from companion.runtime.config import CameraConfig, Wiring
from companion.sources.guarded import STALL_SECONDS
from companion.sources.registry import NO_SOURCE, scheme_of
from companion.statedir import camera_profile_path, default_calibration_path
from companion.vision.decode import Decoder, make_decoder

FRAMES = 10
"""Frames read from the camera by default: enough for a camera module to settle its
exposure, few enough to take about a second."""
CAMERA_MODULE = "picamera"
"""The `--source` kind of the Raspberry Pi Camera Module, whose exposure is held."""
DEFAULT_CALIBRATE_SOURCE = CAMERA_MODULE
"""The source the calibrate hint names when the doctor ran without a camera."""
PRESS_SECONDS = 10.0
"""How long `--press` waits for each button."""


@dataclass(frozen=True)
class Settings:
    """The table's parts to check, as `companion play` would use them."""

    calibration: Path
    """The calibration file; the camera profile lies beside it."""
    journal: Path
    """The journal file."""
    decoder: Decoder
    """The QR decoder the table is read with."""
    source: str = DEFAULT_CALIBRATE_SOURCE
    """The frame source, as `--source` writes it, or "none"."""
    frames: int = FRAMES
    """How many frames to read from the camera."""
    buttons: ButtonPins | None = field(default_factory=ButtonPins)
    """The buttons' pins, or None when they are not to be checked."""
    light: LightPins | None = field(default_factory=LightPins)
    """The status light's pins, or None when it is not to be checked."""
    strip: str | None = None
    """The LED strip as `--strip` writes it, or None for no strip."""
    press: bool = False
    """Whether to ask the person to press each button."""
    lock: Path = field(default_factory=installed_lock)
    """The lock of exact versions this environment was installed from."""

    def __post_init__(self) -> None:
        if isinstance(self.frames, bool) or not isinstance(self.frames, int) or self.frames < 1:
            raise SettingError(f"--frames {self.frames}: read at least one frame")

    @classmethod
    def of(
        cls, camera: CameraConfig, journal: Path, wiring: Wiring, *, frames: int, press: bool
    ) -> "Settings":
        """The parts of a table's configuration (as `companion play` reads and checks
        them), to check; `frames` and `press` are the doctor's own."""
        return cls(
            calibration=camera.calibration,
            journal=journal,
            decoder=make_decoder(camera.decoder),
            source=camera.source,
            frames=frames,
            buttons=wiring.buttons,
            light=wiring.light,
            strip=None if wiring.strip is None else str(wiring.strip),
            press=press,
        )

    @property
    def camera_profile(self) -> Path:
        """Where the camera module's held exposure and focus are kept."""
        return camera_profile_path(self.calibration)

    @property
    def source_kind(self) -> str:
        """The kind of source, as `--source` names it before the first colon: "picamera"."""
        return scheme_of(self.source)

    @property
    def has_camera(self) -> bool:
        """Whether a frame source is to be checked at all."""
        return self.source_kind != NO_SOURCE

    def calibrate_command(self, layout: str | None) -> str:
        """The command that calibrates this table, as a café owner would type it."""
        source = self.source if self.has_camera else DEFAULT_CALIBRATE_SOURCE
        command = f"companion calibrate --source {source} --layout {layout or 'NAME'}"
        if self.calibration != default_calibration_path():
            command += f" --out {self.calibration}"
        return f"`{command}`"


@dataclass(frozen=True)
class Probes:
    """How the doctor reaches the hardware and the person running it."""

    pin_factory: Factory | None = None
    """gpiozero's pin factory; None lets gpiozero choose, as `companion play` does."""
    say: Callable[[str], None] = print
    """Tells the person what to look at or press, as it happens."""
    pause: Callable[[float], None] = time.sleep
    """Waits while the person looks at the light or the strip."""
    open_strip: Callable[[str | None], StripDriver | None] = make_strip
    """Opens the LED strip from its `--strip` text."""
    press_seconds: float = PRESS_SECONDS
    """How long `--press` waits for each button."""
    stall_seconds: float = STALL_SECONDS
    """How long one camera read may take before the camera counts as stalled."""
    table_options: Callable[[], Finding] | None = None
    """Checks the options the table's service starts `companion play` with; the command
    line gives it, as it alone knows play's options. None: not checked."""
