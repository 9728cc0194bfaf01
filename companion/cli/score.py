"""`companion score FILE... | -`: score whole games from game files.

One JSON line per file on stdout, language-neutral: reasons in English. With
`--language fr` each round also carries its reasons in that language
(`translated_reasons`), for a tool that shows them to players. A file that cannot be
scored prints one line on stderr naming the file and the fault, nothing on stdout,
and makes the exit status 2; the other files are still scored.
"""

import argparse
import sys
from typing import Any

from companion.cli.each import fail, for_each
from companion.errors import SettingError, UnreadableFileError
from companion.gamefile import parse_game, read_game_text, result_document
from companion.language import Language, find_language, translations


def add_parser(commands: "argparse._SubParsersAction[Any]") -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "score",
        help="score whole games from game files (JSON)",
        description="Score whole games from game files; '-' reads standard input.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a game file, or - for stdin")
    parser.add_argument(
        "--language",
        help=f"add each round's reasons in this language too: "
        f"{', '.join(x.value for x in Language)}",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Score each file in turn."""
    try:
        language = None if args.language is None else find_language(args.language)
    except SettingError as err:
        return fail("score", err)

    def score(name: str) -> dict[str, Any]:
        game = parse_game(_read(name)).play()
        document = result_document(game)
        if language is not None:
            words = translations(language)
            document["language"] = language.value
            for doc, played in zip(document["rounds"], game.played, strict=True):
                doc["translated_reasons"] = {
                    s: list(r) for s, r in played.score.reasons_in(words).items()
                }
        return document

    return for_each("score", args.files, score)


def _read(name: str) -> str:
    if name == "-" and sys.stdin is None:
        raise UnreadableFileError("standard input is closed")
    try:
        if name == "-":
            return read_game_text(sys.stdin.buffer)
        with open(name, "rb") as file:
            return read_game_text(file)
    except OSError as err:
        raise UnreadableFileError(err.strerror or str(err)) from None
