"""What a signal does while a command runs (`companion.cli.stopping`): it stops the
command at once, or, in a gentle block, asks it to stop and stops it once the block is
over; a second signal does not wait; a signal the command was started with ignored
stays ignored, and the handlers are put back afterwards. Signals are raised in this
process, in the main thread, which is where Python runs their handlers."""

import signal
from collections.abc import Iterator

import pytest

from companion.cli import stopping


@pytest.fixture(autouse=True)
def _handlers_kept() -> Iterator[None]:
    before = {signum: signal.getsignal(signum) for signum in stopping.SIGNALS}
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


def test_a_signal_stops_the_command_where_it_is() -> None:
    with stopping.listening(), pytest.raises(stopping.Stopped) as stop:
        signal.raise_signal(signal.SIGTERM)
        pytest.fail("not stopped")
    assert stop.value.signum == signal.SIGTERM


def test_in_a_gentle_block_the_command_is_asked_and_stopped_once_the_block_is_over() -> None:
    asked: list[str] = []
    gently = stopping.gently(lambda: asked.append("stop"))
    with stopping.listening(), pytest.raises(stopping.Stopped) as stop, gently:
        signal.raise_signal(signal.SIGINT)
        asked.append("the block goes on")
    assert asked == ["stop", "the block goes on"]
    assert stop.value.signum == signal.SIGINT


def test_a_second_signal_does_not_wait_for_the_block() -> None:
    with stopping.listening(), pytest.raises(stopping.Stopped) as stop, stopping.gently():
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGTERM)
        pytest.fail("the second signal waited")
    assert stop.value.signum == signal.SIGTERM


def test_a_way_to_stop_given_later_is_asked_at_once_if_a_signal_came_before() -> None:
    asked: list[str] = []
    with stopping.listening(), pytest.raises(stopping.Stopped), stopping.gently():
        signal.raise_signal(signal.SIGTERM)
        stopping.on_stop(lambda: asked.append("next game's loop"))
        assert asked == ["next game's loop"]


def test_a_signal_ignored_at_the_start_stays_ignored_and_handlers_are_put_back() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    terminate = signal.getsignal(signal.SIGTERM)
    with stopping.listening():
        signal.raise_signal(signal.SIGINT)  # as a background job's Ctrl-C
        assert signal.getsignal(signal.SIGTERM) is not terminate
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGTERM) is terminate


@pytest.mark.parametrize(
    ("command", "signum", "status"),
    [
        ("play", signal.SIGTERM, 0),
        ("play", signal.SIGINT, 130),
        ("demo", signal.SIGINT, 0),
        ("demo", signal.SIGTERM, 143),
        ("calibrate", signal.SIGINT, 130),
        ("doctor", signal.SIGTERM, 143),
        (None, signal.SIGINT, 130),
    ],
)
def test_a_stop_is_one_line_and_its_status_says_whether_it_was_the_ordinary_end(
    capsys: pytest.CaptureFixture[str], command: str | None, signum: int, status: int
) -> None:
    assert stopping.stopped(command, stopping.Stopped(signum)) == status
    name = "companion" if command is None else f"companion {command}"
    word = "Ctrl-C" if signum == signal.SIGINT else "SIGTERM"
    assert capsys.readouterr().err == f"{name}: stopped by {word}\n"


def test_python_s_own_keyboard_interrupt_is_ctrl_c(capsys: pytest.CaptureFixture[str]) -> None:
    assert stopping.stopped("score", KeyboardInterrupt()) == 130
    assert capsys.readouterr().err == "companion score: stopped by Ctrl-C\n"
