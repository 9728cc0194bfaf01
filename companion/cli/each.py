"""The shape every batch command shares: one JSON line per input, errors on stderr.

An input that fails prints one line on stderr naming it and the fault, nothing on
stdout, and makes the exit status 2; the other inputs are still processed.
"""

import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

from companion.errors import CompanionError
from companion.names import one_line

EXIT_BAD_INPUT = 2
"""Exit status when any input was malformed, illegal or unreadable."""


def for_each(command: str, names: Iterable[str], work: Callable[[str], dict[str, Any]]) -> int:
    """Run `work` on each input name, printing its JSON line or its error."""
    status = 0
    for name in names:
        try:
            doc = work(name)
        except CompanionError as err:
            label = "standard input" if name == "-" else file_label(name)
            complain(f"companion {command}: {label}: {err}")
            status = EXIT_BAD_INPUT
            continue
        print(json.dumps(doc, ensure_ascii=False), flush=True)
    return status


def fail(command: str, err: CompanionError) -> int:
    """Report an error that stops a whole command; returns the exit status."""
    complain(f"companion {command}: {err}")
    return EXIT_BAD_INPUT


def complain(message: str) -> None:
    """Print `message` on stderr as exactly one line, whatever names it quotes.

    Every error of every command ends here, so a file name or an argument holding a
    newline cannot split a message into lines a script would read as two errors.
    With stderr closed there is no one to tell; `print` would fall back on stdout.
    """
    if sys.stderr is not None:
        print(one_line(message), file=sys.stderr, flush=True)


def file_label(name: str) -> str:
    """A file name as a message shows it: as typed, or quoted and escaped (repr-style)
    when it holds a character that would break the line or hide where the name ends."""
    return repr(name) if one_line(name) != name else name
