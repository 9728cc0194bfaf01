"""`companion history archive` and `companion history import`: the two words that write,
refused while the table holds the journal, each file's fault told in one line."""

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.journal import (
    DamagedGame,
    GameStatus,
    GameSummary,
    Journal,
    archive_path,
    read_history,
)
from companion.journal.imports import as_record, game_digest
from tests.journal.helpers import ROOT, example, play_into

LONG_AGO = datetime(2020, 3, 14, 20, 0, tzinfo=UTC)
MODIFIED = datetime(2025, 5, 1, 18, 30, tzinfo=UTC)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["history", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """Two games finished long ago, and a game being played now."""
    path = tmp_path / "journal.sqlite"
    with Journal(path, clock=lambda: LONG_AGO) as journal:
        play_into(journal, example("classic-1e-4-players"))
        play_into(journal, example("odyssey-8-players"))
    with Journal(path) as journal:
        play_into(journal, example("party-1e-7-players"), 2)
    return path


def archived(line: GameSummary | DamagedGame) -> bool:
    return isinstance(line, GameSummary) and line.archived


def game_file(folder: Path, name: str, stem: str, players: dict[str, str] | None = None) -> Path:
    """An example game written as a game file, its players renamed (colour to name)."""
    doc: dict[str, Any] = json.loads((ROOT / "examples" / f"{stem}.json").read_text())
    named = players or {}

    def rename(player: str) -> str:
        return named.get(player, player)

    doc["players"] = [rename(p) for p in doc["players"]]
    doc["first_storyteller"] = rename(doc["first_storyteller"])
    for played in doc["rounds"]:
        played["cards"] = {slot: rename(p) for slot, p in played["cards"].items()}
        played["votes"] = {rename(p): slots for p, slots in played["votes"].items()}
    path = folder / name
    path.write_text(json.dumps(doc))
    stamp = MODIFIED.timestamp()
    os.utime(path, (stamp, stamp))
    return path


# Archiving


def test_old_finished_games_move_into_the_archive_and_are_still_listed(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = archive_path(journal_path)
    status, out, err = run(capsys, "--journal", str(journal_path), "archive")
    assert (status, out, err) == (0, f"moved 2 games to {archive}\n", "")
    with read_history(journal_path) as history:
        assert [(g.id, archived(g)) for g in history.games()] == [
            (3, False),
            (2, True),
            (1, True),
        ]
        assert history.file.resume() is not None
    status, out, _ = run(capsys, "--journal", str(journal_path))
    assert status == 0
    assert [line.split("  ")[0] for line in out.splitlines() if "(archived)" in line] == [
        "game 2",
        "game 1",
    ]


def test_nothing_older_than_the_days_given_moves_and_no_archive_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"))
        play_into(journal, example("odyssey-8-players"), 1)
    status, out, err = run(capsys, "--journal", str(path), "archive", "--older-than", "30")
    assert (status, out, err) == (0, "no finished game is older than 30 days\n", "")
    assert not archive_path(path).exists()


def test_older_than_zero_days_moves_every_finished_game_but_the_newest(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "--journal", str(journal_path), "archive", "--older-than", "0")
    assert (status, out) == (0, f"moved 2 games to {archive_path(journal_path)}\n")
    status, out, _ = run(capsys, "--journal", str(journal_path), "archive", "--older-than", "0")
    assert (status, out) == (0, "no finished game is older than 0 days\n")


def test_more_days_than_the_calendar_holds_moves_nothing(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    days = str(10**12)
    status, out, err = run(capsys, "--journal", str(journal_path), "archive", "--older-than", days)
    assert (status, out, err) == (0, f"no finished game is older than {days} days\n", "")


@pytest.mark.parametrize("words", [["archive"], ["import", "game.json"]])
def test_the_words_that_write_are_refused_while_the_table_holds_the_journal(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str]
) -> None:
    game_file(tmp_path, "game.json", "teams-8-players")
    before = journal_path.read_bytes()
    with Journal(journal_path):  # the table playing
        status, out, err = run(
            capsys,
            "--journal",
            str(journal_path),
            *[str(tmp_path / w) if w.endswith(".json") else w for w in words],
        )
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"companion history: the journal {journal_path} is in use by process ")
    assert err.endswith(
        "stop the table first (`sudo systemctl stop dixit-companion` on the Pi), "
        "then run this again\n"
    )
    assert journal_path.read_bytes() == before
    assert not archive_path(journal_path).exists()


def test_archiving_never_makes_a_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    status, out, err = run(capsys, "--journal", str(path), "archive")
    assert (status, out) == (2, "")
    assert err == f"companion history: {path}: no journal here (`companion play` starts one)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_games_imported_before_the_first_game_start_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state" / "journal.sqlite"
    game = game_file(tmp_path, "paper.json", "classic-1e-4-players")
    status, out, err = run(capsys, "--journal", str(path), "import", str(game))
    assert (status, err) == (0, "")
    assert out == f"{game}: game 1 (classic-1e, 4 players, 15 rounds)\n"
    with Journal(path) as journal:
        assert journal.load(1).status is GameStatus.FINISHED
        assert journal.resume() is None


# Importing


def test_a_game_file_is_imported_as_a_finished_game_replayed_by_the_rules(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = game_file(tmp_path, "teams.json", "teams-8-players")
    status, out, err = run(capsys, "--journal", str(journal_path), "import", str(path))
    assert (status, err) == (0, "")
    assert out == f"{path}: game 4 (teams, 8 players, 10 rounds)\n"
    with Journal(journal_path) as journal:
        stored = journal.load(4)
        assert stored.started_at == MODIFIED
        assert dict(stored.game.totals) == dict(example("teams-8-players").play().totals)
        resumed = journal.resume()
        assert resumed is not None and resumed.id == 3
    digest = game_digest(as_record(stored.game))  # the game's, however its file was saved
    with Journal(journal_path) as journal:
        assert journal.import_game(stored.game, stored.colours, MODIFIED, digest) is None


def test_players_named_after_a_kit_colour_get_it_and_the_others_the_first_free(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = {"red": "Ann", "blue": "Rouge", "green": "blue", "yellow": "Violet"}
    path = game_file(tmp_path, "named.json", "classic-1e-4-players", names)
    status, out, err = run(capsys, "--journal", str(journal_path), "import", str(path))
    assert (status, err) == (0, "")
    assert out == f"{path}: game 4 (classic-1e, 4 players, 15 rounds)\n"
    with Journal(journal_path) as journal:
        colours = dict(journal.load(4).colours)
    assert colours == {"Ann": "green", "Rouge": "red", "blue": "blue", "Violet": "violet"}


def test_a_file_imported_before_is_skipped_even_once_archived(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(game_file(tmp_path, "teams.json", "teams-8-players"))
    assert run(capsys, "--journal", str(journal_path), "import", path)[0] == 0
    status, out, err = run(capsys, "--journal", str(journal_path), "import", path)
    assert (status, out, err) == (0, f"{path}: already imported as game 4\n", "")
    with Journal(journal_path) as journal:
        play_into(journal, example("party-1e-7-players"), 1)  # game 4 is no longer the newest
    assert run(capsys, "--journal", str(journal_path), "archive", "--older-than", "0")[0] == 0
    with read_history(journal_path) as history:
        assert [g.id for g in history.games() if archived(g)] == [4, 2, 1]
    status, out, err = run(capsys, "--journal", str(journal_path), "import", path)
    assert (status, out, err) == (0, f"{path}: already imported as game 4\n", "")


def test_an_illegal_game_is_refused_naming_the_file_and_round_and_the_others_imported(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = game_file(tmp_path, "bad.json", "party-1e-7-players")
    doc = json.loads(bad.read_text())
    doc["rounds"][4]["trap"] = 95
    bad.write_text(json.dumps(doc))
    good = game_file(tmp_path, "good.json", "odyssey-8-players")
    status, out, err = run(capsys, "--journal", str(journal_path), "import", str(bad), str(good))
    assert status == 2
    assert out == f"{good}: game 4 (odyssey, 8 players, 9 rounds)\n"
    assert err == (
        f"companion history: {bad}: round 5: the trap is on slot 95, which holds no card; "
        "not imported\n"
    )
    with read_history(journal_path) as history:
        assert [g.id for g in history.games()] == [4, 3, 2, 1]


def test_hostile_files_are_each_refused_in_one_line(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "text.json").write_text("not json at all")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    with (tmp_path / "huge.json").open("wb") as huge:
        huge.truncate(17 * 2**20)
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "empty.json").write_text(json.dumps({**_no_rounds(), "rounds": []}))
    names = ["text.json", "binary.json", "huge.json", "folder", "missing.json", "pipe"]
    files = [str(tmp_path / name) for name in [*names, "empty.json"]]
    before = journal_path.read_bytes()
    status, out, err = run(capsys, "--journal", str(journal_path), "import", *files)
    assert (status, out) == (2, "")
    assert "Traceback" not in err
    lines = err.splitlines()
    reasons = [
        line.removeprefix(f"companion history: {name}: ")
        for line, name in zip(lines, files, strict=True)
    ]
    assert reasons == [
        "not JSON: Expecting value at line 1, column 1; not imported",
        "not UTF-8 text, so not a game file; not imported",
        "larger than 16 MB, so not a game file; not imported",
        "a folder, not a game file; not imported",
        "No such file or directory; not imported",
        "not a regular file, so not a game file; not imported",
        "the game has no rounds, so there is nothing to keep; not imported",
    ]
    with read_history(journal_path) as history:
        assert len(history.games()) == 3
    assert journal_path.read_bytes() == before


def _no_rounds() -> dict[str, Any]:
    return {"ruleset": "classic-1e", "players": ["a", "b", "c"], "first_storyteller": "a"}


def test_an_archive_left_empty_by_a_killed_archiving_does_not_stop_an_import(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive_path(journal_path).touch()
    path = game_file(tmp_path, "teams.json", "teams-8-players")
    status, out, err = run(capsys, "--journal", str(journal_path), "import", str(path))
    assert (status, out, err) == (0, f"{path}: game 4 (teams, 8 players, 10 rounds)\n", "")
