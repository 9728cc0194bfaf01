"""`companion history [--journal PATH] [GAME]`: what the journal holds, and how to get it out.

Without a game: one line per game, newest first. With a game: one line per round,
with a mark on corrected rounds. `--export` writes the game file that `companion
score` reads, so any game can be rescored or checked away from the café;
`--frame N` and `--overlay N` write the pictures a round was scored from. The
journal is opened but never created or repaired here: a listing must not move a
café's only journal aside.
"""

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.cli.each import fail
from companion.errors import CompanionError, JournalError, SettingError, UnwritableFileError
from companion.journal import GameSummary, History, RoundSummary, default_journal_path
from companion.journal.file import JournalFile


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
        with JournalFile(path, create=False) as file:
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


def _game_line(game: GameSummary) -> str:
    started = game.started_at.astimezone().strftime("%Y-%m-%d %H:%M")
    rounds = "1 round" if game.rounds == 1 else f"{game.rounds} rounds"
    won = f"won by {', '.join(game.winners)}; " if game.winners else ""
    return (
        f"game {game.id}  {started}  {game.ruleset}  {', '.join(game.players)}  "
        f"{rounds}  {game.status.value}  {won}{_points(game.totals)}"
    )


def _list_rounds(journal: History, game_id: int) -> None:
    summary = next((g for g in journal.games() if g.id == game_id), None)
    rounds = journal.rounds(game_id)
    if summary is not None:
        print(_game_line(summary))
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
    _write(Path(target), text.encode("utf-8"), "the game file")


def _picture(journal: History, game_id: int, kind: str, number: int, out: Path) -> None:
    images = journal.images(game_id, number)
    data = images.frame if kind == "frame" else images.overlay
    if data is None:
        raise JournalError(
            f"{journal.file.path}: round {number} of game {game_id} has no {kind} kept"
        )
    _write(out, data, f"the {kind}")
    print(f"wrote the {kind} of round {number} of game {game_id} to {out}")


def _write(path: Path, data: bytes, what: str) -> None:
    try:
        path.write_bytes(data)
    except OSError as err:
        raise UnwritableFileError(f"{path}: cannot write {what} ({err.strerror or err})") from None


def _points(points: Mapping[str, int]) -> str:
    return ", ".join(f"{scorer} {total}" for scorer, total in points.items())


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)
