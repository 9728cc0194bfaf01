"""How long the simulated table takes to draw a 4608x2592 frame, as the demo and the
tests draw them.

    .venv/bin/python bench/simulator.py [--rounds N] [--before DIR]

It lays out N rounds (default 8) of a 12-player Dixit Odyssey game on the 12-slot
board, each in the stages the demo's players lay it in (owner tokens; half the votes,
a hand over the board, then without; every vote with a hand, then without), and
draws every stage once, as the simulated table draws each new layout of the table:

- kept: one `SimCamera` for the whole run, as the demo and the tests use it (the
  table, board and tags drawn once for the pose, the cards once per round, only what
  moves drawn per frame), with the kit's discs in a good café, and again in an
  evening with glare across a token and an arm's shadow;
- anew: `render`, a fresh camera for every frame (everything drawn every time), with
  the same discs: the cost the kept camera saves, measured in this run;
- with `--before DIR`, a checkout of the companion before the simulator kept
  anything (flat printed tags, a pinhole camera): its `render` on the same rounds,
  in a child process using that checkout's package.

It prints the median milliseconds per frame with the 10th-90th percentile spread and
the ratio of each to the first baseline measured (the checkout before, else anew),
on one thread. Nothing here fails on time.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

PLAYERS = 12
FRAME = (4608, 2592)
HEIGHT_MM = 760.0
"""The camera over the 12-slot board: the whole board in view at 4608x2592."""


def stages(scene: Any) -> Iterator[tuple[Any, int]]:
    """A round's stages as the demo's players lay them: (scene, hands over the board)."""
    owners = tuple(p for p in scene.tokens if p.tag.role.value != "vote")
    votes = tuple(p for p in scene.tokens if p.tag.role.value == "vote")
    half = owners + votes[: len(votes) // 2]
    yield replace(scene, tokens=owners), 0
    yield replace(scene, tokens=half), 1
    yield replace(scene, tokens=half), 0
    yield scene, 1
    yield scene, 0


def measure(rounds: int, before: bool) -> dict[str, list[float]]:
    """Milliseconds per frame of each way of drawing; `before` draws as a checkout
    without the kept camera does (its `render`, its printed tags)."""
    from companion.colours import COLOURS
    from companion.kit.layouts import load_layout
    from companion.rules import Game, find_ruleset
    from companion.sim import CameraPose, Conditions, render, round_scene

    cv2.setNumThreads(1)
    layout = load_layout("odyssey-12")
    names = [c.name for c in COLOURS[:PLAYERS]]
    game = Game.start(find_ruleset("odyssey"), names, names[0])
    pose = CameraPose(height_mm=HEIGHT_MM, tilt_deg=6.0, frame_px=FRAME)
    good = Conditions(blur_sigma_px=0.8, noise_sigma=3.0, jpeg_quality=None)
    ways: dict[str, Callable[[Any, Any, np.random.Generator], object]] = {}
    if before:
        scenes = [
            round_scene(layout, "BENCH", game, np.random.default_rng(r)) for r in range(rounds)
        ]
        ways["before: render, printed tags"] = lambda s, c, rng: render(s, pose, c, rng)
    else:
        from companion.sim import Disc, SimCamera, look_with

        scenes = [
            round_scene(layout, "BENCH", game, np.random.default_rng(r), disc=Disc())
            for r in range(rounds)
        ]
        kept, busy = SimCamera(pose), SimCamera(pose)
        hard = look_with(["evening", "glare", "arm-shadow"]).conditions
        ways["anew: render, discs"] = lambda s, c, rng: render(s, pose, c, rng)
        ways["kept: SimCamera, discs"] = lambda s, c, rng: kept.shoot(s, c, rng)
        ways["kept: evening, glare, arm shadow"] = lambda s, c, rng: busy.shoot(
            s, replace(hard, hands=c.hands), rng
        )
    times: dict[str, list[float]] = {name: [] for name in ways}
    rng = np.random.default_rng(0)
    for scene in scenes:
        for laid, hands in stages(scene):
            for name, draw in ways.items():
                started = time.perf_counter()
                draw(laid, replace(good, hands=hands), rng)
                times[name].append((time.perf_counter() - started) * 1000)
    return times


def report(times: dict[str, list[float]]) -> None:
    baseline = statistics.median(next(iter(times.values())))
    print(f"  {'drawing':36s} {'median ms':>10s} {'p10-p90 ms':>14s} {'/ first':>8s}")
    for name, values in times.items():
        median = statistics.median(values)
        deciles = statistics.quantiles(values, n=10)
        spread = f"{deciles[0]:.0f}-{deciles[-1]:.0f}"
        print(f"  {name:36s} {median:10.1f} {spread:>14s} {median / baseline:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--before", type=Path, help="a checkout of the companion to compare with")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.rounds, before=True)))
        return
    print(
        f"simulated table, {FRAME[0]}x{FRAME[1]}, {args.rounds} rounds of Dixit Odyssey for "
        f"{PLAYERS}, 5 layouts a round, one thread"
    )
    times: dict[str, list[float]] = {}
    if args.before is not None:
        environment = {**os.environ, "PYTHONPATH": str(args.before.resolve())}
        child = subprocess.run(
            [sys.executable, __file__, "--child", "--rounds", str(args.rounds)],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
            cwd=args.before,
        )
        times.update(json.loads(child.stdout.splitlines()[-1]))
    times.update(measure(args.rounds, before=False))
    report(times)


if __name__ == "__main__":
    main()
