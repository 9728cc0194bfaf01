"""`companion demo --headless` sets a game up on the table's screens, in the language
the group picks, and plays it: every setup step is seen and saved, and the journal's
game has the seats the tokens gave and the names typed.

Short games (one round) on the 8-slot classic board, which the simulator draws far
faster than the 12-slot Odyssey board; whole games of every edition are
`tests/demo/test_demo_games.py`'s.
"""

import functools
import re
from pathlib import Path

import pytest

from companion.cli import demo as demo_command
from companion.cli import main
from companion.demo.demo import run_demo
from companion.demo.group import NAMES
from companion.journal import Journal
from companion.language import Language
from companion.runtime.loop import Loop
from companion.session.draft import KIT_COLOURS
from companion.session.states import Phase

BOARD = "classic-8"
PLAYERS = 4
STEPS = ("language", "edition", "seats", "names", "options", "setup")
"""The setup steps' phases, as the screens saved are named."""


@pytest.mark.slow
@pytest.mark.parametrize("language", list(Language))
def test_the_headless_demo_sets_up_a_game_in_the_language_picked_then_plays_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    language: Language,
) -> None:
    spoken: set[Language] = set()

    def step(loop: Loop) -> None:
        Loop.step(loop)
        if loop.session.state.phase is not Phase.LANGUAGE:
            spoken.add(loop.session.state.language)

    monkeypatch.setattr(demo_command, "run_demo", functools.partial(run_demo, step=step))
    journal, shots = tmp_path / "demo.sqlite", tmp_path / "screens"
    status = main(
        [
            "demo",
            "--headless",
            "--layout",
            BOARD,
            "--players",
            str(PLAYERS),
            "--rounds",
            "1",
            "--auto-confirm",
            "0.3",
            "--language",
            language.value,
            "--journal",
            str(journal),
            "--out",
            str(shots),
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert spoken == {language}
    assert re.search(r"^round 1 \(.*\): .* - read as laid$", out, re.MULTILINE), out
    assert re.search(r"^demo: first round scored \d+\.\d s after the setup finished$", out, re.M)

    names = sorted(p.name for p in shots.iterdir())
    firsts = []
    for phase in STEPS:
        seen = [i for i, name in enumerate(names) if name.endswith(f"-{phase}.png")]
        assert seen, f"no screen of the {phase} step in {names}"
        firsts.append(seen[0])
    assert firsts == sorted(firsts) and names[0].endswith("-language.png")
    assert any(name.endswith("-seats-done.png") for name in names), names
    assert names[-1].endswith("clearing.png")

    with Journal(journal) as kept:
        stored = kept.load(1)
    assert stored.game.seating.players == NAMES[:PLAYERS]
    assert [stored.colours[name] for name in NAMES[:PLAYERS]] == list(KIT_COLOURS[:PLAYERS])
    assert stored.game.ruleset.name == "odyssey"


def test_one_edition_or_all_of_them_not_both(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--all", "--ruleset", "classic"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_language_the_table_does_not_speak_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--language", "de"])
    assert exit_.value.code == 2
    assert "invalid choice: 'de'" in capsys.readouterr().err
