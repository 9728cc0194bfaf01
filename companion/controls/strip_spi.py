"""What goes down the SPI wire to an LED strip: pure functions from pixels to bytes.

Both kinds of strip are driven through the Pi's SPI0 (MOSI on GPIO 10, physical pin 19;
clock on GPIO 11, physical pin 23) with the kernel's spidev driver, which works the
same on a Pi 4 and a Pi 5 and needs neither root nor DMA tricks:

- WS2812 (NeoPixel) strips have no clock line; their one data line is fed from MOSI,
  with each WS2812 bit written as 3 SPI bits at `WS2812_SPI_HZ` (2.4 MHz, 417 ns a
  bit): a 0 as 100 (417 ns high), a 1 as 110 (833 ns high), both inside the
  WS2812B's timing windows. The frame must go out in one transfer: a strip of up to
  433 LEDs fits spidev's default 4096-byte buffer (raise `spidev.bufsiz` on the
  kernel command line for more).
  On a Pi 4 the SPI clock is divided from the VideoCore core clock, which changes
  with load unless it is fixed: set `core_freq=500` and `core_freq_min=500` in
  config.txt, or the strip flickers white. On a Pi 5 the SPI controller sits in the
  RP1 chip on its own fixed clock, so there is nothing to set (2.4 MHz comes out as
  200 MHz / 84 = 2.38 MHz, well inside the tolerance).
- APA102 (DotStar) and SK9822 strips have a clock line (SCLK) as well as data (MOSI),
  so timing does not matter; `APA102_SPI_HZ` is a speed that long wires still carry.

The functions here only build bytes; `companion.controls.strip.SpiStrip` writes them.
"""

import enum
import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from companion.colours import RGB
from companion.errors import PinSettingError, SettingError


class StripKind(enum.Enum):
    """The LED chip on the strip, which decides the wire encoding."""

    WS2812 = "ws2812"
    """WS2812 / WS2812B / SK6812 RGB ("NeoPixel"): one data line, GRB order."""
    APA102 = "apa102"
    """APA102 / SK9822 ("DotStar"): data and clock lines, BGR order."""


WS2812_SPI_HZ = 2_400_000
"""SPI clock for WS2812 strips: 3 SPI bits make one 1.25 us WS2812 bit."""
APA102_SPI_HZ = 4_000_000
"""SPI clock for APA102 strips (they accept far more; this is kind to long wires)."""
SPI_HZ: Mapping[StripKind, int] = MappingProxyType(
    {StripKind.WS2812: WS2812_SPI_HZ, StripKind.APA102: APA102_SPI_HZ}
)
"""The SPI clock each kind of strip is driven at (SPI mode 0 for both)."""

WS2812_ZERO_BITS = 0b100
"""A WS2812 0 bit as 3 SPI bits: high for one, low for two."""
WS2812_ONE_BITS = 0b110
"""A WS2812 1 bit as 3 SPI bits: high for two, low for one."""
WS2812_RESET_BYTES = 96
"""Zero bytes before and after a WS2812 frame: 96 x 8 bits at 2.4 MHz = 320 us low,
longer than the 280 us newer WS2812Bs need to latch. The leading ones also pull the
line low in case MOSI idled high, which would otherwise corrupt the first LED."""

APA102_MAX_LEVEL = 31
"""The largest value of an APA102 LED's 5-bit global brightness field."""


def _ws2812_byte(value: int) -> bytes:
    """One colour byte as 24 SPI bits (3 bytes), most significant bit first."""
    bits = 0
    for shift in range(7, -1, -1):
        bits = (bits << 3) | (WS2812_ONE_BITS if value >> shift & 1 else WS2812_ZERO_BITS)
    return bits.to_bytes(3, "big")


_WS2812_TABLE: tuple[bytes, ...] = tuple(_ws2812_byte(value) for value in range(256))


def _check_pixels(pixels: Sequence[RGB]) -> None:
    for index, rgb in enumerate(pixels):
        if len(rgb) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in rgb):
            raise SettingError(f"pixel {index}: {rgb!r} is not an RGB colour of 0-255 channels")


def ws2812_bytes(pixels: Sequence[RGB]) -> bytes:
    """The SPI bytes that show `pixels` (first = nearest the data input) on a WS2812 strip.

    `WS2812_RESET_BYTES` zeros, then for each LED its green, red and blue bytes, each
    as 3 SPI bytes (see `WS2812_ZERO_BITS`, `WS2812_ONE_BITS`), then the zeros again.
    Send at `WS2812_SPI_HZ` in one transfer.
    """
    _check_pixels(pixels)
    reset = bytes(WS2812_RESET_BYTES)
    body = b"".join(_WS2812_TABLE[g] + _WS2812_TABLE[r] + _WS2812_TABLE[b] for r, g, b in pixels)
    return reset + body + reset


def apa102_end_bytes(count: int) -> int:
    """Zero bytes after `count` APA102 LED frames: 4, then one per 16 LEDs.

    Each LED passes the data on half a clock late, so the last LED needs count / 2
    more clock edges after its frame: ceil(count / 16) bytes. Zeros rather than the
    datasheet's ones: on APA102s they are only clock, but an SK9822 latches its new
    colour on a run of 32 zeros, and ones would light an LED past the end of a strip
    longer than `count` white. The 4 extra bytes are that SK9822 latch.
    """
    return 4 + math.ceil(count / 16)


def apa102_bytes(pixels: Sequence[RGB], level: int = APA102_MAX_LEVEL) -> bytes:
    """The SPI bytes that show `pixels` (first = nearest the data input) on an APA102 strip.

    A start frame of 4 zero bytes; per LED, 0xE0 | `level` (the 5-bit global
    brightness, 0 to 31), then blue, green, red; then `apa102_end_bytes` zeros.
    """
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= APA102_MAX_LEVEL:
        raise PinSettingError(f"APA102 brightness level must be 0 to 31, not {level!r}")
    _check_pixels(pixels)
    header = 0xE0 | level
    body = b"".join(bytes((header, b, g, r)) for r, g, b in pixels)
    return bytes(4) + body + bytes(apa102_end_bytes(len(pixels)))


def frame_bytes(kind: StripKind, pixels: Sequence[RGB]) -> bytes:
    """The SPI bytes that show `pixels` on a strip of `kind`."""
    if kind is StripKind.WS2812:
        return ws2812_bytes(pixels)
    return apa102_bytes(pixels)
