"""A SIGKILL while pictures are pruned or games archived loses nothing and halves nothing.

Each kill takes a fresh copy of one prepared journal (a season of finished games with
pictures, one a day, and the game being played), lets a child prune or archive it
(`killing`), and kills the child at a random moment. The journal (and the archive
beside it) must then read as `companion history` reads it and open as `companion
play` opens it, with no recovery, and hold every game exactly once (journal or
archive), every round replaying, every picture left matching its sum, and no game
half pruned: all its pictures, or the mark that they were pruned and none.
"""

import random
import shutil
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.journal import History, Journal, archive_path, read_history
from companion.rules import Game
from tests.journal.helpers import (
    EXAMPLES,
    Calendar,
    example,
    picture,
    picture_problems,
    play_with_pictures,
    replayed,
    rows,
)
from tests.journal.killing import KINDS, Child, Kill, kill_at_random, start_child

KILLS = 150
"""Kills per run, shared evenly among the children's kinds."""

SIZE = 20_000
"""Bytes of each round's frame: a season of a few MB, copied afresh for every kill."""


@dataclass(frozen=True)
class Season:
    """The prepared journal: its bytes and what it holds."""

    data: bytes
    """The journal file, its WAL written back."""
    games: dict[int, Game]
    """Every game by number."""
    finished: int
    """How many of them are finished, one a day (all but the newest, being played)."""
    first_end: str
    """When the first game ended (ISO 8601)."""


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Season:
    path = tmp_path_factory.mktemp("season") / "journal.sqlite"
    calendar = Calendar()
    games: dict[int, Game] = {}
    ends: list[str] = []
    with Journal(path, clock=calendar) as journal:
        for record in [*EXAMPLES, *EXAMPLES]:
            game_id, games[game_id] = play_with_pictures(journal, example(record.stem), size=SIZE)
            ends.append(calendar.now.isoformat())
            calendar.next_day()
        game_id, games[game_id] = play_with_pictures(
            journal, example("party-1e-7-players"), 3, size=SIZE
        )
    return Season(path.read_bytes(), games, len(ends), ends[0])


@dataclass(frozen=True)
class Found:
    """What a check found after a kill."""

    pruned: int
    """Games whose pictures are pruned."""
    archived: int
    """Games in the archive only."""
    in_both: int
    """Games in both files: an archiving killed between its two transactions."""


def check(path: Path, season: Season) -> Found:
    """Check the journal and archive at `path` after a kill; see the module's docstring."""
    archive = archive_path(path)
    with read_history(path) as history:  # as `companion history` reads it
        assert sorted(line.id for line in history.games()) == sorted(season.games)
    with ExitStack() as stack:
        journal, message = Journal.open_or_recover(path)
        stack.enter_context(journal)
        assert message is None
        archived = None
        if archive.is_file():
            archived, message = Journal.open_or_recover(archive)
            stack.enter_context(archived)
            assert message is None
        history = History(journal, archived)
        games = history.games()
        assert games == replayed(history)
        assert [line.id for line in games] == sorted(season.games, reverse=True)
        pruned = 0
        for line in games:
            _, stored, rounds = history.whole(line.id)
            assert stored.game == season.games[line.id]
            assert [r.number for r in rounds] == list(range(1, len(stored.game.played) + 1))
            gone = {r.pruned for r in rounds} == {True}
            assert {(r.has_frame, r.has_overlay, r.pruned) for r in rounds} == {
                (not gone, not gone, gone)
            }
            pruned += gone
            images = history.images(line.id, 1)
            expected = (
                (None, None)
                if gone
                else (picture(line.id, 1, SIZE), picture(line.id, -1, SIZE // 4))
            )
            assert (images.frame, images.overlay, images.damaged) == (*expected, ())
    files = (path, archive) if archive.is_file() else (path,)
    for file in files:
        assert rows(file, "PRAGMA quick_check") == [("ok",)]
        assert picture_problems(file) == []
    held, kept = (
        {game_id for (game_id,) in rows(file, "SELECT id FROM games")} if file.is_file() else set()
        for file in (path, archive)
    )
    assert held | kept == set(season.games)
    return Found(pruned, len(kept - held), len(kept & held))


@pytest.mark.slow  # a minute on a quiet machine: several on a loaded one
def test_a_kill_while_pruning_or_archiving_loses_nothing_and_halves_nothing(
    tmp_path: Path, season: Season
) -> None:
    rng = random.Random(20261125)
    started = time.perf_counter()

    def prepared(attempt: int) -> Child:
        folder = tmp_path / f"kill-{attempt}"
        folder.mkdir()
        (folder / "journal.sqlite").write_bytes(season.data)
        kind = KINDS[attempt % len(KINDS)]
        return start_child(folder / "journal.sqlite", kind, season.first_end, season.finished)

    kills: list[Kill] = []
    found: list[Found] = []
    child = prepared(0)
    try:
        for attempt in range(KILLS):
            kills.append(kill_at_random(child, rng, season.finished - 1))
            if attempt + 1 < KILLS:  # its start-up overlaps the check below
                child = prepared(attempt + 1)
            folder = tmp_path / f"kill-{attempt}"
            found.append(check(folder / "journal.sqlite", season))
            shutil.rmtree(folder)
    finally:
        if child.process.poll() is None:
            child.process.kill()
            child.process.wait()
    seconds = time.perf_counter() - started
    kinds = Counter(k.kind for k in kills)
    during = Counter(k.kind for k in kills if k.during_work)
    print(
        f"\n{len(kills)} kills ({', '.join(f'{kinds[k]} {k}' for k in KINDS)}), "
        f"{sum(during.values())} during the work ({dict(during)}); after them "
        f"{sum(f.pruned for f in found)} games found pruned, {sum(f.archived for f in found)} "
        f"archived, {sum(f.in_both for f in found)} in both files "
        f"(after {sum(f.in_both > 0 for f in found)} kills); {seconds:.0f} s"
    )
    assert len(kills) >= 100
    assert all(during[kind] >= KILLS // len(KINDS) // 4 for kind in KINDS), during
