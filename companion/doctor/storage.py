"""The storage checks: is the journal sound and writable, and how many rounds still fit?

The journal is opened the way `companion history` opens it (read-only, never
created, checked with SQLite's quick_check and the schema on opening, and without
waiting for the writer lock, so the doctor runs while the table plays) and every
stored game is replayed through the rules, so a damaged round is found now rather
than during a game. Nothing is repaired or changed here: a damaged journal is moved
aside and salvaged by `companion play` at its next start, and the doctor leaves the
evidence as it is; a file that is not a journal at all is refused by `play` too.
"""

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from companion.doctor.findings import DISK, JOURNAL, Finding, Issue, Status, combine
from companion.doctor.host import nearest_folder, owner_of, user_name
from companion.errors import (
    JournalCorruptError,
    JournalError,
    NotAJournalError,
    UnreadableFileError,
    UnwritableFileError,
)
from companion.journal import DamagedGame, GameStatus, GameSummary, History
from companion.journal.faults import RECOVERY_ADVICE, corrupt
from companion.journal.file import JournalFile
from companion.wording import count

ROUND_BYTES_GUESS = 1_000_000
"""Bytes a round takes before any is stored to measure: the frame and the overlay
picture kept with it, as JPEG at full resolution, with room to spare."""
FAIL_BELOW_BYTES = 200_000_000
"""Free space under which the journal may fill the disk in an evening."""
WARN_BELOW_BYTES = 1_000_000_000
"""Free space under which a café should make room soon."""
WARN_BELOW_ROUNDS = 2_000
"""Rounds left under which a café should make room soon (a few weeks of play)."""
WAL_SUFFIX = "-wal"
"""SQLite's write-ahead log beside the journal: rounds not yet copied into the file."""

_RECOVERY_FIX = "`companion play` moves it aside and saves every readable round at its next start"
_FOREIGN_FIX = "give the table a journal of its own (`--journal PATH`) or move this file away"
_ROOM_FIX = (
    "make room: export old games with `companion history N --export FILE` and keep the "
    "files elsewhere, move the journal aside (`companion play` starts a fresh one), or "
    "put in a bigger SD card"
)


@dataclass(frozen=True)
class JournalStats:
    """What the journal holds, for the disk check's arithmetic."""

    size_bytes: int
    """The journal file with its write-ahead log."""
    rounds: int
    """Rounds stored, in every game."""


def journal_check(path: Path) -> tuple[Finding, JournalStats | None]:
    """The journal's finding, and its size and rounds for the disk check."""
    issues = _writable(path)
    if not path.exists():
        detail = f"no games yet: `companion play` starts the journal at {path}"
        return combine(JOURNAL, detail, issues), JournalStats(0, 0)
    size = _size(path)
    if size == 0:
        detail = f"{path} is empty: `companion play` makes it a journal"
        return combine(JOURNAL, detail, issues), JournalStats(0, 0)
    try:
        with JournalFile(path) as journal:
            listed = History(journal).games()
        damaged = [g for g in listed if isinstance(g, DamagedGame)]
        if damaged:
            first = damaged[0]
            raise corrupt(path, f"game {first.id}: {first.damage}")
    except JournalCorruptError as err:
        reason = str(err).removesuffix(f"; {RECOVERY_ADVICE}")
        return Finding(Status.FAIL, JOURNAL, reason, _RECOVERY_FIX), None
    except NotAJournalError as err:
        return Finding(Status.FAIL, JOURNAL, str(err), _FOREIGN_FIX), None
    except UnwritableFileError as err:
        return Finding(Status.FAIL, JOURNAL, str(err), _permission_fix(path)), None
    except UnreadableFileError:
        return Finding(Status.OK, JOURNAL, f"no games yet at {path}"), JournalStats(0, 0)
    except JournalError as err:
        fix = "run `companion doctor` again in a moment"
        return Finding(Status.WARN, JOURNAL, str(err), fix), None
    games = [g for g in listed if isinstance(g, GameSummary)]
    rounds = sum(g.rounds for g in games)
    held = f"{count(len(games), 'game')}, {count(rounds, 'round')}, {human_bytes(size)}"
    playing = next((g for g in games if g.status is GameStatus.PLAYING), None)
    if playing is not None:
        held += (
            f"; game {playing.id} in progress ({playing.ruleset}, "
            f"{count(len(playing.players), 'player')}, {count(playing.rounds, 'round')})"
        )
    detail = f"{path}: {held}; every game replays"
    return combine(JOURNAL, detail, issues), JournalStats(size, rounds)


def _size(path: Path) -> int:
    """The journal's bytes on disk, with its write-ahead log if there is one."""
    wal = path.with_name(path.name + WAL_SUFFIX)
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def _writable(path: Path) -> list[Issue]:
    """FAIL if this user cannot write the journal or make it in its folder."""
    folder = nearest_folder(path)
    if not os.access(folder, os.W_OK | os.X_OK):
        return [
            Issue(
                Status.FAIL,
                f"this user ({user_name()}) cannot write in {folder} (owned by {owner_of(folder)})",
                _permission_fix(folder),
            )
        ]
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return [
            Issue(
                Status.FAIL,
                f"this user ({user_name()}) cannot write {path} (owned by {owner_of(path)})",
                _permission_fix(path),
            )
        ]
    return []


def _permission_fix(target: Path) -> str:
    """Who should run the doctor, or whose the file or folder should be."""
    me = user_name()
    try:
        owner = owner_of(target)
    except OSError:
        owner = me
    if owner == me:
        return f"let {me} write there: `chmod u+rw {target}`"
    return (
        f"if the companion runs as {owner}, run the doctor as {owner} "
        f"(`sudo -u {owner} companion doctor`); if not, give it to the companion's user: "
        f"`sudo chown -R USER {target}`"
    )


def disk_check(path: Path, stats: JournalStats | None) -> Finding:
    """Free space where the journal lives, and how many rounds it still holds."""
    folder = nearest_folder(path)
    usage = shutil.disk_usage(folder)
    measured = stats is not None and stats.rounds > 0
    per_round = stats.size_bytes / stats.rounds if stats is not None and measured else None
    each = per_round or ROUND_BYTES_GUESS
    left = int(usage.free // each)
    if per_round:
        basis = "as measured"
    elif stats is None:
        basis = "a guess: the journal could not be measured"
    else:
        basis = "a guess, with no rounds stored yet"
    detail = (
        f"{human_bytes(usage.free)} free of {human_bytes(usage.total)} at {folder}: room for "
        f"about {left:,} rounds at {human_bytes(each)} a round ({basis})"
    )
    if usage.free < FAIL_BELOW_BYTES:
        return Finding(Status.FAIL, DISK, f"the disk is nearly full: {detail}", _ROOM_FIX)
    if usage.free < WARN_BELOW_BYTES or left < WARN_BELOW_ROUNDS:
        return Finding(Status.WARN, DISK, f"space is running low: {detail}", _ROOM_FIX)
    return Finding(Status.OK, DISK, detail)


def human_bytes(size: float) -> str:
    """A size as a café owner reads it: "850 kB", "12 MB", "3.4 GB"."""
    if size < 1e6:
        return f"{size / 1e3:.0f} kB"
    if size < 1e9:
        return f"{size / 1e6:.1f} MB" if size < 1e7 else f"{size / 1e6:.0f} MB"
    return f"{size / 1e9:.1f} GB"
