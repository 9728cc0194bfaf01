"""gpiozero's mock pins, as `GPIOZERO_PIN_FACTORY=mock` asks for: every part works."""

from collections.abc import Iterator

import pytest
from gpiozero import Device, PinPWMUnsupported

from companion.controls.buttons import ButtonPins, Buttons
from companion.controls.light import LightPins, Status, StatusLight
from companion.controls.pins import reason


@pytest.fixture
def mock_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()


@pytest.mark.timeout(20)
@pytest.mark.usefixtures("mock_environment")
def test_the_status_light_and_buttons_work_on_gpiozeros_mock_pins() -> None:
    with Buttons(ButtonPins(), lambda press: None), StatusLight(LightPins()) as light:
        light.show(Status.READY)
        assert light.status is Status.READY


def test_a_hardware_failure_without_words_is_named_by_its_kind() -> None:
    assert reason(PinPWMUnsupported()) == "PinPWMUnsupported"
    assert reason(OSError("no such pin")) == "no such pin"
