"""The shape every batch command shares: one JSON line per input, errors on stderr.

An input that fails prints one line on stderr naming it and the fault, nothing on
stdout, and makes the exit status 2; the other inputs are still processed.
"""

import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

from companion.errors import CompanionError

EXIT_BAD_INPUT = 2
"""Exit status when any input was malformed, illegal or unreadable."""


def for_each(command: str, names: Iterable[str], work: Callable[[str], dict[str, Any]]) -> int:
    """Run `work` on each input name, printing its JSON line or its error."""
    status = 0
    for name in names:
        try:
            doc = work(name)
        except CompanionError as err:
            label = "standard input" if name == "-" else name
            print(f"companion {command}: {label}: {err}", file=sys.stderr, flush=True)
            status = EXIT_BAD_INPUT
            continue
        print(json.dumps(doc, ensure_ascii=False), flush=True)
    return status


def fail(command: str, err: CompanionError) -> int:
    """Report an error that stops a whole command; returns the exit status."""
    print(f"companion {command}: {err}", file=sys.stderr, flush=True)
    return EXIT_BAD_INPUT
