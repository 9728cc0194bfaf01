"""The demo's memory stays flat over 60 rounds: nothing per round or per frame is kept."""

from pathlib import Path

import pytest

from companion.demo.demo import DemoGame, demo_config, run_demo
from companion.rules import find_ruleset
from tests.vision.scenes import LAYOUT_NAME

ROUNDS = 60
"""Forty rounds past `FIRST`: one frame kept a round would be 9 MB a round, 360 MB
in all, far past the allowance. It was 100 rounds; the soak
(`tests/runtime/test_soak.py`) shows flatness over a thousand through the same loop,
so this test only has to catch what the demo's simulated camera would keep."""
FIRST = 20
"""Round after which every bounded cache (text, table pictures) is full."""
ALLOWED_MB = 64.0
"""Growth from round 20 to 60 taken as flat: allocator noise, not a leak."""


def resident_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 1e6


@pytest.mark.slow
def test_memory_stays_flat_over_sixty_rounds(tmp_path: Path) -> None:
    memory: dict[int, float] = {}

    def said(line: str) -> None:
        if line.startswith("round "):
            memory[int(line.split()[1])] = resident_mb()

    endless = find_ruleset("odyssey").with_options({"target": None, "storyteller_turns": 1000})
    result = run_demo(
        demo_config(tmp_path / "journal.sqlite", auto_confirm=0.3),
        DemoGame(endless, 4, layout=LAYOUT_NAME, rounds=ROUNDS),
        say=said,
    )
    assert result.scored == ROUNDS
    assert result.exact == ROUNDS
    grown = memory[ROUNDS] - memory[FIRST]
    print(
        f"resident memory: round {FIRST} {memory[FIRST]:.0f} MB, round {ROUNDS} {memory[ROUNDS]:.0f} MB"
    )
    assert grown < ALLOWED_MB, {n: round(mb) for n, mb in sorted(memory.items())}
