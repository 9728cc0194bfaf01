"""The light checks: the status light and the LED strip open and show a test pattern.

Software cannot see whether an LED lit, so both checks open the part as `companion
play` does, drive it through a pattern a person can judge at a glance, tell them what
they should see, and close it dark. A failure to open names the cause that can be
found from here: a missing library, SPI switched off, a user not allowed to use it.
"""

import os
from pathlib import Path

from companion.colours import RGB
from companion.controls.light import Status as Look
from companion.controls.light import StatusLight
from companion.controls.pins import pin_name, quiet_gpio
from companion.controls.strip import StripDriver
from companion.doctor.findings import LIGHT, STRIP, Finding, Status
from companion.doctor.gpio import no_gpio_fix, pin_in_use_fix
from companion.doctor.host import library_missing, user_name
from companion.doctor.settings import Probes, Settings
from companion.errors import HardwareError, HardwareUnavailableError, PinSettingError
from companion.phrases import plural

LOOK_SECONDS = 1.5
"""How long the status light shows each colour."""
SWEEP_SECONDS = 3.0
"""How long the strip's sweep takes at most, one LED after another."""
STEP_SECONDS = 0.05
"""How long each LED of a short strip stays lit in the sweep."""
SWEEP_COLOUR: RGB = (90, 90, 90)
"""The sweep's colour: white at about a third, which every channel must show and a
small power supply can give."""
DARK: RGB = (0, 0, 0)
DEV = Path("/dev")
"""Where the kernel puts the SPI devices (`spidev0.0`) once SPI is switched on."""
SPI_LIBRARY = "spidev"


def light_check(settings: Settings, probes: Probes) -> Finding:
    """Open the status light and show its three looks, telling the person to watch."""
    pins = settings.light
    if pins is None:
        return Finding(Status.SKIP, LIGHT, "not checked (--no-light)")
    try:
        with quiet_gpio():
            light = StatusLight(pins, probes.pin_factory)
    except HardwareUnavailableError as err:
        return Finding(Status.FAIL, LIGHT, str(err), no_gpio_fix("--no-light"))
    except PinSettingError as err:
        return Finding(Status.FAIL, LIGHT, str(err), pin_in_use_fix("--light"))
    with light:
        probes.say("look at the status light: it blinks red, then shows green, then dim blue")
        for look in (Look.PROBLEM, Look.READY, Look.WAITING):
            light.show(look)
            probes.pause(LOOK_SECONDS)
    return Finding(
        Status.OK,
        LIGHT,
        f"red on {pin_name(pins.red)}, green on {pin_name(pins.green)}, "
        f"blue on {pin_name(pins.blue)}: "
        "blinked red, showed green, then dim blue; a colour that did not light has a loose "
        "leg or resistor",
    )


def strip_check(settings: Settings, probes: Probes) -> Finding:
    """Open the LED strip, light each LED in turn, and close it dark."""
    if settings.strip is None:
        return Finding(Status.OK, STRIP, "no strip configured (--strip ws2812:LEDS checks one)")
    try:
        driver = probes.open_strip(settings.strip)
    except PinSettingError as err:
        fix = "correct --strip as the message says: ws2812:LEDS or apa102:LEDS[:BUS.DEVICE]"
        return Finding(Status.FAIL, STRIP, str(err), fix)
    except HardwareUnavailableError as err:
        return Finding(Status.FAIL, STRIP, str(err), spi_fix())
    if driver is None:
        return Finding(Status.OK, STRIP, "no strip configured (--strip ws2812:LEDS checks one)")
    try:
        with driver:
            probes.say(
                "look at the LED strip: each LED lights in turn from the end wired to the Pi, "
                "then all go dark"
            )
            _sweep(driver, probes)
    except HardwareError as err:
        return Finding(Status.FAIL, STRIP, str(err), spi_fix())
    lit = plural("{n} LED lit", "{n} LEDs lit", driver.length)
    return Finding(
        Status.OK,
        STRIP,
        f"{settings.strip}: {lit} one after another, then dark; if the "
        "light stopped part-way, the LED after the last one lit (or the joint before it) "
        "is at fault",
    )


def _sweep(driver: StripDriver, probes: Probes) -> None:
    """Each LED lit alone, one after another, then all dark."""
    length = driver.length
    step = min(STEP_SECONDS, SWEEP_SECONDS / length)
    for lit in range(length):
        driver.show([SWEEP_COLOUR if i == lit else DARK for i in range(length)])
        probes.pause(step)
    driver.show([DARK] * length)


def spi_fix() -> str:
    """What keeps the strip from being driven, as far as this machine shows it."""
    if library_missing(SPI_LIBRARY):
        return (
            "install the spidev library: `sudo apt install python3-spidev` (run "
            "hardware/install again), or `pip install 'dixit-companion[pi]'` in the "
            "virtual environment"
        )
    devices = sorted(DEV.glob("spidev*"))
    if not devices:
        return "turn SPI on: `sudo raspi-config nonint do_spi 0`, then reboot"
    if not all(os.access(device, os.R_OK | os.W_OK) for device in devices):
        return f"let this user drive SPI: `sudo adduser {user_name()} spi`, then log in again"
    return (
        "check the strip's power supply and its data wire on GPIO10 (pin 19; an APA102 "
        "strip also needs its clock on GPIO11, pin 23)"
    )
