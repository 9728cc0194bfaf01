"""A child process of the kill tests, its lines read on a thread so that the parent
waits for each with a deadline, never on a sleep."""

import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Child:
    """A child process and the lines it has said."""

    process: subprocess.Popen[str]
    name: str
    """What it does, for a failure's message."""
    seconds: float
    """Longest wait for a line it must say."""
    lines: "queue.Queue[str | None]" = field(default_factory=queue.Queue)
    """Each line as the child writes it; None once its output has ended."""
    said: list[str] = field(default_factory=list)
    """The lines taken from `lines` so far."""

    def __post_init__(self) -> None:
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def next_line(self, deadline: float) -> str | None:
        """The next line the child wrote, or None once its output has ended."""
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(
                f"the {self.name} child said nothing more within {self.seconds:.0f} s "
                f"after {self.said}"
            ) from None
        if line is not None:
            self.said.append(line)
        return line
