"""`companion score`: games from files or stdin, one JSON line each; exit 2 on bad input."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
EXAMPLES = ROOT / "examples"
RULEBOOK = [p for p in GOLDEN.glob("rulebook-*.json") if not p.name.endswith(".expected.json")]
GAMES = sorted(RULEBOOK) + sorted(EXAMPLES.glob("*.json"))


def expected(game: Path) -> object:
    return json.loads((GOLDEN / f"{game.stem}.expected.json").read_text())


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_golden_games_score_as_recorded(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(game)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert json.loads(out) == expected(game)


def test_every_golden_game_has_a_recorded_result() -> None:
    assert len(GAMES) == len(list(GOLDEN.glob("*.expected.json")))


def test_shipped_examples_play_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *map(str, sorted(EXAMPLES.glob("*.json")))]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == 4
    assert all(r["finished"] and r["winners"] for r in results)


def test_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = GOLDEN / "rulebook-001-classic-six-players.json"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(game.read_bytes())))
    assert main(["score", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == expected(game)


def test_a_bad_file_among_good_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"ruleset": "chess"}')
    good = GOLDEN / "rulebook-001-classic-six-players.json"
    assert main(["score", str(good), str(bad), str(good)]) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2
    assert (
        captured.err
        == f"companion score: {bad}: the game lacks 'first_storyteller', 'players', 'rounds'\n"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"this is not json", "not JSON: Expecting value at line 1, column 1"),
        (b"\xff\xfe\x00", "not UTF-8 text, so not a game file"),
        (
            b'{"ruleset": "classic", "players": "abc", "first_storyteller": "a", "rounds": []}',
            "players must be a JSON list, not the string 'abc'",
        ),
    ],
)
def test_bad_files_exit_2_with_one_line_and_no_traceback(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    run = subprocess.run(
        [sys.executable, "-m", "companion", "score", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == f"companion score: {path}: {message}\n"


def test_an_illegal_round_names_round_player_and_slot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads((GOLDEN / "rulebook-001-classic-six-players.json").read_text())
    doc["rounds"][0]["votes"]["blue"] = [3]
    path = tmp_path / "own.json"
    path.write_text(json.dumps(doc))
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err == f"companion score: {path}: round 1: blue voted for slot 3, their own card\n"
    )


def test_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(tmp_path / "nope.json")]) == 2
    assert (
        capsys.readouterr().err
        == f"companion score: {tmp_path / 'nope.json'}: No such file or directory\n"
    )


def test_a_file_starting_with_a_byte_order_mark_scores_as_without(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = GOLDEN / "rulebook-001-classic-six-players.json"
    marked = tmp_path / "bom.json"
    marked.write_bytes(b"\xef\xbb\xbf" + game.read_bytes())
    assert main(["score", str(marked)]) == 0
    assert json.loads(capsys.readouterr().out) == expected(game)
