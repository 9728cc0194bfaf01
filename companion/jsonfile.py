"""Reading the small JSON files a table keeps (calibration, camera profile) the same way.

A file that is missing, is not JSON, or is JSON of the wrong shape each gets its own
clear message naming the file, so a café can tell a lost file from a damaged one.
`finite_number` is the one check of a measurement these files (and layouts) hold.
"""

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import CompanionError

T = TypeVar("T")


def load_json_file(
    path: Path, what: str, error: type[CompanionError], parse: Callable[[Any], T]
) -> T:
    """The file's JSON document given to `parse`; `error` naming the file if it is
    missing, unreadable, not JSON, or refused by `parse` (with a KeyError, TypeError
    or ValueError)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except (OSError, ValueError, RecursionError) as err:  # not UTF-8, not JSON, too long a number
        raise error(f"{path}: not a {what} ({err})") from None
    try:
        return parse(doc)
    except (KeyError, TypeError, ValueError) as err:
        raise error(f"{path}: damaged {what} ({err})") from None


def finite_number(value: object) -> float | None:
    """The value as a float if it is a finite JSON number, else None: a boolean, NaN, an
    infinity or an integer beyond the largest float measures nothing."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None
