"""`companion history [--journal PATH] [GAME]`: what the journal holds, and how to get it out.

Without a game: one line per game, newest first. With a game: one line per round,
with a mark on corrected rounds. `--export` writes the game file that `companion
score` reads, so any game can be rescored or checked away from the café;
`--frame N` and `--overlay N` write the pictures a round was scored from. The
journal is opened read-only, never created, repaired or locked here: a listing must
not move a café's only journal aside, change another program's file given by
mistake, or wait for the table that is playing. Every game is replayed to be listed,
and one that does not replay is listed by its damage and makes the exit status 2.
Outputs are written whole or not at all (a temporary file, then a rename), and never
over the journal or the files SQLite and the writer keep beside it.
"""

import argparse
import os
import stat
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.cli.each import fail
from companion.errors import CompanionError, JournalError, SettingError, UnwritableFileError
from companion.journal import (
    DamagedGame,
    GameSummary,
    History,
    RoundSummary,
    default_journal_path,
)
from companion.journal.faults import corrupt
from companion.journal.file import JournalFile
from companion.journal.lock import lock_path
from companion.journal.recovery import SIDE_FILES

NEW_FILE_MODE = 0o644
"""Permissions of an export or picture written where there was none."""


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "history",
        help="list the games and rounds in the journal; export a game or a round's pictures",
        description=(
            "List the games in the journal, or the rounds of one game; export a game as a "
            "game file for `companion score`, or write the frame or overlay a round was "
            "scored from."
        ),
    )
    parser.add_argument(
        "--journal",
        type=Path,
        help="the journal file (default: $COMPANION_STATE_DIR/journal.sqlite, "
        "else ./state/journal.sqlite)",
    )
    parser.add_argument("game", nargs="?", type=int, metavar="GAME", help="a game's number")
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--export",
        nargs="?",
        const="-",
        metavar="FILE",
        help="write the game as a game file (JSON) to FILE, or to standard output",
    )
    what.add_argument("--frame", type=int, metavar="N", help="write round N's camera frame")
    what.add_argument("--overlay", type=int, metavar="N", help="write round N's overlay")
    parser.add_argument("--out", type=Path, metavar="FILE", help="where --frame or --overlay go")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List, export or write pictures; one line on stderr and exit 2 on any fault."""
    path = args.journal or default_journal_path()
    try:
        picture = _picture_wanted(args)
        with JournalFile(path) as file:
            journal = History(file)
            if args.game is None:
                _list_games(journal)
            elif args.export is not None:
                _export(journal, args.game, args.export)
            elif picture is not None:
                _picture(journal, args.game, *picture, args.out)
            else:
                _list_rounds(journal, args.game)
    except CompanionError as err:
        return fail("history", err)
    return 0


def _picture_wanted(args: argparse.Namespace) -> tuple[str, int] | None:
    """Which picture of which round to write, if any; refuses options that do not fit."""
    picture = (
        ("frame", args.frame)
        if args.frame is not None
        else ("overlay", args.overlay)
        if args.overlay is not None
        else None
    )
    if (args.export is not None or picture is not None) and args.game is None:
        raise SettingError("--export, --frame and --overlay need a GAME number")
    if picture is not None and args.out is None:
        raise SettingError(f"--{picture[0]} {picture[1]} needs --out FILE")
    if args.out is not None and picture is None:
        raise SettingError("--out goes with --frame N or --overlay N")
    return picture


def _list_games(journal: History) -> None:
    games = journal.games()
    if not games:
        print(f"no games yet in {journal.file.path}")
    for game in games:
        print(_game_line(game))
    damaged = [str(game.id) for game in games if isinstance(game, DamagedGame)]
    if damaged:
        which = f"game {damaged[0]}" if len(damaged) == 1 else f"games {', '.join(damaged)}"
        raise corrupt(journal.file.path, f"{which} listed above cannot be replayed")


def _game_line(game: GameSummary | DamagedGame) -> str:
    if isinstance(game, DamagedGame):
        return f"game {game.id}: {game.damage}"
    started = game.started_at.astimezone().strftime("%Y-%m-%d %H:%M")
    rounds = "1 round" if game.rounds == 1 else f"{game.rounds} rounds"
    won = f"won by {', '.join(game.winners)}; " if game.winners else ""
    return (
        f"game {game.id}  {started}  {game.ruleset}  {', '.join(game.players)}  "
        f"{rounds}  {game.status.value}  {won}{_points(game.totals)}"
    )


def _list_rounds(journal: History, game_id: int) -> None:
    rounds = journal.rounds(game_id)
    print(_game_line(journal.game(game_id)))
    for played in rounds:
        print(_round_line(played))


def _round_line(played: RoundSummary) -> str:
    gains = ", ".join(f"{scorer} {_signed(points)}" for scorer, points in played.deltas.items())
    tail = "  [corrected]" if played.corrected else ""
    return (
        f"round {played.number}  storyteller {played.storyteller}  {gains}  "
        f"totals {_points(played.totals)}{tail}"
    )


def _export(journal: History, game_id: int, target: str) -> None:
    text = journal.export(game_id) + "\n"
    if target == "-":
        sys.stdout.write(text)
        return
    _write(Path(target), text.encode("utf-8"), "the game file", journal.file.path)


def _picture(journal: History, game_id: int, kind: str, number: int, out: Path) -> None:
    images = journal.images(game_id, number)
    data = images.frame if kind == "frame" else images.overlay
    if data is None:
        raise JournalError(
            f"{journal.file.path}: round {number} of game {game_id} has no {kind} kept"
        )
    _write(out, data, f"the {kind}", journal.file.path)
    note = sys.stderr if _is_standard_output(out) else sys.stdout  # keep the picture clean
    print(f"wrote the {kind} of round {number} of game {game_id} to {out}", file=note)


def _write(path: Path, data: bytes, what: str, journal: Path) -> None:
    """Write `data` whole or not at all: into a temporary file beside `path`, synced to
    disk, then renamed over it, so a full disk or a power cut leaves the old file. A
    stream (`/dev/stdout`, a FIFO, a device) is written straight through: renaming a
    file over it would not reach its reader, and would replace a device (`/dev/null`
    run as root) by a regular file."""
    _refuse_journal_files(path, journal, what)
    try:
        stream = not stat.S_ISREG(path.stat().st_mode)
    except OSError:  # not there yet (or not to be looked at): made whole below
        stream = False
    if stream:
        _write_through(path, data, what)
        return
    target = path.resolve()
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as err:
        raise UnwritableFileError(f"{path}: cannot write {what} ({err.strerror or err})") from None
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), _mode_for(target))
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except OSError as err:
        Path(temporary).unlink(missing_ok=True)
        raise UnwritableFileError(f"{path}: cannot write {what} ({err.strerror or err})") from None


def _write_through(path: Path, data: bytes, what: str) -> None:
    """Write into a stream that is there already, never making a file in its place."""
    try:
        fd = os.open(path, os.O_WRONLY)
        with os.fdopen(fd, "wb") as file:
            file.write(data)
    except OSError as err:
        raise UnwritableFileError(f"{path}: cannot write {what} ({err.strerror or err})") from None


def _is_standard_output(path: Path) -> bool:
    """Whether `path` is where standard output goes (`--out /dev/stdout`)."""
    try:
        return os.path.samestat(path.stat(), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):  # no stdout, or one with no file
        return False


def _mode_for(target: Path) -> int:
    """The permissions the file had, or a new file's usual ones (mkstemp's are private)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return NEW_FILE_MODE


def _refuse_journal_files(path: Path, journal: Path, what: str) -> None:
    """Refuse to write over the journal, its WAL files or its lock, by any name."""
    kept = [journal, *(Path(f"{journal}{suffix}") for suffix in SIDE_FILES), lock_path(journal)]
    for used in kept:
        same = path.resolve() == used.resolve()
        if not same and path.exists() and used.exists():
            same = os.path.samefile(path, used)
        if same:
            raise UnwritableFileError(
                f"{path}: will not write {what} over the journal's file {used}; give another FILE"
            )


def _points(points: Mapping[str, int]) -> str:
    return ", ".join(f"{scorer} {total}" for scorer, total in points.items())


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)
