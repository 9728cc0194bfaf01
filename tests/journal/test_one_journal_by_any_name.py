"""One journal, whatever the path it is given by: a symbolic link is followed to the
journal's own file before its lock is looked for or its archive made, and a journal
file with a second name (a hard link, beside which SQLite would keep a second log) is
refused by name, so that no command writes one journal as two."""

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import JournalInUseError, LinkedJournalError, NotAJournalError
from companion.journal import Journal, archive_path, read_history
from companion.journal.file import JournalFile
from tests.journal.helpers import example, play_into

LONG_AGO = datetime(2020, 3, 14, 20, 0, tzinfo=UTC)


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """Two games finished long ago and one being played, in a folder of their own."""
    path = tmp_path / "state" / "journal.sqlite"
    with Journal(path, clock=lambda: LONG_AGO) as journal:
        play_into(journal, example("classic-1e-4-players"), images=False)
        play_into(journal, example("odyssey-8-players"), images=False)
    with Journal(path) as journal:
        play_into(journal, example("party-1e-7-players"), 2, images=False)
    return path


def listed(path: Path) -> list[int]:
    with read_history(path) as history:
        return [line.id for line in history.games()]


def test_a_writer_through_a_symbolic_link_takes_the_journals_own_lock(
    journal_path: Path, tmp_path: Path
) -> None:
    link = tmp_path / "elsewhere" / "link.sqlite"
    link.parent.mkdir()
    link.symlink_to(journal_path)
    with Journal(journal_path):
        with pytest.raises(JournalInUseError, match=f"the journal {journal_path} is in use"):
            Journal(link)
        with pytest.raises(JournalInUseError):
            Journal.open_or_recover(link)
    with Journal(link) as journal:
        assert journal.path == journal_path
        with pytest.raises(JournalInUseError):
            Journal(journal_path)
    assert sorted(p.name for p in link.parent.iterdir()) == ["link.sqlite"]


def test_archiving_through_a_symbolic_link_keeps_the_archive_beside_the_journal(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.sqlite"
    link.symlink_to(journal_path)
    with Journal(journal_path):  # the table playing: refused, not archived beside the link
        assert main(["history", "--journal", str(link), "archive"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"companion history: the journal {journal_path} is in use")
    assert main(["history", "--journal", str(link), "archive"]) == 0
    assert capsys.readouterr().out == f"moved 2 games to {archive_path(journal_path)}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.sqlite", "state"]
    assert archive_path(journal_path).is_file()
    assert listed(journal_path) == listed(link) == [3, 2, 1]


def test_importing_through_a_symbolic_link_reads_the_archive_beside_the_journal(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "paper.json"
    with read_history(journal_path) as history:
        game.write_text(history.export(1))
    os.utime(game, (LONG_AGO.timestamp(), LONG_AGO.timestamp()))
    assert main(["history", "--journal", str(journal_path), "import", str(game)]) == 0
    with Journal(journal_path) as journal:
        play_into(journal, example("odyssey-8-players"), 1, images=False)
    assert main(["history", "--journal", str(journal_path), "archive", "--older-than", "0"]) == 0
    link = tmp_path / "link.sqlite"
    link.symlink_to(journal_path)
    capsys.readouterr()
    assert main(["history", "--journal", str(link), "import", str(game)]) == 0
    assert capsys.readouterr().out == f"{game}: already imported as game 4\n"
    assert listed(link) == listed(journal_path) == [5, 4, 3, 2, 1]


@pytest.mark.parametrize("through", ["journal", "link"])
def test_a_journal_with_a_second_name_is_refused_by_every_writer_naming_the_file(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], through: str
) -> None:
    link = tmp_path / "copy.sqlite"
    os.link(journal_path, link)
    given = journal_path if through == "journal" else link
    before = journal_path.read_bytes()
    for writer in (lambda: Journal(given), lambda: Journal.open_or_recover(given)):
        with pytest.raises(LinkedJournalError) as caught:
            writer()
        assert isinstance(caught.value, NotAJournalError)
        assert str(caught.value).startswith(f"{given}: the journal file has 2 names")
    for words in (["archive"], ["import", str(tmp_path / "none.json")]):
        assert main(["history", "--journal", str(given), *words]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert err.startswith(f"companion history: {given}: the journal file has 2 names")
    assert main(["demo", "--headless", "--journal", str(given), "--rounds", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion demo: {given}: the journal file has 2 names")
    with pytest.raises(LinkedJournalError):  # read through either name, its log could be missed
        JournalFile(given)
    assert journal_path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite", "state"]
    assert not any(p.name.endswith(("-wal", "-shm", ".lock")) for p in tmp_path.iterdir())
    link.unlink()
    assert listed(journal_path) == [3, 2, 1]
