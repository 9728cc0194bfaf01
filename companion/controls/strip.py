"""The LED strip beside the board: drivers behind one interface, and the track shown on it.

`StripDriver` is all the rest of the program knows of a strip: `show` a frame of
pixels, `close`. `SpiStrip` writes to a real WS2812 or APA102 strip through spidev
(see `strip_spi` for the wire encodings, the wiring and the Pi 4 / Pi 5 notes);
`MockStrip` records every frame for tests and for running without a strip.
`make_strip` is the one place a strip is chosen from text (a command-line option or
a settings file), and `TrackStrip` draws the scoring track (see `strip_track`) and
writes only when the picture changes, so the main loop may call it every frame.
"""

import abc
import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from companion.closing import Closing
from companion.colours import RGB
from companion.controls.pins import reason
from companion.controls.strip_spi import SPI_HZ, StripKind, frame_bytes
from companion.controls.strip_track import SPACES, RabbitSpot, check_track, track_pixels
from companion.errors import HardwareUnavailableError, PinSettingError
from companion.numbers import too_long

DEFAULT_BRIGHTNESS = 0.3
"""The track's default brightness: plenty in a lit café, and gentler on the power supply."""

SPIDEV_BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")
"""Where the kernel tells the largest single spidev transfer, in bytes."""


class StripDriver(Closing):
    """An addressable LED strip of `length` LEDs.

    Subclasses write one frame (`_send`) and free the hardware (`_release`); this
    class checks frames and makes `close` safe to call twice. Closing turns every LED
    off first, so the strip does not stay lit after the companion stops.
    """

    def __init__(self, length: int) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise PinSettingError(f"a strip needs at least 1 LED, not {length!r}")
        self.length = length
        """How many LEDs the strip has."""
        self._closed = False

    @property
    def closed(self) -> bool:
        """Whether the strip has been closed."""
        return self._closed

    def show(self, pixels: Sequence[RGB]) -> None:
        """Light the strip: `pixels[0]` on the LED nearest the data input.

        Raises `PinSettingError` unless there is exactly one pixel per LED, and
        `HardwareError` once the strip is closed or if the strip cannot be written.
        """
        if self._closed:
            raise HardwareUnavailableError("the LED strip is closed")
        if len(pixels) != self.length:
            raise PinSettingError(
                f"the LED strip has {self.length} LEDs, but {len(pixels)} pixels were given"
            )
        self._send(tuple(pixels))

    def close(self) -> None:
        """Turn every LED off and free the strip; safe to call more than once."""
        if self._closed:
            return
        try:
            self._send(((0, 0, 0),) * self.length)
        finally:
            self._closed = True
            self._release()

    @abc.abstractmethod
    def _send(self, pixels: tuple[RGB, ...]) -> None:
        """Write one checked frame to the strip."""

    @abc.abstractmethod
    def _release(self) -> None:
        """Free the hardware (called once)."""


class MockStrip(StripDriver):
    """A strip that only remembers what it was shown, for tests and for running without one."""

    def __init__(self, length: int) -> None:
        super().__init__(length)
        self.frames: list[tuple[RGB, ...]] = []
        """Every frame shown, oldest first, including the dark frame written on close."""

    def _send(self, pixels: tuple[RGB, ...]) -> None:
        self.frames.append(pixels)

    def _release(self) -> None:
        pass


class SpiDevice(Protocol):
    """The part of a `spidev.SpiDev` that `SpiStrip` uses (an opened device)."""

    max_speed_hz: int
    mode: int

    def writebytes2(self, data: bytes) -> None: ...

    def close(self) -> None: ...


def open_spidev(bus: int, device: int) -> SpiDevice:
    """Open /dev/spidev<bus>.<device>, turning every way it can fail into `HardwareError`."""
    try:
        spidev = importlib.import_module("spidev")
    except ImportError as error:
        raise HardwareUnavailableError(
            "the LED strip needs the spidev library: install the pi extra "
            "(pip install 'dixit-companion[pi]')"
        ) from error
    spi = spidev.SpiDev()
    path = f"/dev/spidev{bus}.{device}"
    try:
        spi.open(bus, device)
    except FileNotFoundError as error:
        raise HardwareUnavailableError(
            f"no {path}: turn SPI on (raspi-config, Interface Options, SPI; or "
            "dtparam=spi=on in /boot/firmware/config.txt) and reboot"
        ) from error
    except PermissionError as error:
        raise HardwareUnavailableError(
            f"{path} cannot be opened: add this user to the spi group and log in again"
        ) from error
    except OSError as error:
        raise HardwareUnavailableError(f"{path} cannot be opened: {reason(error)}") from error
    return cast(SpiDevice, spi)


def _spidev_bufsiz() -> int | None:
    """The kernel's spidev transfer limit in bytes, or None where it cannot be read."""
    try:
        return int(SPIDEV_BUFSIZ.read_text().strip())
    except (OSError, ValueError):
        return None


class SpiStrip(StripDriver):
    """A WS2812 or APA102 strip on SPI bus `bus`, chip select `device` (0, 0 = SPI0 CE0).

    `spi` is an already opened device to use instead of opening spidev (for tests);
    either way its clock and mode are set here and it is closed with the strip.
    """

    def __init__(
        self,
        kind: StripKind,
        length: int,
        bus: int = 0,
        device: int = 0,
        *,
        spi: SpiDevice | None = None,
    ) -> None:
        super().__init__(length)
        self.kind = kind
        """The chip on the strip."""
        self._spi = open_spidev(bus, device) if spi is None else spi
        try:
            self._spi.max_speed_hz = SPI_HZ[kind]
            self._spi.mode = 0
            self._check_fits(_spidev_bufsiz() if spi is None else None)
        except BaseException:
            self._spi.close()
            raise

    def _check_fits(self, bufsiz: int | None) -> None:
        """Refuse a WS2812 strip whose frame spidev would split (a split frame garbles)."""
        if self.kind is not StripKind.WS2812 or bufsiz is None:
            return
        needed = len(frame_bytes(self.kind, ((0, 0, 0),) * self.length))
        if needed > bufsiz:
            raise PinSettingError(
                f"a WS2812 strip of {self.length} LEDs needs {needed}-byte SPI transfers, "
                f"but spidev allows {bufsiz}: add spidev.bufsiz={needed} to the kernel "
                "command line (/boot/firmware/cmdline.txt)"
            )

    def _send(self, pixels: tuple[RGB, ...]) -> None:
        try:
            self._spi.writebytes2(frame_bytes(self.kind, pixels))
        except OSError as error:
            raise HardwareUnavailableError(
                f"the LED strip could not be written: {reason(error)}"
            ) from error

    def _release(self) -> None:
        self._spi.close()


_SPEC = re.compile(
    r"(?P<kind>[a-z0-9]+):(?P<length>[0-9]+)(?::(?P<bus>[0-9]+)\.(?P<device>[0-9]+))?"
)


SPI_PINS = {0: (10, 11), 1: (20, 21)}
"""BCM numbers of each SPI bus's data (MOSI) and clock (SCLK) lines: a strip on the
bus takes both, so no button or light may sit there."""


@dataclass(frozen=True)
class StripSpec:
    """A strip as `--strip` names it, checked but not opened."""

    kind: str
    """"mock", or a `StripKind` value ("ws2812", "apa102")."""
    length: int
    """How many LEDs."""
    bus: int | None
    """The SPI bus (None for a mock strip)."""
    device: int
    """The chip select on that bus."""

    def __str__(self) -> str:
        """The strip as `--strip` writes it: "ws2812:60", "apa102:144:1.0"."""
        if self.bus is None or (self.bus, self.device) == (0, 0):
            return f"{self.kind}:{self.length}"
        return f"{self.kind}:{self.length}:{self.bus}.{self.device}"

    def pins(self) -> dict[str, int]:
        """The GPIO pins the strip takes, keyed by what they are, in words."""
        if self.bus not in SPI_PINS:
            return {}
        data, clock = SPI_PINS[self.bus]
        return {"the LED strip's SPI data": data, "the LED strip's SPI clock": clock}


def parse_strip(spec: str | None) -> StripSpec | None:
    """The strip described by `spec`, checked and not opened; None for no strip.

    `spec` is None or "none" for no strip, or `kind:length[:bus.device]` with kind
    "mock", "ws2812" or "apa102" and the number of LEDs: "ws2812:60",
    "apa102:144:1.0" (SPI1, CE0; the default is 0.0, SPI0 CE0). A mock strip takes no
    bus. Raises `PinSettingError` naming the spec if it is not of that form.
    """
    if spec is None or spec.strip().lower() == "none":
        return None
    text = spec.strip().lower()
    match = _SPEC.fullmatch(text)
    if match is None:
        raise PinSettingError(
            f"LED strip {spec!r}: expected none, mock:LENGTH, ws2812:LENGTH or "
            "apa102:LENGTH, optionally followed by :BUS.DEVICE (ws2812:60:0.0)"
        )
    for number in (match["length"], match["bus"], match["device"]):
        fault = None if number is None else too_long(number)
        if fault is not None:
            raise PinSettingError(f"LED strip (--strip): {fault}")
    kind, length = match["kind"], int(match["length"])
    if length < 1:
        raise PinSettingError(f"LED strip {spec!r}: a strip needs at least 1 LED")
    if kind == "mock":
        if match["bus"] is not None:
            raise PinSettingError(f"LED strip {spec!r}: a mock strip has no SPI bus")
        return StripSpec(kind, length, None, 0)
    if kind not in {k.value for k in StripKind}:
        raise PinSettingError(
            f"LED strip {spec!r}: unknown kind {kind!r}; use mock, ws2812 or apa102"
        )
    bus = 0 if match["bus"] is None else int(match["bus"])
    device = 0 if match["device"] is None else int(match["device"])
    return StripSpec(kind, length, bus, device)


def make_strip(spec: str | None) -> StripDriver | None:
    """The strip described by `spec` (see `parse_strip`), opened; None for no strip.

    Raises `PinSettingError` naming the spec if it is not of that form, and
    `HardwareError` if the strip cannot be opened.
    """
    strip = parse_strip(spec)
    return None if strip is None else open_strip(strip)


def open_strip(strip: StripSpec) -> StripDriver:
    """The strip `strip` describes, opened; `HardwareError` if it cannot be."""
    if strip.bus is None:
        return MockStrip(strip.length)
    return SpiStrip(StripKind(strip.kind), strip.length, strip.bus, strip.device)


class TrackStrip(Closing):
    """The scoring track on a strip: `show` the rabbits every frame, and the strip is
    written only when its picture changes.

    `length` defaults to the driver's; if given it must match. Raises
    `PinSettingError` for a strip with fewer LEDs than track spaces.
    """

    def __init__(
        self,
        driver: StripDriver,
        length: int | None = None,
        *,
        brightness: float = DEFAULT_BRIGHTNESS,
        spaces: int = SPACES,
    ) -> None:
        if length is not None and length != driver.length:
            raise PinSettingError(
                f"the track is set for {length} LEDs but the strip has {driver.length}"
            )
        check_track(driver.length, spaces, brightness)
        self.driver = driver
        """The strip drawn on; closed with the track."""
        self.brightness = brightness
        """How bright the track is drawn (0 to 1)."""
        self.spaces = spaces
        """Spaces on the track (31: 0 to 30)."""
        self._shown: tuple[RGB, ...] | None = None

    def show(self, positions: Sequence[RabbitSpot], t: float) -> bool:
        """Draw the rabbits at `positions` as at time `t` (seconds, any origin).

        Returns whether the strip was written (False when the picture is unchanged).
        """
        pixels = track_pixels(
            positions, self.driver.length, spaces=self.spaces, brightness=self.brightness, t=t
        )
        if pixels == self._shown:
            return False
        self.driver.show(pixels)
        self._shown = pixels
        return True

    def close(self) -> None:
        """Turn the strip off and close it; safe to call more than once."""
        self.driver.close()
