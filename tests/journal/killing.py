"""Children that write a journal until they are killed with SIGKILL, for the kill tests.

A child imports the journal, says "ready" and waits for a line on stdin, so that the
next child can start up while the last one's journal is being checked; let go, it
opens the journal, says "started" (before it opens the archive, so that a kill can land
while the first archiving makes it), does its work with a line after each step, says
"done" and waits on stdin again, so that it is always alive to be killed. Its lines are
read on a thread, so that the parent waits for each with a deadline.
"""

import os
import random
import signal
import subprocess
import sys
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from tests.journal.children import Child
from tests.journal.helpers import ROOT

LINE_SECONDS = 120.0
"""Longest wait for the lines a child must say, from its start-up to the last step
awaited: a bound on a failure, generous for a start-up on a loaded machine."""

CHILD = """
import sys
from datetime import datetime, timedelta
from companion.journal import Journal, archive_path
from companion.journal.archive import archive_games

path, kind = sys.argv[1], sys.argv[2]
first_end, games = datetime.fromisoformat(sys.argv[3]), int(sys.argv[4])
print("ready", flush=True)
sys.stdin.readline()
with Journal(path) as journal:
    print("started", flush=True)
    now = datetime.now(first_end.tzinfo)
    if kind == "prune":
        while (game := journal.prune_pictures(now)) is not None:
            print("pruned", game, flush=True)
    else:
        with Journal(archive_path(path)) as archive:
            if kind == "archive at once":
                print("moved", archive_games(journal, archive, now), flush=True)
            else:
                for day in range(games):
                    cut = first_end + timedelta(days=day, seconds=1)
                    print("moved", archive_games(journal, archive, cut), flush=True)
print("done", flush=True)
sys.stdin.readline()
"""
"""The child, given the journal, what to do, when the first of its finished games
ended and how many there are (one a day): `prune` prunes a game at a time until none
is left; `archive` archives a day's game at a time (its two transactions a call);
`archive at once` archives every game in one call."""

KINDS = ("prune", "archive", "archive at once")

PAUSES = {"prune": 0.003, "archive": 0.015, "archive at once": 0.060}
"""Longest pause before the kill once the steps waited for are done: about one step
(a prune, some 3 ms; an archiving call), or most of the work of the single call, so
that most kills land inside the work (119 of 150 when written)."""


def start_child(path: Path, kind: str, first_end: str, games: int) -> Child:
    """A child that imports the journal, says it is ready and waits to be let go."""
    process = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), kind, first_end, str(games)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    return Child(process, kind, LINE_SECONDS)


@dataclass(frozen=True)
class Kill:
    """Where a kill landed."""

    kind: str
    """What the child was doing."""
    during_work: bool
    """Whether it had not yet said "done": the kill cut its work short."""


def kill_at_random(child: Child, rng: random.Random, most_steps: int) -> Kill:
    """Let the child go, wait for it to start and for a random number of its steps (up
    to `most_steps`), then a random pause (`PAUSES`), and kill it with SIGKILL."""
    assert child.process.stdin is not None
    deadline = time.monotonic() + LINE_SECONDS
    assert child.next_line(deadline) == "ready\n", f"the child did not start: {child.said}"
    child.process.stdin.write("go\n")
    child.process.stdin.flush()
    assert child.next_line(deadline) == "started\n", child.said
    quiet = child.name == "archive at once"  # one call: no step to wait for
    for _ in range(0 if quiet else rng.randint(0, most_steps)):
        if child.next_line(deadline) in ("done\n", None):
            break
    pause = rng.uniform(0.0, PAUSES[child.name])
    with suppress(subprocess.TimeoutExpired):  # waits the pause: the child never ends itself
        child.process.wait(timeout=pause)
    os.kill(child.process.pid, signal.SIGKILL)
    assert child.process.wait(timeout=LINE_SECONDS) == -signal.SIGKILL
    while child.next_line(deadline) is not None:
        pass
    for pipe in (child.process.stdin, child.process.stdout):
        if pipe is not None:
            pipe.close()
    return Kill(child.name, "done\n" not in child.said)
