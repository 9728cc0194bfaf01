"""The storage checks: is the journal sound and writable, and how long until the disk is full?

The journal is opened the way `companion history` opens it (read-only, never
created, with the archive beside it as `open_archive` finds it, and without waiting
for the writer lock, so the doctor runs while the table plays). The doctor is where the
whole file is checked: `companion play` checks at its start only what every start
reads, in the same time for a new journal as for a year's, so here SQLite's
`quick_check` reads every page of the journal and of the archive (`check_whole`), and
every stored game is replayed through the rules, so a damaged round is found now
rather than during a game. Nothing is repaired or changed here: a damaged journal is
moved aside and salvaged by `companion play` at its next start, and the doctor leaves
the evidence as it is; a file that is not a journal at all is refused by `play` too.

The room left is told in days of play at the rate the table has played lately
(`recent_use`): what a journal holds says little about next week once old pictures
are pruned.
"""

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from companion.doctor.findings import DISK, JOURNAL, Finding, Issue, Status, combine
from companion.doctor.host import nearest_folder, owner_of, user_name
from companion.errors import (
    CompanionError,
    JournalCorruptError,
    JournalError,
    NotAJournalError,
    UnreadableFileError,
    UnwritableFileError,
)
from companion.journal import DamagedGame, GameStatus, GameSummary, History, archive_path
from companion.journal.archive_file import Damaged, Open, open_archive
from companion.journal.faults import RECOVERY_ADVICE, corrupt
from companion.journal.file import JournalFile, check_whole
from companion.journal.store import utc_now
from companion.journal.usage import Use, recent_use
from companion.phrases import plural
from companion.wording import count

ROUND_BYTES_GUESS = 200_000
"""Bytes a round takes when no recent play can be measured: its frame and overlay,
cut to the board and bounded to some 150 kB together (`companion.imaging.evidence`), with
the round's texts and room to spare."""
RATE_DAYS = 30
"""The recent play the rate is measured over: long enough to hold the café's quiet
and busy days, short enough to follow a new season."""
WARN_BELOW_DAYS = 30
"""Days of play left under which a café should make room soon."""
FAIL_BELOW_DAYS = 3
"""Days of play left under which the journal may fill the disk before anyone acts."""
FAIL_BELOW_BYTES = 200_000_000
"""Free space under which the Pi itself (its logs, its updates, SQLite's write-ahead
log) may run out, whatever the rate of play."""
WARN_BELOW_BYTES = 1_000_000_000
"""Free space under which a café should make room soon, when there is no rate to go by."""
WARN_BELOW_ROUNDS = 2_000
"""Rounds left under which a café should make room soon, when there is no rate to go
by (a few weeks of play)."""
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
    """Rounds stored, in every game (the archive's included)."""
    use: Use | None = None
    """The play of the last `RATE_DAYS` days and the journal's free pages, once measured."""


def journal_check(
    path: Path, *, clock: Callable[[], datetime] = utc_now
) -> tuple[Finding, JournalStats | None]:
    """The journal's finding, checked whole with its archive, and what it holds for
    the disk check (recent play measured up to `clock`'s time)."""
    issues = _writable(path)
    if not path.exists():
        detail = f"no games yet: `companion play` starts the journal at {path}"
        return combine(JOURNAL, detail, issues), JournalStats(0, 0)
    size = _size(path)
    if size == 0:
        detail = f"{path} is empty: `companion play` makes it a journal"
        return combine(JOURNAL, detail, issues), JournalStats(0, 0)
    try:
        with JournalFile(path) as file:
            listed = _checked_games(file)
            use = recent_use(file, clock() - timedelta(days=RATE_DAYS))
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
    archived, archive_issues = _archive_check(path, {g.id for g in games})
    rounds = sum(g.rounds for g in games + archived)
    total = len(games) + len(archived)
    held = f"{count(total, 'game')}, {count(rounds, 'round')}, {human_bytes(size)}"
    if archived:
        archive = archive_path(path)
        kept = human_bytes(_size(archive))
        held += f"; {count(len(archived), 'game')} archived in {archive.name} ({kept})"
    playing = next((g for g in games if g.status is GameStatus.PLAYING), None)
    if playing is not None:
        held += (
            f"; game {playing.id} in progress ({playing.ruleset}, "
            f"{count(len(playing.players), 'player')}, {count(playing.rounds, 'round')})"
        )
    detail = f"{path}: {held}; checked whole, every game replays"
    return combine(JOURNAL, detail, issues + archive_issues), JournalStats(size, rounds, use)


def _checked_games(file: JournalFile) -> list[GameSummary]:
    """Every game of a journal file, once SQLite has checked the whole file; raises
    `JournalCorruptError` for damage in the file or in any game."""
    with file.transaction("checking the whole file") as conn:
        check_whole(conn, file.path)
    listed = History(file).games()
    damaged = [g for g in listed if isinstance(g, DamagedGame)]
    if damaged:
        first = damaged[0]
        raise corrupt(file.path, f"game {first.id}: {first.damage}")
    return [g for g in listed if isinstance(g, GameSummary)]


def _archive_check(path: Path, held: set[int]) -> tuple[list[GameSummary], list[Issue]]:
    """The games of the archive beside the journal (those not also in the journal: an
    archiving cut short), checked like the journal; or what is wrong with it. Only
    `history` and the phone page read it, so `companion play` never salvages it."""
    state = open_archive(path)
    if isinstance(state, Damaged):
        return [], [_archive_issue(state)]
    if not isinstance(state, Open):  # none yet, or an archiving killed as it began
        return [], []
    try:
        with state.file as file:
            games = _checked_games(file)
    except CompanionError as err:
        return [], [_archive_issue(Damaged(state.path, err))]
    return [g for g in games if g.id not in held], []


def _archive_issue(damage: Damaged) -> Issue:
    """A damaged archive fails with what to do about it; one this user may not read
    fails with whose it should be; anything else is worth a second look."""
    said = f"the archive: {damage.said}"
    if damage.advice is not None:
        return Issue(Status.FAIL, said, damage.advice)
    if isinstance(damage.cause, UnwritableFileError):
        return Issue(Status.FAIL, said, _permission_fix(damage.path))
    return Issue(Status.WARN, said, "run `companion doctor` again in a moment")


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
    """Free space where the journal lives (with the free pages inside it), and how many
    days of play that leaves at the recent rate; a guess in rounds without one."""
    folder = nearest_folder(path)
    usage = shutil.disk_usage(folder)
    use = stats.use if stats is not None else None
    inside = use.free_bytes if use is not None else 0
    room = usage.free + inside
    where = f"{human_bytes(usage.free)} free of {human_bytes(usage.total)} at {folder}"
    if inside:
        where += f" and {human_bytes(inside)} free inside the journal"
    per_round = use.round_bytes if use is not None else None
    per_day = use.rounds_per_day if use is not None else None
    if use is None or not per_round or not per_day:
        return _guessed(where, usage.free, room, stats)
    days = room / (per_round * per_day)
    left = plural("{figure} day", "{figure} days", round(days), figure=f"{days:,.0f}")
    pace = plural("{figure} round", "{figure} rounds", round(per_day), figure=f"{per_day:,.0f}")
    detail = (
        f"{where}: about {left} of play left at {pace} a day of "
        f"play, {human_bytes(per_round)} a round (the last {RATE_DAYS} days: "
        f"{count(use.rounds, 'round')} on {count(use.days, 'day')} of play)"
    )
    if usage.free < FAIL_BELOW_BYTES or days < FAIL_BELOW_DAYS:
        return Finding(Status.FAIL, DISK, f"the disk is nearly full: {detail}", _ROOM_FIX)
    if days < WARN_BELOW_DAYS:
        return Finding(Status.WARN, DISK, f"space is running low: {detail}", _ROOM_FIX)
    return Finding(Status.OK, DISK, detail)


def _guessed(where: str, free: int, room: int, stats: JournalStats | None) -> Finding:
    """The disk's finding with no recent play to measure: rounds left at a guessed size."""
    left = int(room // ROUND_BYTES_GUESS)
    if stats is None:
        basis = "a guess: the journal could not be measured"
    elif stats.rounds == 0:
        basis = "a guess, with no rounds stored yet"
    else:
        basis = f"a guess: no round was played in the last {RATE_DAYS} days"
    rounds = plural("{figure} round", "{figure} rounds", left, figure=f"{left:,}")
    detail = (
        f"{where}: room for about {rounds} at {human_bytes(ROUND_BYTES_GUESS)} a round ({basis})"
    )
    if free < FAIL_BELOW_BYTES:
        return Finding(Status.FAIL, DISK, f"the disk is nearly full: {detail}", _ROOM_FIX)
    if free < WARN_BELOW_BYTES or left < WARN_BELOW_ROUNDS:
        return Finding(Status.WARN, DISK, f"space is running low: {detail}", _ROOM_FIX)
    return Finding(Status.OK, DISK, detail)


def human_bytes(size: float) -> str:
    """A size as a café owner reads it: "850 kB", "12 MB", "3.4 GB"."""
    if size < 1e6:
        return f"{size / 1e3:.0f} kB"
    if size < 1e9:
        return f"{size / 1e6:.1f} MB" if size < 1e7 else f"{size / 1e6:.0f} MB"
    return f"{size / 1e9:.1f} GB"
