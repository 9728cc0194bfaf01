"""Start-up with a damaged journal: keep the bad file, save what can be read, play on.

The companion must start even when its journal is damaged (a failing SD card, a
file copied half-way), and must not destroy the evidence. These are the steps of
`open_or_recover` (`Journal.open_or_recover`): move the damaged file and its WAL aside as
`NAME.corrupt-<time>`, read the moved copy read-only, as leniently as SQLite
allows, and copy into a fresh journal every game whose header can be read, with
its rounds from round 1 up to the first that cannot be read or does not replay
legally. Whatever is saved is written in
one transaction, so a power cut during recovery leaves a journal that is either
fully salvaged or empty (and the damaged copy still on disk).

The game being set up (the `setup` row) is not salvaged: the table only sets up
again from the start, and games are what must not be lost.
"""

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from os import PathLike
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import CompanionError, JournalCorruptError, UnwritableFileError
from companion.journal.clock import Clock, KeptTime, TableClock, kept_time
from companion.journal.documents import DAMAGED, player_colours, record, stored_time
from companion.journal.file import (
    JournalFile,
    check_whole,
    connect_read_only,
    make_room,
    suspect_path,
)
from companion.journal.history import checked
from companion.journal.lock import WriterLock
from companion.journal.place import real_journal
from companion.journal.records import RestoredGame, RestoredRound, RoundImages
from companion.journal.restoring import restore
from companion.journal.writer import SYSTEM_CLOCK, JournalWriter
from companion.rules import Game, Reveal

W = TypeVar("W", bound=JournalWriter)

SIDE_FILES = ("-wal", "-shm")
"""The files SQLite keeps beside a WAL-mode database, which move with it."""


def open_or_recover(
    kind: type[W], path: str | PathLike[str], *, clock: Clock | TableClock = SYSTEM_CLOCK
) -> tuple[W, str | None]:
    """Open the journal as a `kind` (the `Journal`); if it is damaged, move it aside and
    salvage it into a fresh one.

    Damaged means SQLite's check fails, or the game to resume cannot be read back
    (damage inside a round's text, which the check does not read).

    Returns the journal and, after a recovery, a message for the screen saying what
    was kept. Raises only when no journal can be written at `path` at all
    (`UnwritableFileError`), SQLite cannot run there (`JournalError`), or the file
    is not this companion's to use (`NotAJournalError`, `LinkedJournalError`).
    """
    path = real_journal(path)
    make_room(path, create=True)
    lock = WriterLock(path)
    try:
        journal, aside = _opened_or_moved_aside(kind, path, clock, lock)
    except BaseException:
        lock.close()
        raise
    if aside is None:
        return journal, None
    try:
        saved = restore(journal, salvage(aside), salvaged_time(aside))
    except CompanionError as err:
        return journal, recovery_message(path, aside, None, err)
    return journal, recovery_message(path, aside, saved)


def _opened_or_moved_aside(
    kind: type[W], path: Path, clock: Clock | TableClock, lock: WriterLock
) -> tuple[W, Path | None]:
    """The journal opened, or a fresh one after moving the damaged file aside (and
    where it went), all under one writer lock so no other companion opens it between."""
    try:
        journal = kind(path, clock=clock, lock=lock)
    except JournalCorruptError:
        pass
    else:
        try:
            journal.resume()
            if suspect_path(path).exists():  # damage met in play: check every page now
                with journal.transaction("checking the whole journal") as conn:
                    check_whole(conn, path)
                suspect_path(path).unlink(missing_ok=True)
        except JournalCorruptError:  # damage the start's checks cannot see: a round's text
            JournalFile.close(journal)  # the file only: the lock is kept for the recovery
        except BaseException:
            journal.close()
            raise
        else:
            return journal, None
    aside = move_aside(path, TableClock.of(clock).wall())
    suspect_path(path).unlink(missing_ok=True)
    return kind(path, clock=clock, lock=lock), aside


def recovery_message(
    path: Path, aside: Path, saved: tuple[int, int] | None, failure: Exception | None = None
) -> str:
    """What the screen says after a recovery: where the bad file went, what was saved."""
    head = f"The journal {path.name} could not be opened; it is kept as {aside.name}."
    if failure is not None:
        return f"{head} Nothing could be saved from it ({failure}); a new journal was started."
    if saved is None or saved[0] == 0:
        return f"{head} Nothing could be saved from it; a new journal was started."
    games, rounds = saved
    return (
        f"{head} Saved {_count(games, 'game')} with {_count(rounds, 'round')} "
        "into a new journal; anything after them was lost."
    )


def move_aside(path: Path, now: datetime) -> Path:
    """Rename the journal and its WAL files to `NAME.corrupt-<time>`; returns the new name.

    The database moves first: should the power go between the renames, a WAL left
    behind replays into the next journal opened at `path`, which then fails its
    check and is moved aside in turn, so nothing is silently lost.
    """
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    extra = 1
    while any(Path(f"{target}{suffix}").exists() for suffix in ("", *SIDE_FILES)):
        extra += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{extra}")
    try:
        os.replace(path, target)
        for suffix in SIDE_FILES:
            side = Path(f"{path}{suffix}")
            if side.exists():
                os.replace(side, Path(f"{target}{suffix}"))
    except OSError as err:
        raise UnwritableFileError(
            f"{path}: the journal is damaged and cannot be moved aside "
            f"({err.strerror or err}); move it away by hand"
        ) from None
    return target


def salvage(copy: Path) -> Iterator[RestoredGame]:
    """Every game of a damaged journal that can still be read, with its readable rounds."""
    conn = _connect_read_only(copy)
    if conn is None:
        return
    try:
        rounds = _round_rows(conn)
        seen: set[int] = set()
        for row in _rows(
            conn,
            "SELECT id, started_at, header, colours, status, finished_at FROM games "
            "NOT INDEXED ORDER BY id",
        ):
            game = _restored_game(conn, row, rounds)
            if game is not None and game.id not in seen:
                seen.add(game.id)
                yield game
    finally:
        conn.close()


def _restored_game(
    conn: sqlite3.Connection, row: tuple[Any, ...], rounds: dict[int, dict[int, tuple[str, str]]]
) -> RestoredGame | None:
    """A readable `games` row as a game to restore, or None."""
    game_id, started_at, header, colours, status, finished_at = row
    if not isinstance(game_id, int):
        return None
    try:
        start = record(header, []).start
        restored = RestoredGame(
            id=game_id,
            start=start,
            colours=player_colours(colours, start.seating.players),
            started_at=stored_time(started_at),
            abandoned=status == "abandoned",
            finished_at=None if finished_at is None else stored_time(finished_at),
            rounds=(),
        )
    except DAMAGED:
        return None
    reveals = _readable_reveals(header, start, rounds.get(restored.id, {}))
    marks = _first_row(
        conn,
        (
            "SELECT pictures_pruned_at, imported, table_time FROM games WHERE id = ?",
            "SELECT pictures_pruned_at, imported, NULL FROM games WHERE id = ?",
        ),
        (restored.id,),
    )
    pruned, imported, table_time = marks if marks is not None else (None, None, None)
    return replace(
        restored,
        rounds=_restored_rounds(conn, restored.id, reveals),
        pictures_pruned_at=pruned if isinstance(pruned, str) else None,
        imported=imported if isinstance(imported, str) else None,
        table_time=table_time if isinstance(table_time, str) else None,
    )


def salvaged_time(copy: Path) -> KeptTime | None:
    """The damaged journal's last reading of its clocks, if it can be read: the salvaged
    games' own times go on from it (see `clock`)."""
    conn = _connect_read_only(copy)
    if conn is None:
        return None
    try:
        return kept_time(conn)
    finally:
        conn.close()


def _connect_read_only(copy: Path) -> sqlite3.Connection | None:
    """The damaged copy opened read-only, with its WAL if SQLite can, else without."""
    for immutable in (False, True):
        try:
            conn = connect_read_only(copy, immutable=immutable)
        except sqlite3.Error:
            continue
        try:
            # Lets SQLite read a file shorter than its header says (a truncated copy).
            conn.execute("PRAGMA writable_schema = ON")
            conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        except sqlite3.Error:
            conn.close()
            continue
        return conn
    return None


def _rows(conn: sqlite3.Connection, query: str) -> list[tuple[Any, ...]]:
    """The rows of a query up to the first that cannot be read."""
    rows: list[tuple[Any, ...]] = []
    with contextlib.suppress(sqlite3.Error):
        rows.extend(conn.execute(query))
    return rows


def _round_rows(conn: sqlite3.Connection) -> dict[int, dict[int, tuple[str, str]]]:
    """Game to round number to (reveal, committed_at), for every readable round row."""
    found: dict[int, dict[int, tuple[str, str]]] = {}
    for game_id, number, reveal, committed_at in _rows(
        conn, "SELECT game_id, number, reveal, committed_at FROM rounds NOT INDEXED"
    ):
        if all(isinstance(v, int) for v in (game_id, number)) and all(
            isinstance(v, str) for v in (reveal, committed_at)
        ):
            found.setdefault(game_id, {})[number] = (reveal, committed_at)
    return found


def _readable_reveals(
    header: str, start: Game, rows: dict[int, tuple[str, str]]
) -> list[tuple[Reveal, datetime]]:
    """The rounds from round 1 on that decode and replay legally, up to the first that does not."""
    kept: list[tuple[Reveal, datetime]] = []
    game = start
    number = 1
    while number in rows:
        reveal_text, committed_at = rows[number]
        try:
            reveal = record(header, [reveal_text]).reveals[0]
            game = game.play(reveal)
            kept.append((reveal, stored_time(committed_at)))
        except DAMAGED:
            break
        number += 1
    return kept


def _restored_rounds(
    conn: sqlite3.Connection, game_id: int, reveals: list[tuple[Reveal, datetime]]
) -> Iterator[RestoredRound]:
    for number, (reveal, committed_at) in enumerate(reveals, start=1):
        yield RestoredRound(reveal, committed_at, _images(conn, game_id, number))


def _images(conn: sqlite3.Connection, game_id: int, number: int) -> RoundImages:
    """A round's pictures, or None for each that cannot be read or no longer matches
    its checksum: a salvaged journal sums its pictures anew, so a damaged one must not
    come through to be taken for sound."""
    row = _first_row(
        conn,
        (
            "SELECT frame, overlay, frame_sha256, overlay_sha256 FROM round_images "
            "WHERE game_id = ? AND number = ?",
            "SELECT frame, overlay, NULL, NULL FROM round_images WHERE game_id = ? AND number = ?",
        ),
        (game_id, number),
    )
    if row is None:
        return RoundImages(None, None)
    found = checked(*row)
    return RoundImages(found.frame, found.overlay)


def _first_row(
    conn: sqlite3.Connection, queries: tuple[str, ...], values: tuple[object, ...]
) -> tuple[Any, ...] | None:
    """The row the first query that SQLite can run gives (a journal of an older schema
    lacks the newer columns), or None."""
    for query in queries:
        try:
            row: tuple[Any, ...] | None = conn.execute(query, values).fetchone()
        except sqlite3.Error:
            continue
        return row
    return None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
