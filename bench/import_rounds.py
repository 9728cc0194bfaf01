"""Benchmark of `companion history import` on long games: its time grows with the rounds.

    .venv/bin/python bench/import_rounds.py [--rounds 1000 4000 16000] [--runs 5]

For each number of rounds it writes one legal game file of Dixit Odyssey for eight
players that long (the shipped example's eight rounds, one per storyteller, again and
again, with no target to end it sooner), then times, whole command and in a process
of its own each time, `companion history import` of that file into a new journal,
and `companion score` of the same file for comparison (which reads the file and plays
every round through the rules, as the import does before keeping them). It prints
the median with the spread (least to most) of `--runs` runs, the time per thousand
rounds, the ratio of each size's median to the first's over the ratio of their rounds
(1.0 for time in proportion to the rounds; a doubling of that figure for each
fourfold of the rounds is time growing as their square), and the journal's own part:
the import's median less the score's, per thousand rounds.

Nothing here fails on time: it prints what it measured.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "odyssey-8-players.json"


def long_game(folder: Path, rounds: int) -> Path:
    """A legal game file of `rounds` rounds."""
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    cycle = doc["rounds"][:8]
    doc["options"] = {"target": None, "round_limit": rounds}
    doc["rounds"] = [cycle[n % 8] for n in range(rounds)]
    path = folder / f"game-{rounds}.json"
    path.write_text(json.dumps(doc))
    return path


def seconds(command: Sequence[str]) -> float:
    """The wall time of one run of a command, which must succeed."""
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def spread(values: Sequence[float]) -> str:
    return f"{statistics.median(values):7.2f} s ({min(values):.2f} to {max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, nargs="+", default=[1000, 4000, 16000])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    companion = [sys.executable, "-m", "companion"]
    first: tuple[int, float] | None = None
    print(
        f"{'rounds':>7}  {'history import':<26} {'per 1,000':>9}  {'ratio':>5}  "
        f"{'score':<26} {'journal per 1,000':>17}"
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for rounds in args.rounds:
            game = long_game(folder, rounds)
            imports, scores = [], []
            for run in range(args.runs):
                journal = folder / f"journal-{rounds}-{run}.sqlite"
                imports.append(
                    seconds([*companion, "history", "--journal", str(journal), "import", str(game)])
                )
                scores.append(seconds([*companion, "score", str(game)]))
            median = statistics.median(imports)
            first = first or (rounds, median)
            ratio = (median / first[1]) / (rounds / first[0])
            own = (median - statistics.median(scores)) / rounds * 1000
            print(
                f"{rounds:>7}  {spread(imports):<26} {median / rounds * 1000:>7.2f} s  "
                f"{ratio:>5.2f}  {spread(scores):<26} {own:>15.2f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
