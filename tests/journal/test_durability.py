"""A SIGKILL at any moment leaves whole rounds: each commit is one SQLite transaction.

A child process plays a shipped example game into a journal, again and again, round after round
with a 50 KB frame each, and says on stdout which round it has committed once
`commit_round` returns. The parent kills it with SIGKILL after a random delay
(seeded), reopens the journal and checks it: sound, rounds 1..k without a gap,
every round with both pictures, every game replaying legally, and nothing the
child had reported committed missing.
"""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from companion.gamefile import game_document
from companion.journal import GameStatus, Journal
from tests.journal.helpers import ROOT, example

KILLS = 60
"""Kills per run; each costs a Python start-up (about a tenth of a second)."""

KILLS_PER_FILE = 10
"""Kills before the next journal file, so that checking a grown file stays quick."""

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
with Journal(path) as journal:
    while True:
        stored = journal.resume()
        if stored is None:
            game_id, game = journal.start_game(record.start, colours), record.start
        else:
            game_id, game = stored.id, stored.game
        for reveal in record.reveals[len(game.played):]:
            game = game.play(reveal)
            journal.commit_round(
                game_id, game, frame=rng.randbytes({FRAME_BYTES}),
                overlay=rng.randbytes({OVERLAY_BYTES}),
            )
            print(game_id, len(game.played), flush=True)
"""


def run_until_killed(path: Path, seed: int, delay: float) -> list[tuple[int, int]]:
    """Start the child, kill it `delay` seconds after it is ready; the rounds it reported."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            str(path),
            str(ROOT / "examples" / f"{EXAMPLE}.json"),
            str(seed),
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert child.stdout is not None
    assert child.stdout.readline() == "ready\n"
    time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    out = child.stdout.read()
    child.stdout.close()
    assert child.wait() == -signal.SIGKILL
    complete = out.split("\n")[:-1]  # a kill can cut the last line short
    return [(int(g), int(n)) for g, n in (line.split() for line in complete)]


def check(path: Path, reported: list[tuple[int, int]]) -> int:
    """Check the journal after a kill; returns the rounds stored in all."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    expected = game_document(example(EXAMPLE).play())["rounds"]
    stored = 0
    with Journal(path) as journal:
        summaries = journal.games()
        assert len([g for g in summaries if g.status is GameStatus.PLAYING]) <= 1
        for summary in summaries:
            rounds = journal.rounds(summary.id)
            assert [r.number for r in rounds] == list(range(1, summary.rounds + 1))
            assert all(r.has_frame and r.has_overlay for r in rounds)
            for number in (1, summary.rounds) if summary.rounds else ():
                images = journal.images(summary.id, number)
                assert images.frame is not None and len(images.frame) == FRAME_BYTES
                assert images.overlay is not None and len(images.overlay) == OVERLAY_BYTES
            game = journal.load(summary.id).game
            assert game_document(game)["rounds"] == expected[: summary.rounds]
            stored += summary.rounds
        held = {g.id: g.rounds for g in summaries}
        for game_id, number in reported:
            assert held[game_id] >= number
    return stored


def test_a_kill_at_any_moment_leaves_whole_rounds(tmp_path: Path) -> None:
    rng = random.Random(20261121)
    stored: dict[Path, int] = {}
    commits = 0
    for attempt in range(KILLS):
        path = tmp_path / f"journal-{attempt // KILLS_PER_FILE}.sqlite"
        reported = run_until_killed(path, attempt, rng.uniform(0.0, 0.12))
        commits += len(reported)
        now = check(path, reported)
        assert now >= stored.get(path, 0)
        stored[path] = now
    assert commits > KILLS
