"""The button, status light and LED strip checks, on gpiozero's mock pins and a mock strip."""

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from gpiozero import BadPinFactory, Button
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from companion.controls.buttons import ButtonPins
from companion.controls.light import LightPins
from companion.controls.strip import MockStrip, SpiStrip
from companion.controls.strip_spi import StripKind
from companion.doctor import lights
from companion.doctor.buttons import buttons_check
from companion.doctor.findings import Status
from companion.doctor.lights import SWEEP_COLOUR, light_check, spi_fix, strip_check
from companion.doctor.settings import Probes, Settings
from companion.errors import HardwareUnavailableError
from tests.doctor.tables import settings

QUICK_HOLDS = ButtonPins(undo_hold_seconds=0.1, next_hold_seconds=30.0)
"""Undo held long enough in a tenth of a second; Next never held in a test."""


class StuckPin(MockPin):
    """A button pin that a short to ground holds low whatever its pull-up says."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self.drive_low()


class NoGpioFactory(MockFactory):
    """A machine on which no GPIO library loads."""

    def pin(self, name: object, pin_class: object = None, **kwargs: object) -> MockPin:
        raise BadPinFactory("Unable to load any default pin factory!")


def probes(factory: MockFactory | None = None, **changes: object) -> Probes:
    base: dict[str, object] = {
        "pin_factory": factory,
        "say": lambda _: None,
        "pause": lambda _: None,
    }
    return Probes(**{**base, **changes})  # type: ignore[arg-type]


def with_buttons(tmp_path: Path, pins: ButtonPins = QUICK_HOLDS, press: bool = False) -> Settings:
    return settings(tmp_path, buttons=pins, press=press)


def test_buttons_at_rest_read_released(tmp_path: Path) -> None:
    finding = buttons_check(with_buttons(tmp_path), probes(MockFactory()))
    assert finding.status is Status.OK
    assert finding.detail == (
        "Confirm on GPIO17 (pin 11), Undo on GPIO27 (pin 13), Next on GPIO22 (pin 15): "
        "all read released (--press tests each press)"
    )


def test_a_button_shorted_to_ground_reads_pressed_and_fails(tmp_path: Path) -> None:
    factory = MockFactory()
    factory.pin(17, pin_class=StuckPin)
    finding = buttons_check(with_buttons(tmp_path), probes(factory))
    assert finding.status is Status.FAIL
    assert finding.detail.endswith(
        ": the others read released (--press tests each press); "
        "Confirm reads pressed with nobody touching it"
    )
    assert finding.fix == (
        "a wire shorts GPIO17 (pin 11) to ground or the Confirm button is stuck: check its wiring"
    )


def person_pressing(factory: MockFactory, silent: str = "") -> Callable[[str], None]:
    """Someone at the table doing what each prompt asks, except for the `silent` button."""

    def act(prompt: str) -> None:
        factory.pin(27).drive_high()
        if "Confirm" in prompt and silent != "Confirm":
            factory.pin(17).drive_low()
            factory.pin(17).drive_high()
        elif "Undo" in prompt and silent != "Undo":
            factory.pin(27).drive_low()
        elif "Next" in prompt and silent != "Next":
            factory.pin(22).drive_low()
            factory.pin(22).drive_high()

    return act


def test_with_press_each_button_answers_when_the_person_presses_it(tmp_path: Path) -> None:
    factory = MockFactory()
    said: list[str] = []

    def say(prompt: str) -> None:
        said.append(prompt)
        person_pressing(factory)(prompt)

    finding = buttons_check(with_buttons(tmp_path, press=True), probes(factory, say=say))
    assert finding.status is Status.OK
    assert finding.detail.endswith(": Confirm, Undo and Next answered when pressed")
    assert said == [
        "press Confirm now (within 10 s)",
        "hold Undo down for one second now (within 10 s)",
        "press Next now (within 10 s)",
    ]


def test_with_press_a_button_that_does_not_answer_fails_naming_its_wire(tmp_path: Path) -> None:
    factory = MockFactory()
    check = probes(factory, say=person_pressing(factory, silent="Undo"), press_seconds=0.3)
    finding = buttons_check(with_buttons(tmp_path, press=True), check)
    assert finding.status is Status.FAIL
    assert finding.detail.endswith(
        ": Confirm and Next answered when pressed; Undo did not answer within 0.3 s"
    )
    assert "Undo to GPIO27 (pin 13), the other leg to a ground pin" in finding.fix


def test_the_undo_prompt_asks_for_a_hold_longer_than_the_games(tmp_path: Path) -> None:
    said: list[str] = []
    factory = MockFactory()
    check = probes(factory, say=said.append, press_seconds=0.01)
    buttons_check(with_buttons(tmp_path, ButtonPins(), press=True), check)
    assert said[1] == "hold Undo down for two seconds now (within 0.01 s)"


def test_a_machine_without_gpio_fails_saying_so(tmp_path: Path) -> None:
    finding = buttons_check(with_buttons(tmp_path), probes(NoGpioFactory()))
    assert finding.status is Status.FAIL
    assert "no GPIO library could be loaded" in finding.detail
    assert finding.fix.startswith("this machine has no GPIO: run the doctor on the Pi")
    assert "--no-buttons" in finding.fix


def test_on_a_pi_without_the_gpio_library_the_fix_installs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    monkeypatch.setattr("companion.doctor.host.DEVICE_MODEL", model)
    finding = buttons_check(with_buttons(tmp_path), probes(NoGpioFactory()))
    assert finding.fix.startswith("install the GPIO library: `sudo apt install python3-lgpio`")


def test_a_pin_already_in_use_fails_saying_to_stop_the_game_first(tmp_path: Path) -> None:
    factory = MockFactory()
    with Button(27, pin_factory=factory):
        finding = buttons_check(with_buttons(tmp_path), probes(factory))
    assert finding.status is Status.FAIL
    assert "GPIO27 is already in use" in finding.detail
    assert finding.fix.startswith("stop `companion play` (or its service) first")


def test_buttons_left_out_are_skipped(tmp_path: Path) -> None:
    assert buttons_check(settings(tmp_path), probes(MockFactory())).status is Status.SKIP


def test_the_status_light_shows_red_green_and_blue_while_the_person_watches(
    tmp_path: Path,
) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    said: list[str] = []
    check = probes(factory, say=said.append, pause=lambda _: time.sleep(0.05))
    finding = light_check(settings(tmp_path, light=LightPins()), check)
    assert finding.status is Status.OK
    assert finding.detail.startswith(
        "red on GPIO5 (pin 29), green on GPIO6 (pin 31), blue on GPIO13 (pin 33): "
        "blinked red, showed green, then dim blue"
    )
    assert said == ["look at the status light: it blinks red, then shows green, then dim blue"]
    for pin, level in ((5, 1.0), (6, 1.0), (13, 0.2)):
        states = [float(s.state) for s in factory.pin(pin).states]
        assert level in states
        assert states[-1] == 0.0


def test_a_light_on_pins_in_use_fails(tmp_path: Path) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    with Button(6, pin_factory=factory):
        finding = light_check(settings(tmp_path, light=LightPins()), probes(factory))
    assert finding.status is Status.FAIL
    assert "--light" in finding.fix


def test_a_light_left_out_is_skipped(tmp_path: Path) -> None:
    assert light_check(settings(tmp_path), probes()).status is Status.SKIP


def test_no_strip_configured_is_fine(tmp_path: Path) -> None:
    finding = strip_check(settings(tmp_path), probes())
    assert finding.status is Status.OK
    assert finding.detail == "no strip configured (--strip ws2812:LEDS checks one)"


def test_the_strip_lights_each_led_in_turn_then_goes_dark(tmp_path: Path) -> None:
    strip = MockStrip(5)
    said: list[str] = []
    check = probes(open_strip=lambda _: strip, say=said.append)
    finding = strip_check(settings(tmp_path, strip="ws2812:5"), check)
    assert finding.status is Status.OK
    assert finding.detail.startswith("ws2812:5: 5 LEDs lit one after another, then dark")
    dark = (0, 0, 0)
    sweep = [tuple(SWEEP_COLOUR if i == lit else dark for i in range(5)) for lit in range(5)]
    assert strip.frames == [*sweep, (dark,) * 5, (dark,) * 5]
    assert strip.closed
    assert said == [
        "look at the LED strip: each LED lights in turn from the end wired to the Pi, "
        "then all go dark"
    ]


def test_the_mock_strip_named_on_the_command_line_opens(tmp_path: Path) -> None:
    assert strip_check(settings(tmp_path, strip="mock:3"), probes()).status is Status.OK


def test_a_strip_setting_that_makes_no_sense_fails_saying_how_to_write_it(tmp_path: Path) -> None:
    finding = strip_check(settings(tmp_path, strip="rainbow"), probes())
    assert finding.status is Status.FAIL
    assert "LED strip 'rainbow'" in finding.detail
    assert finding.fix.startswith("correct --strip as the message says: ws2812:LEDS")


class BrokenSpi:
    """An SPI device whose writes fail, as a strip on a bus that went away."""

    max_speed_hz = 0
    mode = 0

    def writebytes2(self, data: bytes) -> None:
        raise OSError(5, "Input/output error")

    def close(self) -> None:
        pass


def test_a_strip_that_cannot_be_written_fails_with_the_spi_fix(tmp_path: Path) -> None:
    check = probes(open_strip=lambda _: SpiStrip(StripKind.WS2812, 4, spi=BrokenSpi()))
    finding = strip_check(settings(tmp_path, strip="ws2812:4"), check)
    assert finding.status is Status.FAIL
    assert "the LED strip could not be written" in finding.detail
    assert finding.fix == spi_fix()


def test_a_strip_that_cannot_be_opened_fails_with_the_spi_fix(tmp_path: Path) -> None:
    def unopenable(_: str | None) -> None:
        raise HardwareUnavailableError("no /dev/spidev0.0: turn SPI on")

    finding = strip_check(settings(tmp_path, strip="ws2812:60"), probes(open_strip=unopenable))
    assert finding.status is Status.FAIL
    assert finding.detail == "no /dev/spidev0.0: turn SPI on"


def test_the_spi_fix_names_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lights, "library_missing", lambda _: True)
    assert spi_fix().startswith("install the spidev library: `sudo apt install python3-spidev`")

    monkeypatch.setattr(lights, "library_missing", lambda _: False)
    monkeypatch.setattr(lights, "DEV", tmp_path)
    assert spi_fix() == "turn SPI on: `sudo raspi-config nonint do_spi 0`, then reboot"

    (tmp_path / "spidev0.0").touch()
    monkeypatch.setattr(lights.os, "access", lambda *_: False)
    assert spi_fix().startswith("let this user drive SPI: `sudo adduser ")
    assert spi_fix().endswith(" spi`, then log in again")

    monkeypatch.setattr(lights.os, "access", lambda *_: True)
    assert spi_fix().startswith("check the strip's power supply and its data wire on GPIO10")
