"""Ctrl-C and SIGTERM: every command stops in at most one line, never a traceback.

Python turns Ctrl-C (SIGINT) into a `KeyboardInterrupt` wherever the main thread is,
and SIGTERM (`kill`, `systemctl stop`) ends the process on the spot. While a command
runs, `main` listens for both (`listening`): a signal raises `Stopped`, a
`KeyboardInterrupt`, in the main thread, so that every `with` and `finally` on the
way out runs (the camera, the screen, the pins, the phone page and the journal are
closed; a round not yet committed is rolled back by SQLite, never half kept), and
`main` says in one line which signal stopped the command (`stopped`).

A command may take a signal gently for a while (`gently`): the first signal is held
and handed to the command's own way of stopping (`play` ends its loop after the frame
it is drawing, as it did for SIGTERM alone), or simply kept until the block ends (a
file being written is written whole); a held signal stops the command as above once
the block is over, and a second signal does at once, for a stop that does not come.

A signal the command was started with ignored (`nohup`, Ctrl-C of a background job)
stays ignored, as Python itself leaves it.
"""

import signal
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import FrameType

from companion.cli.each import complain

SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a command: Ctrl-C, and the polite request to end."""
SIGNAL_WORDS: Mapping[int, str] = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}
"""How a stop's line names each signal."""
ORDINARY_ENDS: Mapping[str, frozenset[int]] = {
    "play": frozenset({signal.SIGTERM}),
    "demo": frozenset({signal.SIGINT}),
}
"""The signals that are how a command ordinarily ends, with exit status 0: the table's
service is stopped with SIGTERM (`systemctl stop`), and the demo, kept up with
`--stay`, with Ctrl-C. Any other stop exits with 128 + the signal's number (130 for
Ctrl-C, 143 for SIGTERM), as a shell reports a command that a signal ended."""

Stop = Callable[[], None]
"""A command's own way of stopping: asked once, from the signal handler."""


class Stopped(KeyboardInterrupt):
    """A command stopped by a signal; raised in the main thread, as Python raises a
    `KeyboardInterrupt` for Ctrl-C, so that it is not taken for an error."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        """The signal's number."""


class _Listener:
    """What a signal does while a command runs."""

    def __init__(self) -> None:
        self.over = False
        """The command is over, or its stop is being reported: a signal changes nothing."""
        self.gentle = 0
        """How many `gently` blocks the command is in."""
        self.held: int | None = None
        """The signal held by a `gently` block, once one came."""
        self.stop: Stop | None = None
        """The command's own way of stopping, in the current `gently` block."""

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.over:
            return
        if self.gentle and self.held is None:
            self.held = signum
            if self.stop is not None:
                self.stop()
            return
        raise Stopped(signum)


_listener: _Listener | None = None
"""The listener of the command running now, if `main` listens (in the main thread)."""


@contextmanager
def listening() -> Iterator[None]:
    """While a command runs: Ctrl-C and SIGTERM stop it (see the module's note); the
    handlers it had are put back afterwards. Only the main thread hears signals, so
    elsewhere (a test's thread) this does nothing."""
    global _listener
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    listener = _Listener()
    before = {signum: signal.getsignal(signum) for signum in SIGNALS}
    outer, _listener = _listener, listener
    try:
        for signum, handler in before.items():
            if handler is not signal.SIG_IGN:
                signal.signal(signum, listener)
        yield
    finally:
        listener.over = True
        _listener = outer
        for signum, handler in before.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


@contextmanager
def gently(stop: Stop | None = None) -> Iterator[None]:
    """Hold the first signal while in this block: it calls `stop` (if given, or set by
    `on_stop`) and stops the command once the block is over; a second one stops it at
    once."""
    listener = _listener
    if listener is None:
        yield
        return
    outer = listener.stop
    listener.gentle += 1
    listener.stop = stop
    try:
        yield
    finally:
        listener.gentle -= 1
        listener.stop = outer
    if listener.held is not None and not listener.gentle:
        raise Stopped(listener.held)


def on_stop(stop: Stop) -> None:
    """Make `stop` the command's own way of stopping in the current `gently` block (a
    demo's next game); called at once if a signal is held already."""
    listener = _listener
    if listener is None or not listener.gentle:
        return
    listener.stop = stop
    if listener.held is not None:
        stop()


def stopped(command: str | None, interrupt: KeyboardInterrupt) -> int:
    """Say in one line that `command` was stopped, and by which signal; its exit status.
    A `KeyboardInterrupt` not raised here is Python's own for Ctrl-C."""
    if _listener is not None:
        _listener.over = True
    signum = interrupt.signum if isinstance(interrupt, Stopped) else signal.SIGINT
    name = "companion" if command is None else f"companion {command}"
    complain(f"{name}: stopped by {SIGNAL_WORDS.get(signum, f'signal {signum}')}")
    return 0 if signum in ORDINARY_ENDS.get(command or "", frozenset()) else 128 + signum
