"""The power-cut driver: the demo as its own process on the small board, killed with
SIGKILL at a random moment of its play, again and again, each run going on with the
journal's game (the first run, and any after the game ended, sets one up first).

Each kill is placed by events, not by a clock: the driver reads the demo's output and
waits (with a deadline generous enough for a loaded machine) for the line saying the
game is being played, then for a random number of rounds scored in this run (none to
`MOST_ROUNDS_BEFORE_A_KILL`), then kills it at a random moment up to
`KILL_WITHIN_SECONDS` later. However fast or slow the machine, the kills land across
many scored rounds: before, during and after commits.
After every kill the journal must open cleanly, hold every round the demo had
announced as scored, each with its pictures, and replay legally; at the end one run
plays the game to its end and `companion score` agrees with the journal's export.
"""

import json
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import History, Journal
from tests.vision.scenes import LAYOUT_NAME

PLAYERS = 4
"""As many as the small board seats."""
MOST_ROUNDS_BEFORE_A_KILL = 2
"""A kill waits for a random number of rounds, none to this many, scored in its run
once the game is being played: none kills a run as it resumes or sets up its game."""
KILL_WITHIN_SECONDS = 1.2
"""Once those rounds are scored, the kill lands at a random moment this long at most
after the last of them: about a round on the small board on a quiet machine (less of
one on a busy machine), so kills fall before, during and after the next commit."""
LINE_DEADLINE_SECONDS = 120.0
"""How long the demo may take to say its next awaited line (starting to play, its
setup included, or the next round scored) before the test fails."""
PLAYING = re.compile(r"^demo: (game \d+ set up in |.*, going on with game \d+$)")
"""The line the demo prints once a game it set up starts, or as it resumes one (after
the edition's title, which need not start "Dixit ": "Dixit, first edition")."""


def demo(ruleset: str, journal: Path, screens: Path, seed: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "companion",
        "demo",
        "--ruleset",
        ruleset,
        "--players",
        str(PLAYERS),
        "--layout",
        LAYOUT_NAME,
        "--headless",
        "--no-web",
        "--resume",
        "--auto-confirm",
        "0.3",
        "--seed",
        str(seed),
        "--journal",
        str(journal),
        "--out",
        str(screens),
    ]


def killed_after(
    command: list[str], env: dict[str, str], rounds: int, delay: float
) -> tuple[int, str]:
    """Run `command`, wait until it plays and has scored `rounds` rounds in this run,
    kill it `delay` seconds later (unless it ended first: its game over), and return
    its exit code and output."""
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True
    )
    assert child.stdout is not None
    lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)
        lines.put(None)

    def next_line(awaited: str) -> str | None:
        try:
            return lines.get(timeout=LINE_DEADLINE_SECONDS)
        except queue.Empty:
            raise AssertionError(
                f"the demo did not get to {awaited} within {LINE_DEADLINE_SECONDS:.0f} s:\n"
                + "".join(seen)
            ) from None

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while not (seen and PLAYING.match(seen[-1])):
            line = next_line("its game")
            assert line is not None, f"the demo ended before it started playing:\n{''.join(seen)}"
            seen.append(line)
        scored = 0
        while scored < rounds:
            line = next_line(f"round {scored + 1} of this run")
            if line is None:  # the game ended first
                break
            seen.append(line)
            scored += line.startswith("round ")
        try:
            child.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=LINE_DEADLINE_SECONDS)
        reader.join(timeout=LINE_DEADLINE_SECONDS)
    while not lines.empty():
        seen.append(lines.get_nowait() or "")
    return child.returncode, "".join(seen)


def rounds_in(journal_path: Path) -> dict[int, int]:
    """Rounds stored per game, checking each is whole: pictures kept, game replays."""
    with Journal(journal_path) as journal:
        counts = {}
        for summary in History(journal).games():
            stored = journal.load(summary.id)
            rounds = History(journal).rounds(summary.id)
            assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
            assert len(stored.game.played) == len(rounds)
            for r in rounds:
                images = History(journal).images(summary.id, r.number)
                assert images.frame and images.overlay, f"game {summary.id} round {r.number}"
            counts[summary.id] = len(rounds)
        return counts


def kill_again_and_again(
    ruleset: str, kills: int, seed: int, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Kill `kills` runs of the demo playing `ruleset` at random moments (from `seed`)
    after random numbers of rounds, checking the journal after each, then play its game
    to the end and score it."""
    rng = random.Random(seed)
    path = folder / "journal.sqlite"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SDL_VIDEODRIVER": "dummy"}
    before: dict[int, int] = {}
    announced = 0
    screens = folder / "screens"
    for kill in range(kills):
        rounds = rng.randint(0, MOST_ROUNDS_BEFORE_A_KILL)
        delay = rng.uniform(0.0, KILL_WITHIN_SECONDS)
        code, output = killed_after(demo(ruleset, path, screens, kill), env, rounds, delay)
        assert code in (0, -signal.SIGKILL), output
        scored = sum(1 for line in output.splitlines() if line.startswith("round "))
        after = rounds_in(path)
        for game, count in before.items():
            assert after.get(game, 0) >= count, f"kill {kill}: game {game} lost rounds"
        gained = sum(after.values()) - sum(before.values())
        assert gained >= scored, f"kill {kill}: {scored} rounds announced, {gained} kept"
        announced += scored
        before = after
    assert announced >= kills // 5, "the kills should have landed across many scored rounds"

    finish = subprocess.run(
        demo(ruleset, path, screens, kills),
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=LINE_DEADLINE_SECONDS * 5,
    )
    assert finish.returncode == 0, finish.stdout + finish.stderr
    final = [line for line in finish.stdout.splitlines() if line.startswith("final totals: ")]
    game_id = max(rounds_in(path))
    export = folder / "game.json"
    assert main(["history", "--journal", str(path), str(game_id), "--export", str(export)]) == 0
    capsys.readouterr()
    assert main(["score", str(export)]) == 0
    scored_totals = json.loads(capsys.readouterr().out)["totals"]
    shown = ", ".join(f"{name} {total}" for name, total in scored_totals.items())
    assert final == [f"final totals: {shown}"]
    with capsys.disabled():
        print(f"\n{kills} kills of {ruleset}: {announced} rounds announced by the runs killed")
