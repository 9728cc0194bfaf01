"""Benchmark of a year of café service: how big the journal grows, how fast the table starts.

    .venv/bin/python bench/year_journal.py [--games 3650] [--picture-days 90] [--dir DIR]

It makes a year's journal as a café table would have it, then measures it:

1. **The games.** `--games` random legal games of Dixit Odyssey on the odyssey-12
   board, 4 to 7 players, each storyteller telling until about 20 rounds are played
   (about 73,000 rounds for 3,650 games), ten a day over the year before today. The
   games older than `--picture-days` are written as game files and taken in with
   `companion history import` (as a table whose pictures were pruned keeps them); the
   newer ones are committed round by round through `Journal.commit_round` with real
   pictures (the board picture and its drawing, from a short headless demo, taken in
   turn), and the newest game is left in progress.
2. **Size and wear.** The journal's size on disk (with its write-ahead log) and the
   bytes written per round with pictures (the process's `wchar`, every byte handed to
   the kernel, and `write_bytes`, what reached the disk, from `/proc/self/io`).
3. **Start to first screen.** `companion play --source none --display headless` is
   started on an empty journal and on the year's, in turn, and timed from the start of
   the process to its systemd READY=1 (sent once the first screen is drawn), by
   listening on its `NOTIFY_SOCKET`; median and spread over `--starts` of each, and the
   ratio year / empty.
4. **Listing.** `companion history` on the year's journal, whole command, median of
   five; and `History.games()` in the process.
5. **Pruning.** One game's pictures pruned (`Journal.prune_pictures`) at a time, as the
   table does between two steps, with the log copied into the file on its own thread
   meanwhile (`Checkpointer`), both twenty times faster than at the table: median and
   worst time, against the loop's own step time measured in the same run (a headless
   demo's steps, frames the simulator had to draw included), and the ratio.

Nothing here fails on time: it prints what it measured. It needs about 3 GB free
where `--dir` is (default: a temporary folder) and some 15 minutes on a laptop.
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from companion.demo.demo import LAYOUT, DemoGame, demo_config, run_demo
from companion.gamefile import game_document
from companion.journal import History, Journal, RoundImages
from companion.journal.checkpoint import CHECKPOINT_SECONDS, Checkpointer
from companion.kit.layouts import load_layout
from companion.rules import Game, find_ruleset
from companion.runtime.housekeeping import PRUNE_EVERY_SECONDS
from companion.runtime.loop import Loop
from companion.sim.rounds import round_scene

KIT = "CAFE"
"""The kit id on the simulated tokens (any valid id: only the reveals are kept)."""
COLOURS = ("red", "blue", "green", "yellow", "white", "black", "orange", "pink")
ROUNDS_PER_GAME = 20
GAMES_PER_DAY = 10
PACE = 20
"""How many times faster than the table the pruning is timed."""
IMPORT_CHUNK = 400
"""Game files per `companion history import` command."""


def spread(values: Sequence[float], unit: str = "ms") -> str:
    """Median with the 10th to 90th percentile (or the range, for few values)."""
    if len(values) >= 10:
        low, high = statistics.quantiles(values, n=10)[0], statistics.quantiles(values, n=10)[-1]
    else:
        low, high = min(values), max(values)
    return f"{statistics.median(values):8.1f} {unit} ({low:.1f} to {high:.1f})"


def io_counters() -> dict[str, int]:
    """The process's I/O counters (Linux)."""
    fields = (line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
    return {name: int(value) for name, value in fields}


def random_game(rng: np.random.Generator, layout_name: str) -> Game:
    """A random legal game of about `ROUNDS_PER_GAME` rounds, played to its end."""
    players = int(rng.integers(4, 8))
    turns = max(1, round(ROUNDS_PER_GAME / players))
    ruleset = find_ruleset("odyssey").with_options({"target": None, "storyteller_turns": turns})
    game = Game.start(ruleset, COLOURS[:players], COLOURS[int(rng.integers(players))])
    layout = load_layout(layout_name)
    while game.outcome is None:
        reveal = round_scene(layout, KIT, game, rng).reveal
        assert reveal is not None, "a round's scene always carries its reveal"
        game = game.play(reveal)
    return game


def demo_pictures(folder: Path) -> list[RoundImages]:
    """The pictures a table keeps, from a short headless demo on the odyssey-12 board."""
    path = folder / "pictures.sqlite"
    endless = find_ruleset("odyssey").with_options({"target": None, "storyteller_turns": 2})
    run_demo(
        demo_config(path, auto_confirm=0.5),
        DemoGame(endless, 6, rounds=8),
        say=lambda _: None,
    )
    with Journal(path) as journal:
        history = History(journal)
        return [
            history.images(game.id, r.number)
            for game in history.games()
            for r in history.rounds(game.id)
            if r.has_frame
        ]


def make_year(
    path: Path, games: int, picture_days: int, pictures: list[RoundImages], seed: int
) -> tuple[int, int, int, dict[str, int]]:
    """The year's journal at `path`; returns games, rounds, rounds with pictures, and
    the bytes written while committing those."""
    rng = np.random.default_rng(seed)
    today = datetime.now(UTC).replace(microsecond=0)
    first = today - timedelta(days=games / GAMES_PER_DAY)
    files = path.parent / "game files"
    files.mkdir(exist_ok=True)
    old = [
        n
        for n in range(games)
        if first + timedelta(days=n / GAMES_PER_DAY) < today - timedelta(days=picture_days)
    ]
    rounds = 0
    for n in old:
        game = random_game(rng, LAYOUT)
        rounds += len(game.played)
        file = files / f"game-{n:05d}.json"
        file.write_text(json.dumps(game_document(game)))
        played_at = (first + timedelta(days=n / GAMES_PER_DAY)).timestamp()
        os.utime(file, (played_at, played_at))
    names = sorted(str(f) for f in files.iterdir())
    for start in range(0, len(names), IMPORT_CHUNK):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "companion",
                "history",
                "--journal",
                str(path),
                "import",
                *names[start : start + IMPORT_CHUNK],
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    shutil.rmtree(files)
    moment = [first]
    with_pictures = 0
    before = io_counters()
    with Journal(path, clock=lambda: moment[0]) as journal:
        for n in range(len(old), games):
            moment[0] = first + timedelta(days=n / GAMES_PER_DAY)
            game = random_game(rng, LAYOUT)
            keep = len(game.played) if n < games - 1 else len(game.played) // 2
            game_id = journal.start_game(game.before_round(1), {c: c for c in game.seating.players})
            for number in range(1, keep + 1):
                moment[0] += timedelta(minutes=3)
                images = pictures[with_pictures % len(pictures)]
                journal.commit_round(
                    game_id,
                    game.before_round(number + 1),
                    frame=images.frame,
                    overlay=images.overlay,
                )
                with_pictures += 1
            rounds += keep
    after = io_counters()
    written = {name: after[name] - before[name] for name in ("wchar", "write_bytes")}
    return games, rounds, with_pictures, written


def on_disk(path: Path) -> int:
    """The journal's bytes with its write-ahead log."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def time_to_first_screen(journal: Path, folder: Path) -> float:
    """Seconds from starting `companion play` to its READY=1, on `journal`."""
    address = folder / f"notify-{time.monotonic_ns()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(address))
        listener.settimeout(120)
        env = {**os.environ, "NOTIFY_SOCKET": str(address), "SDL_VIDEODRIVER": "dummy"}
        started = time.perf_counter()
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "play",
                "--source",
                "none",
                "--display",
                "headless",
                "--no-web",
                "--journal",
                str(journal),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while b"READY=1" not in listener.recv(4096):
                pass
            elapsed = time.perf_counter() - started
        finally:
            process.terminate()
            process.wait(timeout=60)
    address.unlink()
    return elapsed


def timed(work: Callable[[], object], times: int) -> list[float]:
    """Milliseconds each of `times` runs of `work` took."""
    found = []
    for _ in range(times):
        started = time.perf_counter()
        work()
        found.append((time.perf_counter() - started) * 1000)
    return found


def loop_steps(folder: Path) -> list[float]:
    """The loop's step times (ms) over a few rounds of a headless demo."""
    steps: list[float] = []

    def timed_step(loop: Loop) -> None:
        started = time.perf_counter()
        loop.step()
        steps.append((time.perf_counter() - started) * 1000)

    run_demo(
        demo_config(folder / "steps.sqlite", auto_confirm=0.5),
        DemoGame(
            find_ruleset("odyssey").with_options({"target": None, "storyteller_turns": 1}),
            6,
            rounds=4,
        ),
        say=lambda _: None,
        step=timed_step,
    )
    return steps


def prune_times(path: Path, games: int) -> tuple[list[float], int]:
    """Milliseconds each `prune_pictures` took, on a copy of the year's journal, until
    `games` games are pruned or none is left; and the checkpoints run meanwhile.

    As at the table, but twenty times faster: a prune every `PRUNE_EVERY_SECONDS` / 20
    and the log copied into the file by a `Checkpointer` every `CHECKPOINT_SECONDS` / 20
    on its own thread."""
    copy = path.with_name("pruned.sqlite")
    shutil.copyfile(path, copy)
    found: list[float] = []
    pause = threading.Event()
    with Journal(copy) as journal, Checkpointer(copy, CHECKPOINT_SECONDS / PACE) as checkpoints:
        for _ in range(games):
            started = time.perf_counter()
            pruned = journal.prune_pictures(datetime.now(UTC))
            found.append((time.perf_counter() - started) * 1000)
            if pruned is None:
                break
            pause.wait(PRUNE_EVERY_SECONDS / PACE)
        return found, checkpoints.done


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3650)
    parser.add_argument("--picture-days", type=int, default=90)
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dir", type=Path, help="where to make the journals (default: a temporary folder)"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        folder = Path(name)
        made = time.perf_counter()
        pictures = demo_pictures(folder)
        sizes = [len(p.frame or b"") + len(p.overlay or b"") for p in pictures]
        each = spread([s / 1000 for s in sizes], "kB")
        print(f"pictures from the demo: {len(pictures)} rounds, {each} a round")
        year = folder / "year.sqlite"
        games, rounds, with_pictures, written = make_year(
            year, args.games, args.picture_days, pictures, args.seed
        )
        print(
            f"made in {time.perf_counter() - made:.0f} s: {games} games, {rounds} rounds, "
            f"{with_pictures} with pictures (the last {args.picture_days} days)"
        )
        size = on_disk(year)
        per_round = size / max(rounds, 1) / 1000
        per_picture = size / max(with_pictures, 1) / 1000
        print(
            f"journal on disk: {size / 1e9:.2f} GB ({per_round:.1f} kB a round over all "
            f"rounds, {per_picture:.1f} kB per round with pictures)"
        )
        for name, value in written.items():
            kilobytes = value / max(with_pictures, 1) / 1000
            print(f"bytes written per round with pictures ({name}): {kilobytes:.1f} kB")

        empty = folder / "empty.sqlite"
        empty_starts: list[float] = []
        year_starts: list[float] = []
        for _ in range(args.starts):
            empty.unlink(missing_ok=True)
            empty_starts.append(time_to_first_screen(empty, folder))
            year_starts.append(time_to_first_screen(year, folder))
        print(f"start to first screen, empty journal  {spread(empty_starts, 's')}")
        print(f"start to first screen, year's journal {spread(year_starts, 's')}")
        ratio = statistics.median(year_starts) / statistics.median(empty_starts)
        print(f"ratio year / empty: {ratio:.2f}")

        command = [sys.executable, "-m", "companion", "history", "--journal", str(year)]
        listing = timed(lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL), 5)
        print(f"`companion history`, whole command    {spread([t / 1000 for t in listing], 's')}")
        with Journal(year) as journal:
            listed = timed(lambda: History(journal).games(), 5)
            count = len(History(journal).games())
        print(f"History.games() in the process ({count} games) {spread(listed)}")

        steps = loop_steps(folder)
        prunes, checkpoints = prune_times(year, 200)
        print(f"loop step (headless demo)             {spread(steps)}")
        print(
            f"one game's pictures pruned            {spread(prunes)}, worst {max(prunes):.1f} ms "
            f"({len(prunes)} prunes, {checkpoints} checkpoints on their thread meanwhile)"
        )
        print(f"ratio worst prune / median loop step: {max(prunes) / statistics.median(steps):.2f}")


if __name__ == "__main__":
    main()
