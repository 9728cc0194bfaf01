"""How fast the table fills its journal: recent rounds, their days and bytes, free pages."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.journal import Journal
from companion.journal.file import JournalFile
from companion.journal.usage import Use, recent_use
from tests.journal.helpers import example, play_into

NOW = datetime(2026, 6, 30, 21, 0, tzinfo=UTC)
PICTURES = 2_000 + 500
"""The bytes of the stand-in frame and overlay `play_into` keeps with each round."""


def measured(path: Path, days: int = 30) -> Use:
    with JournalFile(path) as file:
        return recent_use(file, NOW - timedelta(days=days))


def test_only_the_rounds_since_then_are_counted_with_their_days_and_bytes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path, clock=lambda: NOW - timedelta(days=40)) as journal:
        play_into(journal, example("classic-1e-4-players"))
    with Journal(path, clock=lambda: NOW - timedelta(days=2)) as journal:
        play_into(journal, example("odyssey-8-players"), 4)
    with Journal(path, clock=lambda: NOW) as journal:
        play_into(journal, example("party-1e-7-players"), 2, images=False)
    use = measured(path)
    assert (use.since, use.rounds, use.days) == (NOW - timedelta(days=30), 6, 2)
    assert use.picture_bytes == 4 * PICTURES
    assert 6 * 100 < use.text_bytes < 6 * 5_000
    assert use.round_bytes == (use.picture_bytes + use.text_bytes) / 6
    assert use.rounds_per_day == 3
    assert measured(path, days=50).rounds == 15 + 6


def test_a_game_imported_from_a_file_is_not_recent_play(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    record = example("teams-8-players")
    with Journal(path, clock=lambda: NOW) as journal:
        assert journal.import_game(record.play(), {}, NOW, "digest") is not None
    use = measured(path)
    assert (use.rounds, use.days, use.round_bytes, use.rounds_per_day) == (0, 0, None, None)


def test_pruned_pictures_leave_free_pages_inside_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path, clock=lambda: NOW) as journal:
        play_into(journal, example("classic-1e-4-players"))
        play_into(journal, example("odyssey-8-players"), 1)
        assert measured(path).free_bytes == 0
        assert journal.prune_pictures(NOW + timedelta(days=1)) == 1
    use = measured(path)
    assert use.free_bytes >= 15 * PICTURES - 4096
    assert use.picture_bytes == PICTURES
