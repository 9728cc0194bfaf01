"""`companion history`: games and rounds from the journal, exports `companion score` reads."""

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.cli import main
from companion.gamefile import parse_game
from companion.journal import Journal, archive_path
from companion.journal.archive import archive_games
from companion.rules import Reveal
from tests.journal.helpers import example, frame_of, play_into

MOMENT = datetime(2026, 11, 21, 20, 15, 0, tzinfo=UTC)
LOCAL = MOMENT.astimezone().strftime("%Y-%m-%d %H:%M")


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """A journal with a finished classic game (round 1 corrected) and a teams game at round 3."""
    path = tmp_path / "state" / "journal.sqlite"
    record = example("classic-1e-4-players")
    with Journal(path, clock=lambda: MOMENT) as journal:
        play_into(journal, record)
        first = record.reveals[0]
        journal.correct_round(1, 1, Reveal(first.cards, {**first.votes, "blue": (2,)}))
        play_into(journal, example("teams-8-players"), 3, images=False)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["history", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_games_are_listed_newest_first(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--journal", str(journal_path))
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        f"game 2  {LOCAL}  teams  red, blue, green, yellow, pink, cyan, grey, brown  3 rounds  "
        "playing  red+pink 5, blue+cyan 5, green+grey 7, yellow+brown 6",
        f"game 1  {LOCAL}  classic-1e  red, blue, green, yellow  15 rounds  finished  "
        "won by red, blue; red 33, blue 33, green 24, yellow 31",
    ]


def test_a_game_lists_its_rounds_with_corrections_marked(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--journal", str(journal_path), "1")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 1 + 15
    assert lines[0].startswith("game 1  ")
    assert lines[1] == (
        "round 1  storyteller red  red +3, blue +3, green +4, yellow 0  "
        "totals red 3, blue 3, green 4, yellow 0  [corrected]"
    )
    assert lines[2] == (
        "round 2  storyteller blue  red +4, blue 0, green +3, yellow +2  "
        "totals red 7, blue 3, green 7, yellow 2"
    )
    assert sum("[corrected]" in line for line in lines) == 1


def test_the_export_scores_to_the_journal_totals(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--journal", str(journal_path), "1", "--export")
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    with Journal(journal_path) as journal:
        totals = dict(journal.load(1).game.totals)
    assert dict(parse_game(out).play().totals) == totals
    exported = tmp_path / "game-1.json"
    status, out, err = run(capsys, "--journal", str(journal_path), "1", "--export", str(exported))
    assert (status, out, err) == (0, "", "")
    assert main(["score", str(exported)]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["totals"] == totals
    assert scored["winners"] == ["red", "blue"]


def test_frames_and_overlays_are_written_to_files(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frame, overlay = tmp_path / "frame.jpg", tmp_path / "overlay.png"
    status, out, err = run(
        capsys, "--journal", str(journal_path), "1", "--frame", "4", "--out", str(frame)
    )
    assert (status, err) == (0, "")
    assert out == f"wrote the frame of round 4 of game 1 to {frame}\n"
    assert frame.read_bytes() == frame_of(4)
    assert (
        main(
            [
                "history",
                "--journal",
                str(journal_path),
                "1",
                "--overlay",
                "4",
                "--out",
                str(overlay),
            ]
        )
        == 0
    )
    assert overlay.read_bytes() == frame_of(-4, 500)


def test_the_default_journal_is_in_the_state_folder(
    journal_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_STATE_DIR", str(journal_path.parent))
    status, out, _ = run(capsys)
    assert status == 0
    assert len(out.splitlines()) == 2
    monkeypatch.delenv("COMPANION_STATE_DIR")
    monkeypatch.chdir(journal_path.parent.parent)
    status, out, _ = run(capsys, "2")
    assert status == 0
    assert len(out.splitlines()) == 1 + 3


def test_an_empty_journal_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    assert run(capsys, "--journal", str(path)) == (0, f"no games yet in {path}\n", "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["9"], "{path}: there is no game 9 (the newest is game 2)"),
        (
            ["2", "--frame", "1", "--out", "{tmp}/f.jpg"],
            "{path}: round 1 of game 2 has no frame kept",
        ),
        (
            ["1", "--frame", "16", "--out", "{tmp}/f.jpg"],
            "{path}: game 1 has no round 16 (it has rounds 1 to 15)",
        ),
        (["1", "--frame", "1"], "--frame 1 needs --out FILE"),
        (["--export"], "--export, --frame and --overlay need a GAME number"),
        (["1", "--out", "{tmp}/f.jpg"], "--out goes with --frame N or --overlay N"),
        (
            ["1", "--export", "{tmp}/no/such/folder/g.json"],
            "{tmp}/no/such/folder/g.json: cannot write the game file (No such file or directory)",
        ),
    ],
)
def test_faults_are_one_line_and_exit_2(
    journal_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    filled = [a.format(tmp=tmp_path) for a in args]
    status, out, err = run(capsys, "--journal", str(journal_path), *filled)
    assert (status, out) == (2, "")
    assert err == f"companion history: {message.format(path=journal_path, tmp=tmp_path)}\n"


def test_a_missing_journal_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    assert run(capsys, "--journal", str(path)) == (
        2,
        "",
        f"companion history: {path}: no journal here (`companion play` starts one)\n",
    )
    assert not path.exists()


def test_a_damaged_journal_is_reported_and_left_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    status, out, err = run(capsys, "--journal", str(path))
    assert (status, out) == (2, "")
    assert err.startswith(
        f"companion history: {path}: the journal is damaged (file is not a database"
    )
    assert err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite"]


# A year of service: the archive, pruned and damaged pictures


@pytest.fixture
def archived_path(tmp_path: Path) -> Path:
    """A journal whose finished classic game (with pictures) was moved into the archive,
    and a teams game at round 3 left in the journal."""
    path = tmp_path / "state" / "journal.sqlite"
    with Journal(path, clock=lambda: MOMENT) as journal:
        play_into(journal, example("classic-1e-4-players"))
        play_into(journal, example("teams-8-players"), 3, images=False)
        with Journal(archive_path(path)) as archive:
            assert archive_games(journal, archive, MOMENT + timedelta(days=1)) == 1
    return path


def spoil_frame(path: Path, game_id: int, number: int) -> None:
    """Change a kept frame's bytes behind the journal's back, its checksum left as it was."""
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE round_images SET frame = ? WHERE game_id = ? AND number = ?",
        (frame_of(99), game_id, number),
    )
    conn.commit()
    conn.close()


def test_archived_games_are_listed_with_the_others_and_marked(
    archived_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--journal", str(archived_path))
    assert (status, err) == (0, "")
    newer, older = out.splitlines()
    assert newer.startswith("game 2  ") and "(archived)" not in newer
    assert older == (
        f"game 1  {LOCAL}  classic-1e  red, blue, green, yellow  15 rounds  finished (archived)  "
        "won by red; red 33, blue 30, green 24, yellow 32"
    )


def test_an_archived_game_lists_its_rounds_exports_and_writes_its_pictures(
    archived_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--journal", str(archived_path), "1")
    assert (status, err) == (0, "")
    assert len(out.splitlines()) == 1 + 15
    status, out, err = run(capsys, "--journal", str(archived_path), "1", "--export")
    assert (status, err) == (0, "")
    assert dict(parse_game(out).play().totals) == {"red": 33, "blue": 30, "green": 24, "yellow": 32}
    frame = tmp_path / "frame.jpg"
    status, _, err = run(
        capsys, "--journal", str(archived_path), "1", "--frame", "2", "--out", str(frame)
    )
    assert (status, err) == (0, "")
    assert frame.read_bytes() == frame_of(2)


def test_a_damaged_frame_is_not_written_and_says_so_in_one_line(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spoil_frame(journal_path, 1, 4)
    frame = tmp_path / "frame.jpg"
    status, out, err = run(
        capsys, "--journal", str(journal_path), "1", "--frame", "4", "--out", str(frame)
    )
    assert (status, out) == (2, "")
    assert err == (
        "companion history: round 4's frame is damaged (it no longer matches its checksum); "
        "it is not written\n"
    )
    assert not frame.exists()
    overlay = ["--overlay", "4", "--out", str(frame)]
    status, _, err = run(capsys, "--journal", str(journal_path), "1", *overlay)
    assert (status, err) == (0, "")
    assert frame.read_bytes() == frame_of(-4, 500)


def test_a_damaged_frame_in_the_archive_is_refused_too(
    archived_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spoil_frame(archive_path(archived_path), 1, 2)
    frame = tmp_path / "frame.jpg"
    status, _, err = run(
        capsys, "--journal", str(archived_path), "1", "--frame", "2", "--out", str(frame)
    )
    assert status == 2
    assert "round 2's frame is damaged" in err
    assert not frame.exists()


def test_a_pruned_picture_says_it_was_pruned_after_the_retention_time(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(journal_path) as journal:
        assert journal.prune_pictures(MOMENT + timedelta(days=1)) == 1
    frame = tmp_path / "frame.jpg"
    status, out, err = run(
        capsys, "--journal", str(journal_path), "1", "--frame", "4", "--out", str(frame)
    )
    assert (status, out) == (2, "")
    assert err == (
        f"companion history: {journal_path}: the pictures of round 4 of game 1 were pruned "
        "after the retention time\n"
    )
    assert "not kept" not in err
    assert not frame.exists()


def test_the_round_list_marks_pruned_and_damaged_pictures(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spoil_frame(journal_path, 1, 3)
    status, out, err = run(capsys, "--journal", str(journal_path), "1")
    assert (status, err) == (0, "")
    marked = [line for line in out.splitlines() if "damaged" in line]
    assert len(marked) == 1
    assert marked[0].startswith("round 3  ") and marked[0].endswith("  [frame damaged]")
    with Journal(journal_path) as journal:
        journal.prune_pictures(MOMENT + timedelta(days=1))
    status, out, err = run(capsys, "--journal", str(journal_path), "1")
    assert (status, err) == (0, "")
    rounds = out.splitlines()[1:]
    assert all(line.endswith("[pictures pruned]") for line in rounds)
    assert rounds[0].endswith("  [corrected]  [pictures pruned]")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1", "2"], "unexpected '2': only `history import` takes several files"),
        (["1", "--older-than", "3"], "--older-than goes with `history archive`"),
        (
            ["archive", "--export"],
            "--export, --frame, --overlay and --out go with a GAME number, not with `archive`",
        ),
        (["archive", "--older-than", "-1"], "--older-than takes a number of days, 0 or more"),
        (["archive", "x.json"], "unexpected 'x.json': only `history import` takes several files"),
        (["import"], "`history import` needs the game files to import"),
    ],
)
def test_the_words_that_write_do_not_mix_with_a_games_options(
    journal_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    before = journal_path.read_bytes()
    assert run(capsys, "--journal", str(journal_path), *args) == (
        2,
        "",
        f"companion history: {message}\n",
    )
    assert journal_path.read_bytes() == before


def test_a_game_that_is_neither_a_number_nor_a_word_is_refused_by_the_parser(
    journal_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["history", "--journal", str(journal_path), "three"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "argument GAME: not a game's number, `archive` or `import`: 'three'" in err
