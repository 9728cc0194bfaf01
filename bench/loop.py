"""Benchmark of the game loop: does it read frames as fast as the bare reader, and does
its memory stay flat over many rounds?

    .venv/bin/python bench/loop.py [--rounds N] [--layout NAME] [--players N]

It runs the headless demo (simulated table, simulated players, real reader,
stabiliser, session, journal and screen), the game's setup on the table's screens
then N rounds (default 100), and prints:

- per frame: the loop's whole step (reading, session, drawing the screen), the
  reading inside the loop, and the bare `TableReader.read` of every 4th frame read
  again right after the loop's step with the same tokens to look for again, as
  medians with their spread (10th to 90th percentile) and the ratio of the loop's
  reading of those frames to the bare reader's;
- the step's time left after reading: what the loop adds per frame (screen, status);
- the process's resident memory after every 10th round.

Frames that had to be drawn by the simulator (a new layout of the table) are left out
of the step times: drawing them is the simulation's cost, not the loop's. Nothing
here fails on time: it prints what it measured.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from companion.demo.demo import LAYOUT, DemoGame, demo_config, run_demo
from companion.rules import find_ruleset
from companion.runtime.camera import Watching
from companion.runtime.loop import Loop
from companion.sources.simulated import SimulatedTable

PAIR_EVERY = 4
"""Every 4th frame is read a second time by the bare reader, right after the loop's
step, with the same tokens to look for again: a paired, same-run baseline."""


def resident_mb() -> float:
    """The process's resident memory, in MB (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 1e6


def spread(values: list[float]) -> str:
    """Median with the 10th to 90th percentile."""
    deciles = statistics.quantiles(values, n=10)
    return f"{statistics.median(values):7.1f} ms ({deciles[0]:.1f} to {deciles[-1]:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--layout", default=LAYOUT)
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()

    steps: list[float] = []
    readings: list[float] = []
    bare: list[float] = []
    paired: list[float] = []
    memory: list[tuple[int, float]] = []

    def timed_step(loop: Loop) -> None:
        camera = loop.camera
        if camera is None:
            loop.step()
            return
        before = camera.state.status
        table = before.source if isinstance(before, Watching) else None
        drawn = table.last if isinstance(table, SimulatedTable) else None
        look = dict(camera.watcher.stabiliser.look_again())
        started = time.perf_counter()
        loop.step()
        elapsed = (time.perf_counter() - started) * 1000
        status = camera.state.status
        latest = status.latest if isinstance(status, Watching) else None
        if latest is None:
            return
        if isinstance(table, SimulatedTable) and table.last is not drawn:
            return
        steps.append(elapsed)
        readings.append(latest.reading.elapsed_ms)
        if len(steps) % PAIR_EVERY == 0:
            again = time.perf_counter()
            camera.watcher.reader.read(latest.frame, look)
            bare.append((time.perf_counter() - again) * 1000)
            paired.append(latest.reading.elapsed_ms)

    def said(line: str) -> None:
        number = line.split()[1] if line.startswith("round ") else ""
        if number.isdigit() and int(number) % 10 == 0:
            memory.append((int(number), resident_mb()))

    ruleset = find_ruleset("odyssey").with_options({"target": None, "storyteller_turns": 1000})
    with tempfile.TemporaryDirectory() as folder:
        memory.append((0, resident_mb()))
        run_demo(
            demo_config(Path(folder) / "bench.sqlite", auto_confirm=0.5),
            DemoGame(ruleset, args.players, layout=args.layout, rounds=args.rounds),
            say=said,
            step=timed_step,
        )
    print(f"{args.rounds} rounds of Dixit Odyssey, {args.players} players, board {args.layout}")
    print(f"frames timed: {len(steps)}; read again by the bare reader: {len(bare)}")
    print(f"loop step, whole          {spread(steps)}")
    print(f"reading inside the loop   {spread(readings)}")
    print(f"  the same, paired frames {spread(paired)}")
    print(f"bare reader, same frames  {spread(bare)}")
    print(f"ratio loop reading / bare {statistics.median(paired) / statistics.median(bare):.2f}")
    added = [s - r for s, r in zip(steps, readings, strict=True)]
    print(f"step beyond reading       {spread(added)}")
    print("resident memory: " + ", ".join(f"round {n}: {mb:.0f} MB" for n, mb in memory))
    growth = np.diff([mb for _, mb in memory[1:]]) if len(memory) > 2 else np.array([0.0])
    print(f"memory change per 10 rounds after round 10: median {np.median(growth):+.1f} MB")


if __name__ == "__main__":
    main()
