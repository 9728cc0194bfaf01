"""Demo games for the demo-game tests: `companion demo --headless` as its own process,
and what each run must show.

A whole game is set up on the table's screens and played to its winner; a short one
is set up the same way and stopped after a few rounds, for an edition whose whole
game would take only paths that another edition's whole game takes. Either way every
round scored is read exactly as laid, and the journal's export, as `companion
history` and the phone page give it, scores to the totals the demo showed.
"""

import json
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from tests.vision.scenes import LAYOUT_NAME
from tests.web.desk import served, setting_up_desk

BOARD = "classic-8"
"""8 slots hold every ruleset's round at its default players, and the simulator draws
it in far less time than the 12-slot Odyssey board. The large board's reading is
shown by the reader's accuracy tests and by the README's demo."""
SMALL_BOARD = LAYOUT_NAME
"""The 4-slot board of the vision tests, drawn at a quarter of the pixels: room for
4 players' rounds and seats."""
SUMMARY = re.compile(
    r"demo: game (\d+) (over|stopped) after (\d+) rounds?; (\d+) of the (\d+) rounds? scored in "
    r"this run read exactly as laid"
)


@dataclass(frozen=True)
class DemoGame:
    """One game the demo sets up and plays."""

    ruleset: str
    players: int | None = None
    """None: the demo's default for the ruleset."""
    board: str = BOARD
    rounds: int | None = None
    """Rounds after which the demo stops; None: the whole game, to its winner."""

    def __str__(self) -> str:
        players = "" if self.players is None else f"-{self.players}p"
        rounds = "" if self.rounds is None else f"-{self.rounds}-rounds"
        return f"{self.ruleset}{players}{rounds}"

    def command(self, folder: Path) -> list[str]:
        command = [sys.executable, "-m", "companion", "demo", "--headless", "--no-web"]
        command += ["--ruleset", self.ruleset, "--layout", self.board]
        command += ["--journal", str(self.journal(folder)), "--out", str(folder / str(self))]
        if self.players is not None:
            command += ["--players", str(self.players)]
        if self.rounds is not None:
            command += ["--rounds", str(self.rounds)]
        return command

    def journal(self, folder: Path) -> Path:
        return folder / f"{self}.sqlite"


Runs = Mapping[DemoGame, subprocess.CompletedProcess[str]]
"""Each game's finished demo process."""


def play_all(games: Sequence[DemoGame], folder: Path) -> Runs:
    """Play `games` two at a time, in the order given (the longest first)."""

    def play(game: DemoGame) -> subprocess.CompletedProcess[str]:
        return subprocess.run(game.command(folder), capture_output=True, text=True, check=False)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(games, pool.map(play, games), strict=True))


def check(
    game: DemoGame,
    run: subprocess.CompletedProcess[str],
    folder: Path,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, Any]:
    """One game: read exactly, every setup step seen, its end (the winner, or the
    rounds asked for) reached, exported to its totals. Returns the export."""
    assert run.returncode == 0, f"{game}: {run.stdout}{run.stderr}"
    found = SUMMARY.search(run.stdout)
    assert found is not None, run.stdout
    game_id, rounds, exact, scored = (int(found.group(n)) for n in (1, 3, 4, 5))
    whole = game.rounds is None
    assert found.group(2) == ("over" if whole else "stopped"), run.stdout
    assert exact == scored == rounds, run.stdout
    assert whole or rounds == game.rounds, run.stdout
    shots = sorted(p.name for p in (folder / str(game)).iterdir())
    assert shots[0].endswith("language.png")
    assert any(shot.endswith("-setup.png") for shot in shots), shots
    assert shots[-1].endswith("winner.png") is whole, shots

    export = folder / f"{game}.json"
    journal = game.journal(folder)
    assert main(["history", "--journal", str(journal), str(game_id), "--export", str(export)]) == 0
    capsys.readouterr()
    with (
        setting_up_desk(folder / f"{game}-page.sqlite") as desk,
        served(desk, journal=journal) as page,
    ):
        answer = page.get(f"/api/games/{game_id}/export")
    assert answer.status_code == 200, answer.text
    exported: dict[str, Any] = json.loads(export.read_text(encoding="utf-8"))
    assert answer.json() == exported
    assert exported["ruleset"] == game.ruleset
    assert game.players is None or len(exported["players"]) == game.players
    assert main(["score", str(export)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] is whole
    shown = ", ".join(f"{name} {total}" for name, total in result["totals"].items())
    assert f"final totals: {shown}" in run.stdout.splitlines(), game
    return exported
