"""`companion history [--journal PATH] [GAME]`: what the journal holds, and how to get it out.

Without a game: one line per game, newest first. With a game: one line per round,
with a mark on corrected rounds and on rounds whose pictures were pruned or are
damaged. `--export` writes the game file that `companion score` reads, so any game
can be rescored or checked away from the café; `--frame N` and `--overlay N` write
the pictures a round was scored from, never a picture that no longer matches its
checksum. The journal is read with the archive beside it (`history archive` moves
the oldest games there), opened read-only, never created, repaired or locked here: a
listing must not move a café's only journal aside, change another program's file
given by mistake, or wait for the table that is playing. Every game is replayed to be
listed, and one that does not replay is listed by its damage and makes the exit
status 2; so does an archive that cannot be read, told in one line after the
journal's games (`open_archive`). Outputs are written whole or not at all (a
temporary file, then a rename), and never over the journal, its archive or the files
SQLite and the writer keep beside them.

Two words after `history` write, and so take the journal's writer lock (they are
refused while `companion play` holds it): `history archive [--older-than DAYS]`
moves the finished games older than that into the archive, and `history import
FILE...` keeps games played elsewhere (game files, as `companion score` reads them),
each replayed through the rules first. The words are read as the GAME argument, so
that `history 3` stays what it was.
"""

import argparse
import os
import stat
import sys
import tempfile
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion.cli.each import EXIT_BAD_INPUT, complain, fail, file_label
from companion.errors import (
    CompanionError,
    JournalError,
    JournalInUseError,
    SettingError,
    UnwritableFileError,
)
from companion.journal import (
    DamagedGame,
    GameSummary,
    History,
    Journal,
    RoundSummary,
    archive_path,
    default_journal_path,
    read_history,
)
from companion.journal.archive import archivable, archive_games
from companion.journal.faults import corrupt
from companion.journal.game_files import FileKept, import_file
from companion.journal.imports import ImportedGames
from companion.journal.lock import lock_path
from companion.journal.recovery import SIDE_FILES
from companion.journal.store import utc_now
from companion.phrases import plural
from companion.statedir import journal_to_read

ARCHIVE = "archive"
"""The word that moves old games into the archive."""
IMPORT = "import"
"""The word that imports game files."""
ARCHIVE_DAYS = 365
"""How old a finished game is before `history archive` moves it, unless told."""
NEW_FILE_MODE = 0o644
"""Permissions of an export or picture written where there was none."""


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "history",
        help="list the games and rounds in the journal; export a game or a round's pictures; "
        "archive old games; import game files",
        description=(
            "List the games in the journal, or the rounds of one game; export a game as a "
            "game file for `companion score`, or write the frame or overlay a round was "
            "scored from. `history archive` moves the finished games older than a year "
            "(or --older-than DAYS) into the archive beside the journal; `history import "
            "FILE...` keeps games played elsewhere. Both write the journal, so the table "
            "must be stopped first."
        ),
        usage=(
            "%(prog)s [--journal PATH] [GAME [--export [FILE] | --frame N --out FILE | "
            "--overlay N --out FILE]]\n"
            "       %(prog)s [--journal PATH] archive [--older-than DAYS]\n"
            "       %(prog)s [--journal PATH] import FILE..."
        ),
    )
    parser.add_argument(
        "--journal",
        type=Path,
        help="the journal file (default: $COMPANION_STATE_DIR/journal.sqlite, else "
        "./state/journal.sqlite; to read, demo.sqlite beside it while there is none)",
    )
    parser.add_argument(
        "game",
        nargs="?",
        type=_game_or_word,
        metavar="GAME",
        help=f"a game's number, or `{ARCHIVE}`, or `{IMPORT}` followed by game files",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help=f"with `{IMPORT}`: game files")
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
    parser.add_argument(
        "--older-than",
        type=int,
        metavar="DAYS",
        help=f"with `{ARCHIVE}`: move the games finished more than DAYS days ago "
        f"(default {ARCHIVE_DAYS})",
    )
    parser.set_defaults(run=run)


def _game_or_word(word: str) -> int | str:
    """The GAME argument: a game's number, or one of the words that write."""
    if word in (ARCHIVE, IMPORT):
        return word
    try:
        return int(word)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a game's number, `{ARCHIVE}` or `{IMPORT}`: {word!r}"
        ) from None


def run(args: argparse.Namespace) -> int:
    """List, export, write pictures, archive or import; one line on stderr and exit 2
    on any fault."""
    try:
        path = _journal(args)
        _check_words(args)
        if args.game == ARCHIVE:
            _archive(path, ARCHIVE_DAYS if args.older_than is None else args.older_than)
            return 0
        if args.game == IMPORT:
            return _import(path, args.files)
        picture = _picture_wanted(args)
        with read_history(path) as journal:
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
    _noted(args, path)
    return 0


def _journal(args: argparse.Namespace) -> Path:
    """The journal given, else the table's, or to read the demo's while there is none."""
    writing = args.game in (ARCHIVE, IMPORT)
    return args.journal or (default_journal_path() if writing else journal_to_read())


def _noted(args: argparse.Namespace, path: Path) -> None:
    """Once all went well, one line on stderr when the demo's journal was read unasked
    (a failure is one line already, naming the file)."""
    table = default_journal_path()
    if args.journal is None and path != table:
        complain(f"companion history: no table journal at {table}; read the demo's, {path}")


def _check_words(args: argparse.Namespace) -> None:
    """Refuse what does not go together with the GAME argument given."""
    writing = args.game in (ARCHIVE, IMPORT)
    if args.files and args.game != IMPORT:
        raise SettingError(
            f"unexpected {args.files[0]!r}: only `history {IMPORT}` takes several files"
        )
    if args.older_than is not None and args.game != ARCHIVE:
        raise SettingError(f"--older-than goes with `history {ARCHIVE}`")
    if args.older_than is not None and args.older_than < 0:
        raise SettingError("--older-than takes a number of days, 0 or more")
    asked = [args.export, args.frame, args.overlay, args.out]
    if writing and any(option is not None for option in asked):
        raise SettingError(
            f"--export, --frame, --overlay and --out go with a GAME number, not with `{args.game}`"
        )


def _picture_wanted(args: argparse.Namespace) -> tuple[str, int] | None:
    """Which picture of which round to write, if any; refuses options that do not fit."""
    picture = None if args.frame is None else ("frame", args.frame)
    if args.overlay is not None:  # not with --frame: argparse refuses both
        picture = ("overlay", args.overlay)
    if (args.export is not None or picture is not None) and args.game is None:
        raise SettingError("--export, --frame and --overlay need a GAME number")
    if picture is not None and args.out is None:
        raise SettingError(f"--{picture[0]} {picture[1]} needs --out FILE")
    if args.out is not None and picture is None:
        raise SettingError("--out goes with --frame N or --overlay N")
    return picture


def _list_games(journal: History) -> None:
    """Every game that can be listed; then one line on stderr and exit 2 for the
    damaged ones and for an archive that cannot be read."""
    listed = journal.listing()
    games = listed.games
    if not games and listed.archive_damage is None:
        print(f"no games yet in {journal.file.path}")
    for game in games:
        print(_game_line(game))
    damaged = [str(game.id) for game in games if isinstance(game, DamagedGame)]
    if damaged:
        which = f"game {damaged[0]}" if len(damaged) == 1 else f"games {', '.join(damaged)}"
        if listed.archive_damage is not None:
            complain(f"companion history: {listed.archive_damage.error}")
        raise corrupt(journal.file.path, f"{which} listed above cannot be replayed")
    if listed.archive_damage is not None:
        raise listed.archive_damage.error


def _game_line(game: GameSummary | DamagedGame) -> str:
    if isinstance(game, DamagedGame):
        return f"game {game.id}: {game.damage}"
    started = game.started_at.astimezone().strftime("%Y-%m-%d %H:%M")
    rounds = plural("{n} round", "{n} rounds", game.rounds)
    won = f"won by {', '.join(game.winners)}; " if game.winners else ""
    archived = " (archived)" if game.archived else ""
    return (
        f"game {game.id}  {started}  {game.ruleset}  {', '.join(game.players)}  "
        f"{rounds}  {game.status.value}{archived}  {won}{_points(game.totals)}"
    )


def _list_rounds(journal: History, game_id: int) -> None:
    rounds = journal.rounds(game_id)
    print(_game_line(journal.game(game_id)))
    for played in rounds:
        print(_round_line(played))


def _round_line(played: RoundSummary) -> str:
    gains = ", ".join(f"{scorer} {_signed(points)}" for scorer, points in played.deltas.items())
    marks = ["corrected"] if played.corrected else []
    if played.pruned:
        marks.append("pictures pruned")
    if played.damaged:
        marks.append(f"{' and '.join(played.damaged)} damaged")
    tail = "".join(f"  [{mark}]" for mark in marks)
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
    if kind in images.damaged:
        raise JournalError(
            f"round {number}'s {kind} is damaged (it no longer matches its checksum); "
            "it is not written"
        )
    if data is None and journal.rounds(game_id)[number - 1].pruned:
        raise JournalError(
            f"{journal.file.path}: the pictures of round {number} of game {game_id} were "
            "pruned after the retention time"
        )
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
    """Refuse to write over the journal, its archive, their WAL files or their locks, by
    any name."""
    kept = [
        file
        for base in (journal, archive_path(journal))
        for file in (base, *(Path(f"{base}{suffix}") for suffix in SIDE_FILES), lock_path(base))
    ]
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


def _writer(path: Path, *, create: bool = False) -> Journal:
    """The journal opened to write (made only if `create`: games imported before the
    table's first game); refused while the table plays."""
    try:
        return Journal(path, create=create)
    except JournalInUseError as err:
        raise JournalInUseError(
            f"{err}: `companion play` writes it while the table is on; stop the table "
            "first (`sudo systemctl stop dixit-companion` on the Pi), then run this again"
        ) from None


def _archive(path: Path, days: int) -> None:
    """Move the finished games older than `days` days into the archive beside the
    journal; the archive is made only when there is a game to move."""
    try:
        cut = utc_now() - timedelta(days=days)
    except OverflowError:  # more days than the calendar holds: no game is that old
        cut = datetime.min.replace(tzinfo=UTC)
    with _writer(path) as journal:
        if not archivable(journal, cut):
            print("no finished game is older than", plural("{n} day", "{n} days", days))
            return
        target = archive_path(journal.path)  # beside the journal's own file, not a link to it
        with Journal(target) as archive:
            moved = plural("{n} game", "{n} games", archive_games(journal, archive, cut))
    print(f"moved {moved} to {target}")


def _import(path: Path, files: Sequence[str]) -> int:
    """Import each game file in turn; one that cannot be imported is told on stderr and
    makes the exit status 2, the others are still imported."""
    if not files:
        raise SettingError(f"`history {IMPORT}` needs the game files to import")
    status = 0
    with _writer(path, create=True) as journal, ImportedGames.beside(journal) as imported:
        for name in files:
            label = file_label(name) or repr(name)
            try:
                kept = import_file(journal, imported, name)
            except CompanionError as err:
                complain(f"companion history: {label}: {err}; not imported")
                status = EXIT_BAD_INPUT
                continue
            if isinstance(kept, FileKept):
                rounds = plural("{n} round", "{n} rounds", kept.rounds)
                said = f"game {kept.game_id} ({kept.ruleset}, {kept.players} players, {rounds})"
            elif kept.game_id is not None:
                said = f"already imported as game {kept.game_id}"
            else:
                said = "already imported"
            print(f"{file_label(name)}: {said}", flush=True)
    return status
