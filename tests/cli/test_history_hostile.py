"""`companion history` against hostile journals: damaged rounds, huge numbers, outputs
aimed at the journal, files of other programs; never a traceback, never a wrong total."""

import json
import os
import random
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.doctor.findings import Status
from companion.doctor.storage import journal_check
from companion.journal import Journal
from tests.journal.helpers import example, frame_of, play_into

CLASSIC = "classic-1e-4-players"


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """A journal holding the classic example game, finished."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example(CLASSIC))
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["history", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_line_error(status: int, err: str) -> str:
    assert status == 2
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def tamper(path: Path, statement: str, *params: object) -> None:
    conn = sqlite3.connect(path)
    conn.execute(statement, params)
    conn.commit()
    conn.close()


def fingerprint(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def test_a_round_changed_behind_the_journal_lists_the_replayed_totals(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, before, _ = run(capsys, "--journal", str(journal_path))
    assert status == 0
    tamper(journal_path, 'UPDATE rounds SET totals = \'{"red":99,"blue":0,"green":0,"yellow":0}\'')
    status, after, err = run(capsys, "--journal", str(journal_path))
    assert (status, err) == (0, "")
    assert after == before
    status, rounds, err = run(capsys, "--journal", str(journal_path), "1")
    assert (status, err) == (0, "")
    assert "red 99" not in rounds


@pytest.mark.parametrize(
    ("statement", "damage"),
    [
        ("UPDATE rounds SET reveal = 'garbage' WHERE number = 4", "round 4 is damaged"),
        ("UPDATE rounds SET reveal = '[]' WHERE number = 4", "round 4 is damaged"),
        (
            "UPDATE rounds SET reveal = json_set(reveal, '$.votes.blue', json('[42]')) "
            "WHERE number = 4",
            "round 4 is damaged",
        ),
        ("UPDATE rounds SET reveal = CAST(x'7bff' AS TEXT) WHERE number = 4", "round 4 is damaged"),
        ("DELETE FROM rounds WHERE number = 1", "round 1 is damaged"),
        ("UPDATE games SET colours = 'no json'", "its colours or start time are damaged"),
        ("UPDATE games SET header = CAST(x'ff00' AS TEXT)", "its stored row is damaged"),
        ("UPDATE games SET header = '{}'", "its header is damaged"),
    ],
)
def test_damaged_round_text_is_named_in_one_line(
    journal_path: Path, capsys: pytest.CaptureFixture[str], statement: str, damage: str
) -> None:
    tamper(journal_path, statement)
    status, out, err = run(capsys, "--journal", str(journal_path))
    assert f"game 1: {damage}" in out.splitlines()[0], out
    one_line_error(status, err)
    for more in (["1"], ["1", "--export"], ["1", "--frame", "2", "--out", "x.jpg"]):
        status, out, err = run(capsys, "--journal", str(journal_path), *more)
        assert damage in one_line_error(status, err)


@pytest.mark.parametrize("number", [str(2**63), str(-(2**63) - 1), str(10**30)])
def test_a_huge_game_number_is_a_one_line_error(
    journal_path: Path, capsys: pytest.CaptureFixture[str], number: str
) -> None:
    status, _, err = run(capsys, "--journal", str(journal_path), number)
    assert f"there is no game {number}" in one_line_error(status, err)
    status, _, err = run(
        capsys, "--journal", str(journal_path), "1", "--frame", number, "--out", "x"
    )
    assert f"no round {number}" in one_line_error(status, err)


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", ".lock"])
def test_outputs_never_overwrite_the_journal(
    journal_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    target = Path(f"{journal_path}{suffix}")
    target.touch()
    before = fingerprint(journal_path)
    link = journal_path.parent / "link"
    link.symlink_to(target)
    for out in (target, link, journal_path.parent / "." / target.name):
        status, _, err = run(capsys, "--journal", str(journal_path), "1", "--export", str(out))
        assert "the journal" in one_line_error(status, err)
        status, _, err = run(
            capsys, "--journal", str(journal_path), "1", "--frame", "1", "--out", str(out)
        )
        assert "the journal" in one_line_error(status, err)
    assert fingerprint(journal_path) == before
    if suffix:
        written = target.read_bytes()  # SQLite's own use of -shm may fill it, never ours
        assert not written.startswith(b"{")
        assert frame_of(1) not in written


def test_outputs_replace_the_file_whole_and_leave_nothing_beside_it(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out" / "game.json"
    out.parent.mkdir()
    out.write_text("old")
    link = tmp_path / "out" / "elsewhere.json"
    link.symlink_to(tmp_path / "target.json")
    status, _, err = run(capsys, "--journal", str(journal_path), "1", "--export", str(out))
    assert (status, err) == (0, "")
    assert json.loads(out.read_text())["ruleset"]
    assert sorted(os.listdir(out.parent)) == ["elsewhere.json", "game.json"]


def foreign_database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.commit()
    conn.close()


def empty_database(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")
    conn.execute("VACUUM")
    conn.close()


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (foreign_database, "another program's database (tables recipes)"),
        (lambda path: path.write_bytes(b""), "an empty file"),
        (empty_database, "an empty database"),
    ],
)
def test_reading_commands_change_nothing_and_refuse_what_is_not_a_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, what: str
) -> None:
    path = tmp_path / "other.db"
    make(path)  # type: ignore[operator]
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = fingerprint(path)
    for more in ([], ["1"], ["1", "--export"]):
        status, out, err = run(capsys, "--journal", str(path), *more)
        assert err == f"companion history: {path} is not a companion journal ({what})\n"
        assert (status, out) == (2, "")
    finding, _ = journal_check(path)
    assert fingerprint(path) == before
    assert sorted(os.listdir(tmp_path)) == ["other.db"]
    if what != "an empty file":
        assert finding.status is Status.FAIL
        assert "is not a companion journal" in finding.detail


def test_reading_a_journal_does_not_change_its_bytes(journal_path: Path) -> None:
    os.utime(journal_path, ns=(1_000_000_000, 1_000_000_000))
    before = fingerprint(journal_path)
    assert main(["history", "--journal", str(journal_path), "1"]) == 0
    finding, _ = journal_check(journal_path)
    assert finding.status is not Status.FAIL, finding
    assert fingerprint(journal_path) == before


def test_a_damaged_page_is_reported_in_one_line(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(journal_path)
    roots = [r for (r,) in conn.execute("SELECT rootpage FROM sqlite_schema WHERE rootpage > 1")]
    (size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    with journal_path.open("r+b") as file:
        for root in roots:
            file.seek((root - 1) * size)
            file.write(random.Random(root).randbytes(size))
    status, _, err = run(capsys, "--journal", str(journal_path))
    assert "the journal is damaged" in one_line_error(status, err)
    finding, _ = journal_check(journal_path)
    assert "\n" not in finding.detail
