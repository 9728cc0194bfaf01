"""A year of pictures: pruned oldest first and one game at a time, their room reused,
and each one handed out only while it still matches the checksum kept with it."""

import hashlib
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from companion.journal import History, Journal, RoundImages
from companion.journal.documents import dumps, header_document, round_documents, score_columns
from companion.journal.file import JournalFile
from companion.journal.schema import MIGRATIONS, SCHEMA_VERSION
from companion.journal.store import stamp
from companion.rules import Reveal
from tests.journal.helpers import (
    Calendar,
    colours,
    example,
    picture,
    picture_problems,
    play_with_pictures,
    rows,
)

BIG = 100_000
"""Bytes of a frame big enough that its pages dwarf the round's text."""


def a_month_of_games(path: Path, calendar: Calendar) -> dict[str, int]:
    """Games on successive days: finished, abandoned, finished, finished ten days later,
    and one still being played; returns their numbers by what they are."""
    with Journal(path, clock=calendar) as journal:
        first, _ = play_with_pictures(journal, example("classic-1e-4-players"))
        calendar.next_day()
        abandoned, _ = play_with_pictures(journal, example("party-1e-7-players"), 3)
        journal.abandon_game(abandoned)
        calendar.next_day()
        third, _ = play_with_pictures(journal, example("odyssey-8-players"))
        calendar.now += timedelta(days=10)
        later, _ = play_with_pictures(journal, example("teams-8-players"))
        calendar.next_day()
        playing, _ = play_with_pictures(journal, example("classic-1e-4-players"), 4)
    return {
        "first": first,
        "abandoned": abandoned,
        "third": third,
        "later": later,
        "playing": playing,
    }


def test_pruning_takes_one_game_a_call_oldest_first_and_only_those_ended_before_the_cut(
    tmp_path: Path,
) -> None:
    calendar = Calendar()
    start = calendar.now
    ids = a_month_of_games(tmp_path / "journal.sqlite", calendar)
    with Journal(tmp_path / "journal.sqlite", clock=calendar) as journal:
        cut = start + timedelta(days=5)
        assert [journal.prune_pictures(cut) for _ in range(4)] == [
            ids["first"],
            ids["abandoned"],
            ids["third"],
            None,
        ]
        assert [journal.prune_pictures(calendar.now + timedelta(days=30)) for _ in range(2)] == [
            ids["later"],
            None,
        ]
        playing = History(journal).rounds(ids["playing"])
    assert all(r.has_frame and r.has_overlay and not r.pruned for r in playing)
    assert picture_problems(tmp_path / "journal.sqlite") == []
    pruned = rows(
        tmp_path / "journal.sqlite", "SELECT id FROM games WHERE pictures_pruned_at NOT NULL"
    )
    assert [game_id for (game_id,) in pruned] == [
        ids[k] for k in ("first", "abandoned", "third", "later")
    ]


def test_pruning_keeps_scores_rounds_and_corrections_and_marks_the_rounds_pruned(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    calendar = Calendar()
    with Journal(path, clock=calendar) as journal:
        game_id, game = play_with_pictures(journal, example("classic-1e-4-players"))
        first = game.played[0].score.round.reveal
        journal.correct_round(game_id, 1, Reveal(first.cards, {**first.votes, "blue": (2,)}))
        play_with_pictures(journal, example("party-1e-7-players"), 2)
        history = History(journal)
        before = (history.games(), history.rounds(game_id), history.export(game_id))
        calendar.now += timedelta(days=91)
        assert journal.prune_pictures(calendar.now - timedelta(days=90)) == game_id
        games, rounds, exported = history.games(), history.rounds(game_id), history.export(game_id)
        images = [history.images(game_id, n) for n in range(1, len(rounds) + 1)]
    assert (games, exported) == (before[0], before[2])
    unpictured = [replace(r, has_frame=False, has_overlay=False, pruned=True) for r in before[1]]
    assert list(rounds) == unpictured
    assert rounds[0].corrected
    assert {(i.frame, i.overlay, i.damaged) for i in images} == {(None, None, ())}
    assert rows(path, "SELECT count(*) FROM corrections") == [(1,)]
    assert rows(path, "SELECT pictures_pruned_at FROM games WHERE id = ?", (game_id,)) == [
        (stamp(calendar.now),)
    ]


def file_size_settled(path: Path) -> int:
    """The journal file's size once its WAL has been written back (no writer open)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return path.stat().st_size


def test_the_room_pruning_frees_takes_the_next_pictures_before_the_file_grows(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    calendar = Calendar()
    with Journal(path, clock=calendar) as journal:
        play_with_pictures(journal, example("classic-1e-4-players"), size=BIG)
        play_with_pictures(journal, example("party-1e-7-players"), 1)
    full = file_size_settled(path)
    with Journal(path, clock=calendar) as journal:
        assert journal.prune_pictures(calendar.next_day()) == 1
        freed = journal.room_inside()
        assert freed > 15 * BIG
        play_with_pictures(journal, example("classic-1e-4-players"), size=BIG)
        left = journal.room_inside()
    assert left < freed - 15 * BIG
    assert file_size_settled(path) <= full + 4 * 4096  # the new game's text, not its pictures


def test_a_picture_changed_behind_the_journal_is_named_damaged_and_not_handed_out(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game_id, _ = play_with_pictures(journal, example("classic-1e-4-players"), 3)
    frame = bytearray(picture(game_id, 2, 2_000))
    frame[1_000] ^= 0x01
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE round_images SET frame = ? WHERE number = 2", (bytes(frame),))
        conn.execute("UPDATE round_images SET overlay = X'00' WHERE number = 3")
    conn.close()
    with JournalFile(path) as reader:
        history = History(reader)
        sound, one, both = (history.images(game_id, n) for n in (1, 2, 3))
    assert (sound.frame, sound.overlay, sound.damaged) == (
        picture(game_id, 1, 2_000),
        picture(game_id, -1, 500),
        (),
    )
    assert (one.frame, one.overlay, one.damaged) == (None, picture(game_id, -2, 500), ("frame",))
    assert (both.frame, both.overlay, both.damaged) == (
        picture(game_id, 3, 2_000),
        None,
        ("overlay",),
    )


def test_a_picture_whose_sum_was_damaged_is_not_handed_out(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game_id, _ = play_with_pictures(journal, example("party-1e-7-players"), 1)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE round_images SET frame_sha256 = zeroblob(32)")
    conn.close()
    with Journal(path) as journal:
        images = History(journal).images(game_id, 1)
    assert (images.frame, images.damaged) == (None, ("frame",))


def version_2_journal(path: Path) -> dict[int, tuple[bytes, bytes]]:
    """A journal as the second schema made it, written with sqlite3 alone: a finished
    game whose rounds keep their pictures without checksums; returns round number to
    its frame and overlay."""
    record = example("odyssey-8-players")
    game = record.start
    conn = sqlite3.connect(path, isolation_level=None)
    for statements in MIGRATIONS[:2]:
        for statement in statements:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 2")
    when = stamp(Calendar().now)
    conn.execute(
        "INSERT INTO games (id, started_at, header, colours, status, finished_at) "
        "VALUES (1, ?, ?, ?, 'finished', ?)",
        (when, dumps(header_document(game)), dumps(colours(game)), when),
    )
    pictures: dict[int, tuple[bytes, bytes]] = {}
    for number, reveal in enumerate(record.reveals, start=1):
        game = game.play(reveal)
        conn.execute(
            "INSERT INTO rounds VALUES (1, ?, ?, ?, ?, ?, ?)",
            (number, dumps(round_documents(game)[-1]), *score_columns(game.played[-1]), when),
        )
        pictures[number] = (picture(1, number, 3_000), picture(1, -number, 700))
        conn.execute("INSERT INTO round_images VALUES (1, ?, ?, ?)", (number, *pictures[number]))
    conn.close()
    return pictures


def test_an_older_journals_pictures_are_handed_out_unsummed_and_new_ones_get_sums(
    tmp_path: Path,
) -> None:
    """Summing the pictures of an older journal would rewrite every one of them at the
    first start after an upgrade: they are kept as they are, without sums."""
    path = tmp_path / "journal.sqlite"
    pictures = version_2_journal(path)
    with JournalFile(path) as reader:
        history = History(reader)
        listed_before = history.games()
        assert history.images(1, 4) == RoundImages(*pictures[4])
    with Journal(path) as journal:
        assert journal.resume() is None
        new_id, _ = play_with_pictures(journal, example("party-1e-7-players"), 1)
    assert rows(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    kept = rows(
        path,
        "SELECT number, frame, overlay, frame_sha256, overlay_sha256 "
        "FROM round_images WHERE game_id = 1 ORDER BY 1",
    )
    assert kept == [(n, *pictures[n], None, None) for n in sorted(pictures)]
    frame, overlay = picture(new_id, 1, 2_000), picture(new_id, -1, 500)
    assert rows(
        path, "SELECT frame_sha256, overlay_sha256 FROM round_images WHERE game_id = ?", (new_id,)
    ) == [(hashlib.sha256(frame).digest(), hashlib.sha256(overlay).digest())]
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE round_images SET overlay = substr(overlay, 2)")
    conn.close()
    with JournalFile(path) as reader:
        history = History(reader)
        assert history.games()[1:] == listed_before
        unsummed = history.images(1, 4)
        summed = history.images(new_id, 1)
    assert unsummed == RoundImages(pictures[4][0], pictures[4][1][1:])
    assert summed == RoundImages(frame, None, ("overlay",))
