"""The power-cut driver: the demo as its own process on the small board, killed with
SIGKILL at a random moment of its play, again and again, each run going on with the
journal's game (the first run, and any after the game ended, sets one up first).

The moment is measured from the demo's line saying the game is being played (so a
slow start or setup under load shifts it rather than wasting it), and the driver waits
on the demo's own output with deadlines, never on a guess of how long it takes.
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
KILL_WITHIN_SECONDS = 3.0
"""A kill lands at a random moment this long at most after the demo starts playing:
a round is scored about every second on the small board, so kills fall before,
during and after commits."""
START_DEADLINE_SECONDS = 120.0
"""How long a demo may take to start playing (its setup included) before the test fails."""
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


def killed_at_random(command: list[str], env: dict[str, str], delay: float) -> tuple[int, str]:
    """Run `command`, kill it `delay` seconds after it starts playing (unless it ended
    first), and return its exit code and output."""
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

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while not (seen and PLAYING.match(seen[-1])):
            line = lines.get(timeout=START_DEADLINE_SECONDS)
            assert line is not None, f"the demo ended before it started playing:\n{''.join(seen)}"
            seen.append(line)
        try:
            child.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=START_DEADLINE_SECONDS)
        reader.join(timeout=START_DEADLINE_SECONDS)
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
    """Kill `kills` runs of the demo playing `ruleset` at random moments (from `seed`),
    checking the journal after each, then play its game to the end and score it."""
    rng = random.Random(seed)
    path = folder / "journal.sqlite"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SDL_VIDEODRIVER": "dummy"}
    before: dict[int, int] = {}
    announced = 0
    screens = folder / "screens"
    for kill in range(kills):
        code, output = killed_at_random(
            demo(ruleset, path, screens, kill), env, rng.uniform(0.0, KILL_WITHIN_SECONDS)
        )
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
        timeout=START_DEADLINE_SECONDS * 5,
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
