"""Reading the small JSON files a table keeps (calibration, camera profile) the same way.

A file that is missing, is not JSON, or is JSON of the wrong shape each gets its own
clear message naming the file, so a café can tell a lost file from a damaged one.
"""

import json
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
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise error(f"{path}: not a {what} ({err})") from None
    try:
        return parse(doc)
    except (KeyError, TypeError, ValueError) as err:
        raise error(f"{path}: damaged {what} ({err})") from None
