"""The status light, lit through gpiozero's mock PWM pins."""

import threading
from typing import Any

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.controls.light import LOOKS, LightPins, Status, StatusLight
from companion.errors import HardwareError, PinSettingError

WAIT = 60.0
"""Longest wait for a blink to be seen (it blinks every hundredth of a second here): a
bound on a failure, generous for a loaded machine."""
BLINK = 0.01
"""A blink fast enough to watch in a test."""


class WatchedPin(MockPWMPin):  # type: ignore[misc]
    """gpiozero's mock PWM pin, telling a waiting test each time its state changes (the
    blink runs on gpiozero's own thread)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.changed = threading.Condition()
        super().__init__(*args, **kwargs)

    def _change_state(self, value: float) -> bool:
        with self.changed:
            changed: bool = super()._change_state(value)
            self.changed.notify_all()
        return changed


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory(pin_class=WatchedPin)


DEFAULT_PINS = LightPins()


def levels(factory: MockFactory, pins: LightPins = DEFAULT_PINS) -> tuple[float, float, float]:
    return (
        float(factory.pin(pins.red).state),
        float(factory.pin(pins.green).state),
        float(factory.pin(pins.blue).state),
    )


def saw(states: list[float], wanted: list[float]) -> bool:
    return any(states[i : i + len(wanted)] == wanted for i in range(len(states)))


def wait_for_states(factory: MockFactory, pin: int, wanted: list[float]) -> list[float]:
    """The pin's recorded states once `wanted` appears in them (or once `WAIT` is up)."""
    watched = factory.pin(pin)

    def states() -> list[float]:
        return [float(s.state) for s in watched.states]

    with watched.changed:
        watched.changed.wait_for(lambda: saw(states(), wanted), WAIT)
        return states()


def test_light_starts_dark_and_off(factory: MockFactory) -> None:
    with StatusLight(LightPins(), factory) as light:
        assert light.status is Status.OFF
        assert levels(factory) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (Status.WAITING, (0.0, 0.0, 0.2)),
        (Status.READY, (0.0, 1.0, 0.0)),
        (Status.OFF, (0.0, 0.0, 0.0)),
    ],
)
def test_steady_statuses_set_their_colour(
    factory: MockFactory, status: Status, expected: tuple[float, float, float]
) -> None:
    with StatusLight(LightPins(), factory) as light:
        light.show(Status.PROBLEM)
        light.show(status)
        assert light.status is status
        assert levels(factory) == expected


def test_problem_blinks_red_and_dark(factory: MockFactory) -> None:
    with StatusLight(LightPins(), factory, blink_seconds=BLINK) as light:
        light.show(Status.PROBLEM)
        states = wait_for_states(factory, 5, [1.0, 0.0, 1.0, 0.0])
        assert saw(states, [1.0, 0.0, 1.0, 0.0])
        assert factory.pin(6).state == 0
        assert factory.pin(13).state == 0


def test_problem_is_the_only_blinking_status() -> None:
    assert [s for s, look in LOOKS.items() if look.blinking] == [Status.PROBLEM]
    assert set(LOOKS) == set(Status)


def test_showing_the_same_status_again_changes_nothing(factory: MockFactory) -> None:
    with StatusLight(LightPins(), factory) as light:
        light.show(Status.READY)
        factory.pin(6).clear_states()
        light.show(Status.READY)
        assert [s.state for s in factory.pin(6).states] == [1.0]


def test_common_anode_light_is_driven_inverted(factory: MockFactory) -> None:
    with StatusLight(LightPins(common_cathode=False), factory) as light:
        light.show(Status.READY)
        assert levels(factory) == (1.0, 0.0, 1.0)


def test_close_turns_the_light_off_and_is_safe_twice(factory: MockFactory) -> None:
    light = StatusLight(LightPins(), factory)
    light.show(Status.READY)
    light.close()
    light.close()
    assert light.closed
    assert light.status is Status.OFF
    assert [s.state for s in factory.pin(6).states][-1] == 0.0


def test_closing_frees_the_pins(factory: MockFactory) -> None:
    StatusLight(LightPins(), factory).close()
    with StatusLight(LightPins(), factory) as again:
        again.show(Status.READY)
        assert levels(factory) == (0.0, 1.0, 0.0)
    red = LED(5, pin_factory=factory)
    try:
        red.on()
        assert factory.pin(5).state == 1.0
    finally:
        red.close()


def test_show_after_close_is_a_hardware_error(factory: MockFactory) -> None:
    light = StatusLight(LightPins(), factory)
    light.close()
    with pytest.raises(HardwareError, match="closed"):
        light.show(Status.READY)


def test_default_pins_are_bcm_5_6_13() -> None:
    pins = LightPins()
    assert (pins.red, pins.green, pins.blue) == (5, 6, 13)


def test_same_pin_twice_is_refused_naming_both_legs() -> None:
    with pytest.raises(PinSettingError, match="red leg and the light's blue leg are both on GPIO6"):
        LightPins(red=6, green=7, blue=6)


def test_pin_taken_by_another_device_is_refused(factory: MockFactory) -> None:
    other = LED(13, pin_factory=factory)
    try:
        with pytest.raises(PinSettingError, match="status light on GPIO5/6/13"):
            StatusLight(LightPins(), factory)
    finally:
        other.close()


def test_blink_time_must_be_positive(factory: MockFactory) -> None:
    with pytest.raises(PinSettingError, match="blink time"):
        StatusLight(LightPins(), factory, blink_seconds=0)
