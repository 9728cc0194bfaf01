"""`companion history import` takes a game once, however its file was saved: dedup is
by the game the file holds (what the journal keeps of it), not by the file's bytes, in
the journal and in its archive, and for games an older companion imported by bytes."""

import hashlib
import json
import os
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal, read_history
from tests.journal.helpers import ROOT, colours, example

LONG_AGO = datetime(2020, 3, 14, 20, 0, tzinfo=UTC)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["history", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def saved(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    os.utime(path, (LONG_AGO.timestamp(), LONG_AGO.timestamp()))
    return path


def ways_to_save(folder: Path, stem: str) -> list[Path]:
    """The same game saved as editors save it: as shipped, with a byte-order mark, indented
    with Windows line ends, and with its keys in another order."""
    text = (ROOT / "examples" / f"{stem}.json").read_text()
    doc = json.loads(text)
    reordered = {key: doc[key] for key in reversed(list(doc))}
    reordered["rounds"] = [{k: r[k] for k in reversed(list(r))} for r in doc["rounds"]]
    return [
        saved(folder, "plain.json", text.encode()),
        saved(folder, "bom.json", b"\xef\xbb\xbf" + text.encode()),
        saved(folder, "indented.json", json.dumps(doc, indent=4).replace("\n", "\r\n").encode()),
        saved(folder, "reordered.json", json.dumps(reordered).encode()),
    ]


def test_the_same_game_saved_four_ways_is_imported_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    files = ways_to_save(tmp_path, "teams-8-players")
    status, out, err = run(capsys, "--journal", str(path), "import", *map(str, files))
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        f"{files[0]}: game 1 (teams, 8 players, 10 rounds)",
        *(f"{file}: already imported as game 1" for file in files[1:]),
    ]
    with read_history(path) as history:
        assert [line.id for line in history.games()] == [1]


def test_another_game_is_still_imported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    doc = json.loads((ROOT / "examples" / "teams-8-players.json").read_text())
    one = saved(tmp_path, "one.json", json.dumps(doc).encode())
    doc["rounds"] = doc["rounds"][:-1]
    other = saved(tmp_path, "other.json", json.dumps(doc).encode())
    status, out, _ = run(capsys, "--journal", str(path), "import", str(one), str(other))
    assert status == 0
    assert out.splitlines() == [
        f"{one}: game 1 (teams, 8 players, 10 rounds)",
        f"{other}: game 2 (teams, 8 players, 9 rounds)",
    ]


@pytest.mark.parametrize("archived", [False, True])
def test_a_game_an_older_companion_imported_by_its_bytes_is_not_imported_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], archived: bool
) -> None:
    path = tmp_path / "journal.sqlite"
    files = ways_to_save(tmp_path, "odyssey-8-players")
    game = example("odyssey-8-players").play()
    with Journal(path) as journal:  # as the older companion kept it: the file's SHA-256
        digest = hashlib.sha256(files[0].read_bytes()).hexdigest()
        assert journal.import_game(game, colours(game), LONG_AGO, digest) == 1
        first = game.played[0].score.round.reveal  # corrected since: still the same file
        journal.correct_round(1, 1, replace(first, votes={**first.votes, "blue": (3,)}))
        start = example("party-1e-7-players").start
        journal.start_game(start, colours(start))
    if archived:
        status, out, _ = run(capsys, "--journal", str(path), "archive", "--older-than", "0")
        assert (status, out) == (0, f"moved 1 game to {tmp_path / 'journal.archive.sqlite'}\n")
    status, out, err = run(capsys, "--journal", str(path), "import", *map(str, files))
    assert (status, err) == (0, "")
    assert out.splitlines() == [f"{file}: already imported as game 1" for file in files]
    with read_history(path) as history:
        assert [line.id for line in history.games()] == [2, 1]
