"""The table buttons, pressed through gpiozero's mock pins."""

import queue
from collections.abc import Iterator

import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory

from companion.actions import Action, Press
from companion.controls.buttons import ButtonPins, Buttons
from companion.errors import HardwareError, PinSettingError

WAIT = 60.0
"""Longest wait for a post that must come (a hold of a few hundredths of a second): a
bound on a failure, generous for a loaded machine."""
QUIET = 0.3
"""How long to listen for a post that must not come (several short hold times)."""
SHORT_HOLD = 0.05
"""A hold time short enough to reach in a test."""
TAP_HOLD = 1.0
"""A hold time a tap (a press let go at once) never reaches, however busy the machine,
yet short enough to wait out in a test."""
LONG_HOLD = 30.0
"""A hold time no test reaches, so that a press and release is always a short press.

gpiozero's hold thread only stops between holds, so every test lets go of its buttons
before closing them (closing a held button waits out its hold time)."""


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def posted() -> "queue.Queue[Press]":
    return queue.Queue()


def open_buttons(
    factory: MockFactory, posted: "queue.Queue[Press]", hold: float, abandon: float = LONG_HOLD
) -> Buttons:
    """The buttons with Undo and Next held for `hold`, and Confirm for `abandon`."""
    pins = ButtonPins(undo_hold_seconds=hold, next_hold_seconds=hold, abandon_hold_seconds=abandon)
    return Buttons(pins, posted.put, pin_factory=factory)


def tap(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def next_post(posted: "queue.Queue[Press]") -> Press:
    return posted.get(timeout=WAIT)


def test_confirm_press_posts_confirm_as_it_is_let_go(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    with open_buttons(factory, posted, LONG_HOLD):
        factory.pin(17).drive_low()
        assert posted.empty()
        factory.pin(17).drive_high()
        assert next_post(posted) == Press(Action.CONFIRM)


def test_short_confirm_press_posts_confirm_only(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    with open_buttons(factory, posted, LONG_HOLD, abandon=TAP_HOLD):
        tap(factory, 17)
        assert next_post(posted) == Press(Action.CONFIRM)
        with pytest.raises(queue.Empty):
            posted.get(timeout=2 * TAP_HOLD)


def test_held_confirm_posts_abandon_once_and_never_confirm(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    with open_buttons(factory, posted, LONG_HOLD, abandon=SHORT_HOLD):
        factory.pin(17).drive_low()
        assert next_post(posted) == Press(Action.ABANDON)
        with pytest.raises(queue.Empty):
            posted.get(timeout=QUIET)
        factory.pin(17).drive_high()
        assert posted.empty()


def test_each_hold_of_confirm_asks_to_abandon_afresh(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    with open_buttons(factory, posted, LONG_HOLD, abandon=SHORT_HOLD):
        for _ in range(2):
            factory.pin(17).drive_low()
            assert next_post(posted) == Press(Action.ABANDON)
            factory.pin(17).drive_high()
        assert posted.empty()


def test_short_undo_press_posts_nothing(factory: MockFactory, posted: "queue.Queue[Press]") -> None:
    with open_buttons(factory, posted, LONG_HOLD):
        tap(factory, 27)
        tap(factory, 17)
        assert next_post(posted) == Press(Action.CONFIRM)
        assert posted.empty()


def test_held_undo_posts_undo_once(factory: MockFactory, posted: "queue.Queue[Press]") -> None:
    with open_buttons(factory, posted, SHORT_HOLD):
        factory.pin(27).drive_low()
        assert next_post(posted) == Press(Action.UNDO)
        with pytest.raises(queue.Empty):
            posted.get(timeout=QUIET)
        factory.pin(27).drive_high()
        tap(factory, 17)
        assert next_post(posted) == Press(Action.CONFIRM)


def test_short_next_press_posts_next_on_release(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    with open_buttons(factory, posted, LONG_HOLD):
        factory.pin(22).drive_low()
        tap(factory, 17)
        assert next_post(posted) == Press(Action.CONFIRM)
        assert posted.empty()
        factory.pin(22).drive_high()
        assert next_post(posted) == Press(Action.NEXT)


def test_held_next_posts_fix_and_not_next(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    with open_buttons(factory, posted, SHORT_HOLD):
        factory.pin(22).drive_low()
        assert next_post(posted) == Press(Action.FIX)
        factory.pin(22).drive_high()
        tap(factory, 17)
        assert next_post(posted) == Press(Action.CONFIRM)
        assert posted.empty()


def test_next_after_a_hold_is_a_fresh_press(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    with open_buttons(factory, posted, SHORT_HOLD):
        factory.pin(22).drive_low()
        assert next_post(posted) == Press(Action.FIX)
        factory.pin(22).drive_high()
        factory.pin(22).drive_low()
        assert next_post(posted) == Press(Action.FIX)
        factory.pin(22).drive_high()


def test_default_pins_are_bcm_17_27_22() -> None:
    pins = ButtonPins()
    assert (pins.confirm, pins.undo, pins.next) == (17, 27, 22)
    assert (pins.undo_hold_seconds, pins.next_hold_seconds) == (1.5, 1.0)
    assert pins.abandon_hold_seconds == 4.0


def test_same_pin_twice_is_refused_naming_both_buttons() -> None:
    with pytest.raises(
        PinSettingError, match="confirm button and the next button are both on GPIO5"
    ):
        ButtonPins(confirm=5, next=5)


@pytest.mark.parametrize("pin", [-1, 28, 40, True, "GPIO17", 17.0])
def test_pin_that_is_not_a_header_gpio_number_is_refused(pin: object) -> None:
    with pytest.raises(PinSettingError, match="undo button"):
        ButtonPins(undo=pin)  # type: ignore[arg-type]


@pytest.mark.parametrize("seconds", [0, -1.0, float("nan"), float("inf")])
def test_hold_time_that_is_not_positive_is_refused(seconds: float) -> None:
    with pytest.raises(PinSettingError, match="next button: hold time"):
        ButtonPins(next_hold_seconds=seconds)


@pytest.mark.parametrize("seconds", [0, -4.0, float("nan"), float("inf")])
def test_abandon_hold_time_that_is_not_positive_is_refused(seconds: float) -> None:
    with pytest.raises(PinSettingError, match="confirm button: hold time"):
        ButtonPins(abandon_hold_seconds=seconds)


def test_close_twice_is_harmless(factory: MockFactory, posted: "queue.Queue[Press]") -> None:
    buttons = open_buttons(factory, posted, LONG_HOLD)
    buttons.close()
    buttons.close()
    assert buttons.closed


def test_closing_frees_the_pins(factory: MockFactory, posted: "queue.Queue[Press]") -> None:
    with open_buttons(factory, posted, LONG_HOLD):
        pass
    with open_buttons(factory, posted, LONG_HOLD) as again:
        assert not again.closed


def test_pin_taken_by_another_device_is_refused_and_nothing_is_left_open(
    factory: MockFactory, posted: "queue.Queue[Press]"
) -> None:
    other = Button(27, pin_factory=factory)
    try:
        with pytest.raises(PinSettingError, match="undo button: GPIO27 is already in use"):
            open_buttons(factory, posted, LONG_HOLD)
    finally:
        other.close()
    Button(17, pin_factory=factory).close()


@pytest.fixture
def default_factory() -> Iterator[None]:
    """Clear gpiozero's default factory so that the next device chooses one, then restore."""
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        yield
    finally:
        if Device.pin_factory is not None and Device.pin_factory is not saved:
            Device.pin_factory.close()
        Device.pin_factory = saved


@pytest.mark.usefixtures("default_factory")
def test_without_a_factory_gpiozero_chooses_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, posted: "queue.Queue[Press]"
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    with Buttons(ButtonPins(), posted.put) as buttons:
        assert not buttons.closed
        assert isinstance(Device.pin_factory, MockFactory)


@pytest.mark.usefixtures("default_factory")
def test_no_usable_gpio_library_is_a_hardware_error(
    monkeypatch: pytest.MonkeyPatch, posted: "queue.Queue[Press]"
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.raises(HardwareError, match="GPIOZERO_PIN_FACTORY=mock"):
        Buttons(ButtonPins(), posted.put)
