"""A stand-in for the spidev library, for tests and for driving the LED strip code on a
machine that is not a Raspberry Pi.

`SpiStrip` opens its device through `import spidev`, which exists only where the pi
extra is installed and /dev/spidev* only where SPI is switched on. `installed()` puts
this stand-in where that import finds it, so `make_strip("ws2812:60")` and
`companion play --strip ...` run anywhere, and `MockSpiDev` remembers what went down
the wire, so a test can compare it with the encoding it expects:

    with installed() as device:
        make_strip("ws2812:3").show(pixels)
        (spi,) = device.made
"""

import contextlib
import sys
import types
from collections.abc import Iterator
from typing import ClassVar, cast

MODULE = "spidev"
"""The module `installed()` stands in for."""


class MockSpiDev:
    """spidev.SpiDev as `SpiStrip` uses it: remembers how it was opened, set and written."""

    refuse: ClassVar[type[OSError] | None] = None
    """An error `open` raises, as spidev does for a missing device (FileNotFoundError)
    or one this user may not use (PermissionError); None opens any bus and device."""
    made: ClassVar[list["MockSpiDev"]] = []
    """Every device made of this class, oldest first (`installed()` gives each install a
    fresh class, so each starts empty)."""

    def __init__(self) -> None:
        self.opened: tuple[int, int] | None = None
        """The bus and device opened; None until `open`."""
        self.max_speed_hz = 0
        self.mode = -1
        self.written: list[bytes] = []
        """Every transfer written, oldest first."""
        self.closed = False
        type(self).made.append(self)

    def open(self, bus: int, device: int) -> None:
        if self.refuse is not None:
            raise self.refuse("refused")
        self.opened = (bus, device)

    def writebytes2(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def close(self) -> None:
        self.closed = True


@contextlib.contextmanager
def installed(device: type[MockSpiDev] = MockSpiDev) -> Iterator[type[MockSpiDev]]:
    """A stand-in spidev module in `sys.modules` for the `with` block.

    Its `SpiDev` is a fresh subclass of `device`, handed to the block: it has its own list
    of devices made, and settings changed on it (`refuse`) end with the block. Whatever
    `sys.modules` held under the name before (the real spidev, or None) comes back
    afterwards.
    """
    fresh = cast(type[MockSpiDev], type(device.__name__, (device,), {"made": []}))
    spidev = types.ModuleType(MODULE, "Stand-in from companion.controls.mock_spidev.")
    spidev.__dict__["SpiDev"] = fresh
    saved = {MODULE: sys.modules[MODULE]} if MODULE in sys.modules else {}
    sys.modules[MODULE] = spidev
    try:
        yield fresh
    finally:
        sys.modules.pop(MODULE, None)
        sys.modules.update(saved)
