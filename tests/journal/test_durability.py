"""A SIGKILL at any moment leaves whole rounds: each commit is one SQLite transaction.

A child process plays a shipped example game into a journal, again and again, round after round
with a 50 KB frame each, and says on stdout which round it is storing before
`commit_round` and that it has stored it once `commit_round` returns. The parent
waits for a random number (seeded) of those reports and kills it with SIGKILL at
once: before it has said anything (while it opens the journal), just after
"storing" (inside a commit) or just after "stored" (between commits). It then
reopens the journal and checks it: sound, rounds 1..k without a gap, every round
with both pictures, every game replaying legally, nothing the child had reported
stored missing, and nothing beyond the round it was storing.

Each kill costs a Python start-up, so the next child is started while the last one
is being checked; it imports, says it is ready and waits for a line on stdin before
it opens the journal, so two children never write the same file.
"""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.gamefile import game_document
from companion.journal import GameStatus, History, Journal
from tests.journal.children import Child
from tests.journal.helpers import ROOT, example

KILLS = 240
"""Kills per run (about a fifth of a second each, start-ups overlapped with checks)."""

KILLS_PER_FILE = 10
"""Kills before the next journal file, so that checking a grown file stays quick."""

MOST_REPORTS = 60
"""Most reports ("storing", "stored") a child makes before it is killed: up to thirty
commits a kill, so that rounds pile up (a few thousand across the run); none at all
kills it while it opens the journal."""

REPORT_SECONDS = 120.0
"""Longest wait for the reports the child must make, its start-up included: a bound on
a failure, generous for a loaded machine."""

FRAME_BYTES = 50_000
OVERLAY_BYTES = 8_000
EXAMPLE = "classic-1e-4-players"

CHILD = f"""
import random, sys
from companion.gamefile import parse_game
from companion.journal import Journal

path, example, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
record = parse_game(open(example).read())
colours = {{p: p for p in record.start.seating.players}}
rng = random.Random(seed)
print("ready", flush=True)
sys.stdin.readline()
with Journal(path) as journal:
    while True:
        stored = journal.resume()
        if stored is None:
            game_id, game = journal.start_game(record.start, colours), record.start
        else:
            game_id, game = stored.id, stored.game
        for reveal in record.reveals[len(game.played):]:
            game = game.play(reveal)
            frame, overlay = rng.randbytes({FRAME_BYTES}), rng.randbytes({OVERLAY_BYTES})
            print("storing", game_id, len(game.played), flush=True)
            journal.commit_round(game_id, game, frame=frame, overlay=overlay)
            print("stored", game_id, len(game.played), flush=True)
"""


@dataclass(frozen=True)
class Killed:
    """What a killed child said before it died."""

    stored: list[tuple[int, int]]
    """Game and round of every `commit_round` that returned."""
    storing: dict[int, int]
    """The highest round of each game whose `commit_round` had begun."""
    inside_commit: bool
    """Whether the kill landed between "storing" and "stored"."""


def start_child(path: Path, seed: int) -> Child:
    """A child that imports what it needs, says it is ready and waits to be let go."""
    return Child(
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                CHILD,
                str(path),
                str(ROOT / "examples" / f"{EXAMPLE}.json"),
                str(seed),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        ),
        "committing",
        REPORT_SECONDS,
    )


def let_go(child: Child) -> None:
    """Once the child is ready, let it open its journal and commit."""
    assert child.process.stdin is not None
    said = child.next_line(time.monotonic() + REPORT_SECONDS)
    assert said == "ready\n", f"the child did not start: {said!r}"
    child.process.stdin.write("go\n")
    child.process.stdin.close()


def wait_for_reports(child: Child, count: int) -> None:
    """Wait until the child has made `count` more reports."""
    deadline = time.monotonic() + REPORT_SECONDS
    for _ in range(count):
        line = child.next_line(deadline)
        assert line is not None, f"the child stopped after saying {child.said}"


def kill(child: Child) -> None:
    os.kill(child.process.pid, signal.SIGKILL)
    assert child.process.wait() == -signal.SIGKILL


def what_it_said(child: Child) -> Killed:
    """The complete lines a killed child wrote (a kill can cut the last one short)."""
    deadline = time.monotonic() + REPORT_SECONDS
    while child.next_line(deadline) is not None:
        pass
    assert child.process.stdout is not None
    child.process.stdout.close()
    lines = [
        line.split()
        for line in child.said
        if line.endswith("\n") and line.startswith(("storing ", "stored "))
    ]
    stored = [(int(g), int(n)) for word, g, n in lines if word == "stored"]
    storing: dict[int, int] = {}
    for word, g, n in lines:
        if word == "storing":
            storing[int(g)] = max(storing.get(int(g), 0), int(n))
    return Killed(stored, storing, bool(lines) and lines[-1][0] == "storing")


def check(path: Path, killed: Killed) -> int:
    """Check the journal after a kill; returns the rounds stored in all."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    expected = game_document(example(EXAMPLE).play())["rounds"]
    stored = 0
    with Journal(path) as journal:
        summaries = History(journal).games()
        assert len([g for g in summaries if g.status is GameStatus.PLAYING]) <= 1
        for summary in summaries:
            rounds = History(journal).rounds(summary.id)
            assert [r.number for r in rounds] == list(range(1, summary.rounds + 1))
            assert all(r.has_frame and r.has_overlay for r in rounds)
            for number in (1, summary.rounds) if summary.rounds else ():
                images = History(journal).images(summary.id, number)
                assert images.frame is not None and len(images.frame) == FRAME_BYTES
                assert images.overlay is not None and len(images.overlay) == OVERLAY_BYTES
            game = journal.load(summary.id).game
            assert game_document(game)["rounds"] == expected[: summary.rounds]
            stored += summary.rounds
        held = {g.id: g.rounds for g in summaries}
        for game_id, number in killed.stored:
            assert held[game_id] >= number
        for game_id, number in killed.storing.items():
            assert held[game_id] <= number
    return stored


@pytest.mark.slow  # a minute on a quiet machine: several on a loaded one
def test_a_kill_at_any_moment_leaves_whole_rounds(tmp_path: Path) -> None:
    rng = random.Random(20261121)
    stored: dict[Path, int] = {}
    commits = inside_commit = 0
    started = time.perf_counter()

    def path_of(attempt: int) -> Path:
        return tmp_path / f"journal-{attempt // KILLS_PER_FILE}.sqlite"

    child = start_child(path_of(0), 0)
    try:
        for attempt in range(KILLS):
            let_go(child)
            wait_for_reports(child, rng.randint(0, MOST_REPORTS))
            kill(child)
            killed = what_it_said(child)
            if attempt + 1 < KILLS:  # its start-up overlaps the check below
                child = start_child(path_of(attempt + 1), attempt + 1)
            commits += len(killed.stored)
            inside_commit += killed.inside_commit
            path = path_of(attempt)
            now = check(path, killed)
            assert now >= stored.get(path, 0)
            stored[path] = now
            if path_of(attempt + 1) != path:  # done with it: a few MB a kill
                for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                    name.unlink(missing_ok=True)
    finally:
        if child.process.poll() is None:
            kill(child)
    seconds = time.perf_counter() - started
    print(
        f"\n{KILLS} kills ({inside_commit} inside commit_round), {commits} commits survived, "
        f"{KILLS} checks of {len(stored)} journals holding {sum(stored.values())} rounds, "
        f"{seconds:.0f} s"
    )
    assert commits > KILLS
    assert inside_commit > 0
