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

import pygame
import pytest

from companion.cli import demo as demo_command
from companion.cli import main
from companion.demo.demo import run_demo
from companion.demo.group import NAMES
from companion.display.screen import DEFAULT_SIZE
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
@pytest.mark.parametrize(
    ("language", "screen", "names_given"),
    [
        (Language.ENGLISH, None, None),
        (Language.FRENCH, (800, 480), ("Léa", "Jean-Baptiste", "Zoé", "Marie-Christine")),
    ],
    ids=["en", "fr-800x480-names"],
)
def test_the_headless_demo_sets_up_a_game_in_the_language_picked_then_plays_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    language: Language,
    screen: tuple[int, int] | None,
    names_given: tuple[str, ...] | None,
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
            *(() if screen is None else ("--screen", f"{screen[0]}x{screen[1]}")),
            *(() if names_given is None else ("--names", ",".join(names_given))),
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
    sizes = {pygame.image.load(str(shots / name)).get_size() for name in names}
    assert sizes == {screen or DEFAULT_SIZE}

    seated = names_given or NAMES[:PLAYERS]
    with Journal(journal) as kept:
        stored = kept.load(1)
    assert stored.game.seating.players == seated
    assert [stored.colours[name] for name in seated] == list(KIT_COLOURS[:PLAYERS])
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


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--screen", "800"], "--screen '800': give WIDTHxHEIGHT in pixels, like 1280x720"),
        (["--screen", "640x480"], "--screen 640x480: the screen must be from 800x480"),
        (["--screen", "99999999x1"], "--screen '99999999x1': give WIDTHxHEIGHT"),
        (["--names", "Ann,Ben,ann"], "--names 'ann': ann is already the name of another seat"),
        (["--names", "Ann,,Ben"], "--names '': player name '' is empty"),
        (["--names", "Ann,Be\nn,Cleo"], "holds a control character"),
        (["--names", ",".join(f"P{n}" for n in range(13))], "13 names; the kit has 12 seats"),
        (["--names", "Ann,Ben,Cleo", "--players", "4"], "--players 4 but --names gives 3"),
        (["--names", "Ann,Ben", "--ruleset", "odyssey"], "played by 3, 4, 5"),
    ],
)
def test_a_wrong_screen_size_or_list_of_names_is_refused_in_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], said: str
) -> None:
    journal = tmp_path / "demo.sqlite"
    status = main(["demo", "--headless", "--no-web", "--journal", str(journal), *arguments])
    error = capsys.readouterr().err
    assert status == 2
    assert error.startswith("companion demo: ") and said in error, error
    assert error.count("\n") == 1
    assert not journal.exists()


def test_names_are_kept_as_typed_in_nfc_and_trimmed() -> None:
    decomposed = "Le\u0301a"  # "Léa" typed as "e" and an accent
    assert demo_command.demo_names(f" {decomposed} ,Zoé") == ("Léa", "Zoé")
