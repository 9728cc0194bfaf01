"""Render the guides' screenshots of the table's screen with the product itself.

    .venv/bin/python docs/make_screenshots.py

Plays a 12-player Dixit Party game on the simulated table (the demo, headless), set
up on the table's screens, and keeps one screen of each setup step and each phase,
then opens the round editor on that game and shows a lost camera, each drawn by the
real session, presenter and display. A few rounds of Dixit Odyssey, where a vote for
one's own card is a mistake, give the problem screen; a French group setting up a
Dixit in teams gives the French setup screens.
"""

import shutil
import tempfile
from pathlib import Path

from companion.actions import Action, Press
from companion.demo.demo import DemoGame, demo_config, run_demo
from companion.display.screen import DisplayMode, Screen
from companion.display.view import CameraView
from companion.journal import Journal
from companion.language import Language
from companion.rules import find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.session import Session, Settings
from companion.session.states import Phase
from companion.view.present import present

OUT = Path(__file__).with_name("screens")
PAGE = "http://192.168.1.23:8080/"
"""The phone page's address, as a café's router might give the Pi: its QR code is on
every screen, as at a table."""
SEED = 4
SETUP_PICKS = {
    "language": "setup-language.png",
    "edition": "setup-edition.png",
    "seats-done": "setup-seats.png",
    "names-done": "setup-names.png",
    "options": "setup-options.png",
}
FRENCH_PICKS = {
    "edition": "setup-edition-fr.png",
    "seats-done": "setup-seats-fr.png",
}
PICKS = {
    **SETUP_PICKS,
    "setup": "setup.png",
    "proposal": "proposal.png",
    "clearing": "clearing.png",
    "winner": "winner.png",
}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        shots = Path(folder) / "shots"
        party = Path(folder) / "journal.sqlite"
        result = run_demo(
            demo_config(party),
            DemoGame(find_ruleset("party"), 12, seed=SEED, out=shots),
            page=lambda: PAGE,
        )
        with Journal(party) as journal:
            names = sorted(p.name for p in shots.iterdir())
            for phase, target in PICKS.items():
                found = [n for n in names if n.endswith(f"-{phase}.png")]
                if found:
                    shutil.copy(shots / found[len(found) // 2], OUT / target)
            stored = journal.load(result.game_id)
            session = Session.resumed(
                stored, JournalEffects(journal), Settings(tuple(range(1, 13)))
            )
            screen = Screen(mode=DisplayMode.HEADLESS)
            try:
                session.press(Press(Action.FIX), 0.0)
                editor = session.state.editor
                assert editor is not None and session.state.phase is Phase.EDITING
                vote = next(i for i, r in enumerate(editor.rows) if r.kind.value == "vote")
                session.press(Press(Action.PICK, vote), 0.0)
                session.press(Press(Action.RIGHT), 0.0)
                screen.show(present(session.state, 0.0, None, page=PAGE))
                screen.save_png(OUT / "editor.png")
                session.press(Press(Action.BACK), 0.0)
                session.press(Press(Action.UNDO), 0.0)
                lost = CameraView(
                    None,
                    "camera lost: the camera did not answer (trying again); "
                    "the game goes on by hand: press Fix",
                    working=False,
                )
                screen.show(present(session.state, 10.0, lost, page=PAGE))
                screen.save_png(OUT / "camera-lost.png")
            finally:
                screen.close()
        shots = Path(folder) / "odyssey"
        run_demo(
            demo_config(Path(folder) / "odyssey.sqlite"),
            DemoGame(find_ruleset("odyssey"), 8, seed=SEED, out=shots, rounds=8),
            page=lambda: PAGE,
        )
        problems = sorted(p for p in shots.iterdir() if p.name.endswith("-waiting-problem.png"))
        shutil.copy(problems[0], OUT / "waiting-problem.png")
        shots = Path(folder) / "teams-fr"
        run_demo(
            demo_config(Path(folder) / "teams.sqlite"),
            DemoGame(
                find_ruleset("teams"), 8, language=Language.FRENCH, seed=SEED, out=shots, rounds=1
            ),
            page=lambda: PAGE,
        )
        names = sorted(p.name for p in shots.iterdir())
        for step, target in FRENCH_PICKS.items():
            found = [n for n in names if n.endswith(f"-{step}.png")]
            shutil.copy(shots / found[-1], OUT / target)
    print(f"screens written to {OUT}")


if __name__ == "__main__":
    main()
