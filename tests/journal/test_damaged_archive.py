"""The archive opened one way (`open_archive`), and a damaged archive told alike by
`companion history`, the doctor and the phone page: the journal's games still shown,
the archive said to be damaged, never silently left out."""

import html
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.cli import main
from companion.doctor.findings import Status
from companion.doctor.storage import journal_check
from companion.errors import JournalCorruptError
from companion.journal import Journal, archive_path, open_archive, read_history
from companion.journal.archive import archive_games
from companion.journal.archive_file import ARCHIVE_ADVICE, Damaged, Missing, Open, Unmade
from companion.journal.faults import RECOVERY_ADVICE
from companion.language import Language
from tests.journal.helpers import ROOT, example, play_into
from tests.web.desk import playing_desk, served

LONG_AGO = datetime(2020, 3, 14, 20, 0, tzinfo=UTC)
DAMAGE = ("garbage", "truncated")
"""An archive overwritten with random bytes, and one cut short of a whole page."""


def archived_journal(path: Path) -> Path:
    """A journal whose finished classic game (game 1) was moved into the archive, with
    an odyssey game (game 2) being played; returns the archive."""
    with Journal(path, clock=lambda: LONG_AGO) as journal:
        play_into(journal, example("classic-1e-4-players"))
    with Journal(path) as journal, Journal(archive_path(path)) as archive:
        play_into(journal, example("odyssey-8-players"), 2)
        assert archive_games(journal, archive, LONG_AGO + timedelta(days=1)) == 1
    return archive_path(path)


def spoil(archive: Path, how: str) -> None:
    size = archive.stat().st_size
    if how == "garbage":
        archive.write_bytes(random.Random(7).randbytes(size))
    else:
        with archive.open("r+b") as file:
            file.truncate(size - 100)


@pytest.fixture(params=DAMAGE)
def damaged(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """The journal of `archived_journal`, its archive then damaged."""
    path = tmp_path / "state" / "journal.sqlite"
    spoil(archived_journal(path), request.param)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["history", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# One way to open it


def test_no_file_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    assert open_archive(path) == Missing(archive_path(path))


@pytest.mark.parametrize("left", ["an empty file", "an empty database"])
def test_what_a_first_archiving_killed_leaves_is_unmade(tmp_path: Path, left: str) -> None:
    path = tmp_path / "journal.sqlite"
    archive_path(path).touch()
    if left == "an empty database":
        conn = sqlite3.connect(archive_path(path))
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
    assert open_archive(path) == Unmade(archive_path(path))


def test_an_archive_opens_to_read(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    archive = archived_journal(path)
    before = archive.read_bytes()
    state = open_archive(path)
    assert isinstance(state, Open) and state.path == archive
    with state.file as file, file.transaction("reading") as conn:
        assert file.newest(conn) == 1
    assert archive.read_bytes() == before


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_archive_is_damaged_and_said_without_the_journal_s_advice(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "journal.sqlite"
    archive = archived_journal(path)
    spoil(archive, how)
    state = open_archive(path)
    assert isinstance(state, Damaged) and state.path == archive
    assert isinstance(state.cause, JournalCorruptError)
    assert state.said.startswith(f"{archive}: the journal is damaged (")
    assert RECOVERY_ADVICE not in state.said
    assert state.reason == state.said.replace(str(archive), "journal.archive.sqlite")
    assert state.advice == ARCHIVE_ADVICE
    assert isinstance(state.error, JournalCorruptError)
    assert str(state.error) == f"the archive: {state.said}; {ARCHIVE_ADVICE}"


def test_a_folder_in_the_archive_s_place_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    archive_path(path).mkdir()
    state = open_archive(path)
    assert isinstance(state, Damaged)
    assert state.said == f"{archive_path(path)} is not a companion journal (not a file)"


def test_a_new_game_beside_a_damaged_archive_is_numbered_after_the_journal_alone(
    damaged: Path,
) -> None:
    """The table plays on: only `history`, the doctor and the phone page read the
    archive, and they say it is damaged."""
    damaged.rename(damaged.with_name("journal.sqlite.old"))
    with Journal(damaged) as journal:
        game_id, _ = play_into(journal, example("classic-1e-4-players"), 1)
    assert game_id == 1


# Told alike by history, the doctor and the phone page


def test_history_lists_the_journal_s_games_then_says_the_archive_is_damaged(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--journal", str(damaged))
    assert status == 2
    assert [line.split("  ")[0] for line in out.splitlines()] == ["game 2"]
    assert err.count("\n") == 1
    assert err.startswith(
        f"companion history: the archive: {archive_path(damaged)}: the journal is damaged ("
    )
    assert err.endswith(f"; {ARCHIVE_ADVICE}\n")


def test_history_still_reads_the_journal_s_games_but_not_the_archived_ones(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "--journal", str(damaged), "2")
    assert (status, err) == (0, "")
    assert out.startswith("game 2  ")
    status, out, err = run(capsys, "--journal", str(damaged), "1", "--export")
    assert (status, out) == (2, "")
    assert err.startswith("companion history: the archive: ") and err.count("\n") == 1
    with read_history(damaged) as history, pytest.raises(JournalCorruptError, match="the archive"):
        history.games()


def test_import_is_refused_while_the_archive_cannot_be_read(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whether a game was imported before cannot be told without the archive."""
    game_file = ROOT / "examples" / "party-1e-7-players.json"
    status, out, err = run(capsys, "--journal", str(damaged), "import", str(game_file))
    assert (status, out) == (2, "")
    assert err.startswith("companion history: the archive: ") and err.count("\n") == 1


def test_the_doctor_fails_the_journal_check_with_the_archive_s_fix(damaged: Path) -> None:
    finding, _ = journal_check(damaged)
    assert finding.status is Status.FAIL
    assert f"; the archive: {archive_path(damaged)}: the journal is damaged (" in finding.detail
    assert RECOVERY_ADVICE not in finding.detail
    assert finding.fix == ARCHIVE_ADVICE


def test_the_doctor_takes_an_unmade_archive_for_none(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"), 2)
    conn = sqlite3.connect(archive_path(path))
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    finding, _ = journal_check(path)
    assert finding.status is Status.OK, finding


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """The table's own journal; the page is pointed at another one."""
    return tmp_path / "table" / "journal.sqlite"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (Language.ENGLISH, "The archive of older games is damaged, so its games are not listed: "),
        (
            Language.FRENCH,
            "L'archive des anciennes parties est endommagée, ses parties ne sont donc pas "
            "listées\u00a0: ",
        ),
    ],
)
def test_the_phone_page_lists_the_journal_s_games_under_a_note_that_the_archive_is_damaged(
    damaged: Path, table: Path, language: Language, said: str
) -> None:
    with playing_desk(table, language=language) as desk, served(desk, journal=damaged) as client:
        page = client.get("/games")
        assert page.status_code == 200, page.text
        note = html.unescape(page.text.split('id="archive-damaged"', 1)[1].split("</p>", 1)[0])
        assert said in note
        assert "journal.archive.sqlite: the journal is damaged (" in note
        assert str(damaged.parent) not in page.text  # the Pi's folders are not a phone's
        assert 'data-game="2"' in page.text and 'data-game="1"' not in page.text
        assert 'id="no-games"' not in page.text
        listed = client.get("/api/games").json()
        assert [game["id"] for game in listed["games"]] == [2]
        assert listed["archive_damage"].startswith("journal.archive.sqlite: the journal is damaged")
        assert client.get("/games/1").status_code == 422
        assert client.get("/games/2").status_code == 200


def test_the_phone_page_of_a_sound_archive_has_no_note(tmp_path: Path, table: Path) -> None:
    path = tmp_path / "state" / "journal.sqlite"
    archived_journal(path)
    with playing_desk(table) as desk, served(desk, journal=path) as client:
        page = client.get("/games")
        assert 'data-game="1"' in page.text and "archive-damaged" not in page.text
        assert "archive_damage" not in client.get("/api/games").json()
