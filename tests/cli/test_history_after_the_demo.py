"""Right after the demo, `companion history` shows the demo's game: the demo keeps its
own journal beside the table's (never in it), and `history` reads it while the state
folder holds no table's journal, saying so; once a table has a journal, `history`
reads that one and the demo prints the `--journal` that shows its game."""

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.statedir import STATE_DIR_VARIABLE
from tests.vision.scenes import LAYOUT_NAME

DEMO = ["demo", "--headless", "--no-web", "--layout", LAYOUT_NAME, "--players", "4"]
DEMO += ["--rounds", "1", "--auto-confirm", "0.3"]


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv(STATE_DIR_VARIABLE, str(folder))
    return folder


def test_history_right_after_the_demo_shows_its_game(
    tmp_path: Path, state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*DEMO, "--out", str(tmp_path / "screens")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^demo: game 1 stopped after 1 round; 1 of the 1 round scored ", out, re.M)
    assert "demo: see it with: companion history 1 (add --export for its game file)" in out
    assert not (state / "journal.sqlite").exists()  # the table's journal is left alone

    assert main(["history"]) == 0
    listed = capsys.readouterr()
    assert re.match(r"game 1  .*  odyssey  Ann, Ben, Cleo, Dan  1 round  playing  ", listed.out)
    assert listed.err == (
        f"companion history: no table journal at {state / 'journal.sqlite'}; "
        f"read the demo's, {state / 'demo.sqlite'}\n"
    )
    assert main(["history", "2"]) == 2  # a failure is one line, naming the demo's journal
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"{state / 'demo.sqlite'}: " in error, error
    assert main(["history", "1", "--export"]) == 0
    assert '"ruleset": "odyssey"' in capsys.readouterr().out


def test_a_table_s_journal_is_what_history_reads_and_the_demo_names_its_own(
    tmp_path: Path, state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state.mkdir()
    Journal(state / "journal.sqlite").close()  # a table that has not played yet
    assert main([*DEMO, "--out", str(tmp_path / "screens")]) == 0
    demo = state / "demo.sqlite"
    assert f"demo: see it with: companion history --journal {demo} 1 " in capsys.readouterr().out

    assert main(["history"]) == 0
    listed = capsys.readouterr()
    assert listed.out == f"no games yet in {state / 'journal.sqlite'}\n" and listed.err == ""
    assert main(["history", "--journal", str(demo)]) == 0
    assert capsys.readouterr().out.startswith("game 1  ")


def test_archiving_and_importing_never_take_the_demo_s_journal_for_the_table_s(
    tmp_path: Path, state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state.mkdir()
    Journal(state / "demo.sqlite").close()
    assert main(["history", "archive"]) == 2
    assert str(state / "journal.sqlite") in capsys.readouterr().err
    assert not (state / "journal.sqlite").exists()
