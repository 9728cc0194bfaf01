"""`companion demo --headless` sets up and plays a whole game of every ruleset to its
end, and the journal's export, as `companion history` and the phone page give it,
scores to the totals the demo showed.

The games are played on the 8-slot classic board (`BOARD`), which the simulator
draws in far less time than the 12-slot Odyssey board: the same promise for every
ruleset in about half the time. The large board's reading is shown by the reader's
accuracy tests (`tests/vision/test_reading_accuracy.py`) and by the README's demo.
"""

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules import RULESETS
from tests.web.desk import Desk, served, setting_up_desk

BOARD = "classic-8"
"""The board of every game: 8 slots hold every ruleset's round at its default players."""
SUMMARY = re.compile(
    r"demo: game (\d+) over after (\d+) rounds; (\d+) of the (\d+) rounds scored in this run "
    r"read exactly as laid"
)


def play(ruleset: str, folder: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "companion", "demo", "--headless", "--ruleset", ruleset]
    command += ["--layout", BOARD, "--no-web"]
    command += ["--journal", str(folder / f"{ruleset}.sqlite"), "--out", str(folder / ruleset)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.mark.slow
def test_the_headless_demo_plays_every_ruleset_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(RULESETS, pool.map(lambda r: play(r, tmp_path), RULESETS), strict=True))
    with setting_up_desk(tmp_path / "page.sqlite") as desk:
        for ruleset, run in runs.items():
            check(ruleset, run, tmp_path, desk, capsys)


def check(
    ruleset: str,
    run: subprocess.CompletedProcess[str],
    tmp_path: Path,
    desk: Desk,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One ruleset's game: read exactly, every step seen, exported to its totals."""
    assert run.returncode == 0, f"{ruleset}: {run.stdout}{run.stderr}"
    found = SUMMARY.search(run.stdout)
    assert found is not None, run.stdout
    game_id, rounds, exact, scored = map(int, found.groups())
    assert exact == scored == rounds, run.stdout
    shots = sorted(p.name for p in (tmp_path / ruleset).iterdir())
    assert shots[0].endswith("language.png") and shots[-1].endswith("winner.png")
    assert any(shot.endswith("-setup.png") for shot in shots), shots

    export = tmp_path / f"{ruleset}.json"
    journal = str(tmp_path / f"{ruleset}.sqlite")
    assert main(["history", "--journal", journal, str(game_id), "--export", str(export)]) == 0
    capsys.readouterr()
    with served(desk, journal=Path(journal)) as page:
        answer = page.get(f"/api/games/{game_id}/export")
    assert answer.status_code == 200, answer.text
    assert answer.json() == json.loads(export.read_text(encoding="utf-8"))
    assert main(["score", str(export)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] is True
    shown = ", ".join(f"{name} {total}" for name, total in result["totals"].items())
    assert f"final totals: {shown}" in run.stdout.splitlines(), ruleset
