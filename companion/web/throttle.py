"""Wrong staff PINs, counted per client and kept across restarts.

Each client (an address, or the table's own staff ticket: `changes.client_of`) has
its own count: after `FREE_TRIES` wrong PINs in a row, each try from it must wait 1,
2, 4… up to `MAX_WAIT_SECONDS`, and a try during the wait is refused without being
checked. A phone guessing as fast as it can slows only itself: the staff typing the
PIN on their own phone are let in at once. The counts are kept in a small JSON file
in the state folder (written whole: a temporary file, then a rename), so a restart,
which a guesser might hope for, changes nothing. A damaged or unreadable file is
said once on the log and read as no counts; it is never a reason to stop.

The file stays small: at most `MAX_CLIENTS` clients, each forgotten
`FORGET_SECONDS` after its last wrong PIN.
"""

import json
import logging
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

TRIES_FILE = "pin-tries.json"
"""The file's name in the state folder (beside the journal)."""
FREE_TRIES = 3
"""Wrong PINs in a row from one client before each further try must wait."""
MAX_WAIT_SECONDS = 60.0
"""The longest wait between two tries, however many were wrong."""
FORGET_SECONDS = 24 * 3600.0
"""How long after its last wrong PIN a client's count is kept."""
MAX_CLIENTS = 1024
"""Clients whose counts are kept; beyond them the oldest are forgotten."""
_MAX_FILE_BYTES = 1024 * 1024
"""The largest file read (a full one is about 100 kB)."""
_MAX_KEY_CHARS = 128
"""The longest client key kept (an IPv6 network is at most 43 characters)."""


@dataclass(frozen=True)
class Tries:
    """One client's wrong PINs in a row."""

    wrong: int
    """How many."""
    last: float
    """When the last one was typed (wall-clock seconds)."""


class PinTries:
    """The wrong-PIN counts of every client, kept in `path` (None: in memory only).

    Not thread-safe: the staff gate holds its lock around every call."""

    def __init__(self, path: Path | None, clock: Callable[[], float]) -> None:
        self.path = path
        """Where the counts are kept."""
        self._clock = clock
        self._tries: dict[str, Tries] = _load(path) if path is not None else {}
        self._save_failed = False

    def wait_left(self, client: str) -> float:
        """Seconds before `client` may try a PIN again (0 when it may now)."""
        tries = self._tries.get(client)
        if tries is None or tries.wrong < FREE_TRIES:
            return 0.0
        wait = min(2.0 ** (tries.wrong - FREE_TRIES), MAX_WAIT_SECONDS)
        since = max(0.0, self._clock() - tries.last)  # a clock set back waits no longer
        return max(0.0, wait - since)

    def wrong(self, client: str) -> int:
        """Count a wrong PIN from `client`, keep the counts; how many in a row now."""
        now = self._clock()
        before = self._tries.pop(client, None)
        count = 1 if before is None else before.wrong + 1
        self._tries[client] = Tries(count, now)
        self._forget_old(now)
        self._save()
        return count

    def right(self, client: str) -> None:
        """The right PIN from `client`: its count starts again."""
        if self._tries.pop(client, None) is not None:
            self._save()

    def _forget_old(self, now: float) -> None:
        """Forget clients whose last wrong PIN is long past, then the oldest beyond
        `MAX_CLIENTS` (the dict keeps them in the order of their last wrong PIN)."""
        for client in [c for c, t in self._tries.items() if now - t.last > FORGET_SECONDS]:
            del self._tries[client]
        while len(self._tries) > MAX_CLIENTS:
            del self._tries[next(iter(self._tries))]

    def _save(self) -> None:
        """Write the counts whole; a failure (a full card) is said once, never raised."""
        if self.path is None:
            return
        doc = {"clients": {c: [t.wrong, t.last] for c, t in self._tries.items()}}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            temporary.write_text(json.dumps(doc), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            if not self._save_failed:
                log.warning("the wrong staff PINs cannot be kept in %s: %s", self.path, error)
            self._save_failed = True
        else:
            self._save_failed = False


def _load(path: Path) -> dict[str, Tries]:
    """The counts kept in `path`: none when it is missing, and none (said on the log)
    when it is damaged or cannot be read."""
    try:
        with path.open("rb") as file:
            data = file.read(_MAX_FILE_BYTES + 1)
        if len(data) > _MAX_FILE_BYTES:
            raise ValueError("the file is too large")
        return _parse(json.loads(data.decode("utf-8")))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, TypeError, OverflowError, RecursionError) as error:
        log.warning("%s is damaged or unreadable (%s): no wrong staff PINs counted", path, error)
        return {}


def _parse(doc: object) -> dict[str, Tries]:
    """The counts of a loaded file; `ValueError` for any other shape."""
    clients = doc.get("clients") if isinstance(doc, dict) else None
    if not isinstance(clients, dict):
        raise ValueError("no clients")
    tries: dict[str, Tries] = {}
    for client, entry in clients.items():
        if not isinstance(entry, list) or len(entry) != 2 or len(client) > _MAX_KEY_CHARS:
            raise ValueError(f"a client's entry is not [count, time]: {str(entry)[:40]}")
        wrong, last = entry
        if isinstance(wrong, bool) or not isinstance(wrong, int) or wrong < 1:
            raise ValueError(f"not a count of wrong PINs: {str(wrong)[:40]}")
        if isinstance(last, bool) or not isinstance(last, int | float) or not math.isfinite(last):
            raise ValueError(f"not a time: {str(last)[:40]}")
        tries[client] = Tries(min(wrong, 64), float(last))
    ordered = sorted(tries.items(), key=lambda item: item[1].last)[-MAX_CLIENTS:]
    return dict(ordered)
