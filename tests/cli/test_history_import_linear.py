"""`companion history import` takes time in proportion to a game's rounds: the work it
does, counted as function calls (the same on any machine, unlike seconds), grows by
the same amount for every round added, and the rules engine scores each round once."""

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from companion.cli import main
from companion.rules import Game
from tests.journal.helpers import ROOT


def long_game(folder: Path, rounds: int) -> Path:
    """A legal Odyssey game of `rounds` rounds for eight players: the example's eight
    rounds (one per storyteller) again and again, with no target to end it sooner."""
    doc: dict[str, Any] = json.loads((ROOT / "examples" / "odyssey-8-players.json").read_text())
    cycle = doc["rounds"][:8]
    doc["options"] = {"target": None, "round_limit": rounds}
    doc["rounds"] = [cycle[n % 8] for n in range(rounds)]
    path = folder / f"game-{rounds}.json"
    path.write_text(json.dumps(doc))
    return path


@contextmanager
def counted() -> Iterator[dict[str, int]]:
    """Counts of the calls made in the block: every call (Python and built-in), and the
    rules engine's scoring of a round."""
    counts = {"calls": 0, "scored": 0}
    scoring = Game._score_after.__code__  # what `play`, `play_all` and `score` score with

    def hook(frame: FrameType, event: str, _: object) -> None:
        if event in ("call", "c_call"):
            counts["calls"] += 1
            if event == "call" and frame.f_code is scoring:
                counts["scored"] += 1

    sys.setprofile(hook)
    try:
        yield counts
    finally:
        sys.setprofile(None)


def imported(folder: Path, rounds: int) -> dict[str, int]:
    game = long_game(folder, rounds)
    journal = folder / f"journal-{rounds}.sqlite"
    with counted() as counts:
        status = main(["history", "--journal", str(journal), "import", str(game)])
    assert status == 0
    return counts


def test_importing_a_game_costs_the_same_for_each_round_added(tmp_path: Path) -> None:
    small, middle, large = (imported(tmp_path, rounds) for rounds in (200, 400, 800))
    assert [c["scored"] for c in (small, middle, large)] == [200, 400, 800]
    first = (middle["calls"] - small["calls"]) / 200  # per round, from 200 to 400 rounds
    then = (large["calls"] - middle["calls"]) / 400  # per round, from 400 to 800 rounds
    assert then <= 1.1 * first, (small, middle, large)
