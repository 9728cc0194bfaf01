"""The button check: do the three buttons open, rest released, and answer a press?

The buttons are opened exactly as `companion play` opens them (pulled up, so a press
pulls the pin to ground). A button that reads pressed while nobody touches it is a
wire shorting the pin to ground or a stuck switch: that button can never be pressed.
With `--press` the person presses each in turn, and the doctor listens for the very
press the game would act on (Undo only once held, as in play).
"""

import math
import queue
import time
from dataclasses import dataclass

from gpiozero import Device, Factory

from companion.actions import Action, Press
from companion.controls.buttons import ButtonPins, Buttons
from companion.controls.pins import pin_name, quiet_gpio
from companion.doctor.findings import BUTTONS, Finding, Issue, Status, combine
from companion.doctor.gpio import no_gpio_fix, pin_in_use_fix
from companion.doctor.settings import Probes, Settings
from companion.errors import HardwareUnavailableError, PinSettingError
from companion.wording import count, listing

PRESSED = 0
"""The level a pulled-up button's pin reads while pressed (joined to ground)."""


@dataclass(frozen=True)
class ButtonTest:
    """One button: where it is wired, what to ask of the person, what press answers."""

    name: str
    """The button's label on the table: "Confirm"."""
    pin: int
    """Its BCM GPIO number."""
    ask: str
    """What the person is asked to do with it."""
    answers: frozenset[Action]
    """The presses that show it works."""


def button_tests(pins: ButtonPins) -> tuple[ButtonTest, ...]:
    """The three buttons in the order they are tried."""
    hold = math.ceil(pins.undo_hold_seconds + 0.5)
    return (
        ButtonTest("Confirm", pins.confirm, "press Confirm", frozenset({Action.CONFIRM})),
        ButtonTest(
            "Undo",
            pins.undo,
            f"hold Undo down for {count(hold, 'second')}",
            frozenset({Action.UNDO}),
        ),
        ButtonTest("Next", pins.next, "press Next", frozenset({Action.NEXT, Action.FIX})),
    )


def buttons_check(settings: Settings, probes: Probes) -> Finding:
    """Open the buttons, read how each rests, and with `--press` wait for each press."""
    pins = settings.buttons
    if pins is None:
        return Finding(Status.SKIP, BUTTONS, "not checked (--no-buttons)")
    presses: queue.Queue[Press] = queue.Queue()
    try:
        with quiet_gpio():
            buttons = Buttons(pins, presses.put, probes.pin_factory)
    except HardwareUnavailableError as err:
        return Finding(Status.FAIL, BUTTONS, str(err), no_gpio_fix("--no-buttons"))
    except PinSettingError as err:
        return Finding(Status.FAIL, BUTTONS, str(err), pin_in_use_fix("--buttons"))
    with buttons:
        factory = probes.pin_factory if probes.pin_factory is not None else Device.pin_factory
        tests = button_tests(pins)
        stuck = [t for t in tests if _reads_pressed(factory, t.pin)]
        wired = ", ".join(f"{t.name} on {pin_name(t.pin)}" for t in tests)
        issues = [
            Issue(
                Status.FAIL,
                f"{t.name} reads pressed with nobody touching it",
                f"a wire shorts {pin_name(t.pin)} to ground or the {t.name} button is stuck: "
                "check its wiring",
            )
            for t in stuck
        ]
        if not settings.press:
            rest = "the others read released" if stuck else "all read released"
            return combine(BUTTONS, f"{wired}: {rest} (--press tests each press)", issues)
        tried = [t for t in tests if t not in stuck]
        silent = [t for t in tried if not _answers(t, presses, probes)]
        answered = [t.name for t in tried if t not in silent]
        heard = f"{listing(answered)} answered when pressed" if answered else "none answered"
        if silent:
            issues.append(
                Issue(
                    Status.FAIL,
                    f"{listing([t.name for t in silent])} did not answer within "
                    f"{probes.press_seconds:g} s",
                    "check the two wires of each button that did not answer: "
                    + listing([f"{t.name} to {pin_name(t.pin)}" for t in silent])
                    + ", the other leg to a ground pin; a press must join them",
                )
            )
        return combine(BUTTONS, f"{wired}: {heard}", issues)


def _reads_pressed(factory: Factory, pin: int) -> bool:
    """Whether the pin reads as a pressed button does (gpiozero hands out the same pin
    object the button holds, so this only reads it)."""
    return bool(factory.pin(pin).state == PRESSED)


def _answers(test: ButtonTest, presses: "queue.Queue[Press]", probes: Probes) -> bool:
    """Ask for the press and wait for it; presses of other buttons are not counted."""
    while not presses.empty():
        presses.get_nowait()
    probes.say(f"{test.ask} now (within {probes.press_seconds:g} s)")
    deadline = time.monotonic() + probes.press_seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            press = presses.get(timeout=left)
        except queue.Empty:
            return False
        if press.action in test.answers:
            return True
    return False
