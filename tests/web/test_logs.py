"""The page's log under a flood: the first message of a kind whole, then one a minute
saying how many like it were held back, without their tracebacks."""

import logging

from companion.web.logs import KINDS_KEPT, WINDOW_SECONDS, Repeats, quieted


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def record(
    message: str, *args: object, name: str = "asyncio", failed: bool = False
) -> logging.LogRecord:
    error = OSError(24, "Too many open files")
    exc_info = (OSError, error, None) if failed else None
    return logging.LogRecord(name, logging.ERROR, __file__, 1, message, args, exc_info)


def test_the_first_of_a_kind_is_written_then_one_a_window_with_the_count_held_back() -> None:
    clock = Clock()
    repeats = Repeats(clock=clock)
    first = record("socket.accept() out of system resource\nsocket: fd=%d", 7, failed=True)
    assert repeats.filter(first) and first.exc_info is not None
    for fd in range(1_000):  # the same kind, whatever its values and second line
        clock.now += 0.01
        assert not repeats.filter(
            record("socket.accept() out of system resource\nsocket: fd=%d", fd, failed=True)
        )
    assert repeats.held_back == 1_000
    clock.now = WINDOW_SECONDS + 1
    summary = record("socket.accept() out of system resource\nsocket: fd=%d", 9, failed=True)
    assert repeats.filter(summary)
    assert "(and 1000 more like it in the last 61 s)" in summary.getMessage()
    assert summary.exc_info is None, "the traceback was written once"
    assert repeats.filter(record("another kind of message"))
    assert repeats.filter(record("socket.accept() out of system resource", name="uvicorn.error"))


def test_the_kinds_remembered_are_bounded() -> None:
    repeats = Repeats(clock=Clock())
    for n in range(KINDS_KEPT * 3):
        assert repeats.filter(record(f"message {n}"))
    assert len(repeats._held) == KINDS_KEPT


def test_quieted_loggers_are_filtered_only_while_the_block_runs() -> None:
    logger = logging.getLogger("companion.web.connections")
    with quieted() as repeats:
        assert repeats in logger.filters
    assert repeats not in logger.filters
