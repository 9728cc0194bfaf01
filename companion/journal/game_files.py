"""Game files kept in the journal (`companion history import`): each read whole, its
players given kit colours, its game kept once.

A game file is read without waiting on what is not a file (a folder, a device, a
pipe) and up to one byte more than any game file holds; the game it holds is played
through the rules as it is kept (`imports`), and a game imported before, by this
companion or an older one, in the journal or in its archive, is not kept again. The
command says what happened to each file (`FileKept`, `KeptBefore`).
"""

import hashlib
import io
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.colours import BY_NAME, COLOURS
from companion.errors import GameFileError, SettingError, UnreadableFileError
from companion.gamefile import MAX_GAME_FILE_BYTES, parse_game, read_game_text
from companion.journal.documents import FRENCH_COLOUR_NAMES
from companion.journal.imports import ImportedGames, game_digest, import_game
from companion.journal.writer import JournalWriter


@dataclass(frozen=True)
class FileKept:
    """A game file whose game is now kept in the journal."""

    game_id: int
    """The game's number in the journal."""
    ruleset: str
    """The edition's name."""
    players: int
    """How many players (not teams) played it."""
    rounds: int
    """How many rounds it has."""


@dataclass(frozen=True)
class KeptBefore:
    """A game file whose game was imported before, however its file was saved."""

    game_id: int | None
    """The game's number, when it was found before keeping it (not when a game of the
    same content turned up as it was kept)."""


def import_file(
    journal: JournalWriter, imported: ImportedGames, name: str
) -> FileKept | KeptBefore:
    """Import one game file, unless the game it holds was imported before. Raises
    `UnreadableFileError`, the game file's or the rules' errors for a file that cannot
    be imported, and the journal's when it cannot be written."""
    if not name:
        raise UnreadableFileError("an empty name names no file")
    data, modified = read_game_file(Path(name))
    game = parse_game(read_game_text(io.BytesIO(data)))
    if not game.reveals:
        raise GameFileError("the game has no rounds, so there is nothing to keep")
    digest = game_digest(game)
    before = imported.find(digest, hashlib.sha256(data).hexdigest())
    if before is not None:
        return KeptBefore(before)
    players = game.start.seating.players
    game_id = import_game(journal, game, kit_colours(players), modified, digest)  # plays it
    if game_id is None:
        return KeptBefore(None)
    return FileKept(game_id, game.start.ruleset.name, len(players), len(game.reveals))


def read_game_file(path: Path) -> tuple[bytes, datetime]:
    """A game file's bytes (up to one more than any game file holds) and when it was
    last changed (UTC); a folder, a device or a pipe is refused without waiting on it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        raise UnreadableFileError(err.strerror or str(err)) from None
    try:
        found = os.fstat(fd)
        if stat.S_ISDIR(found.st_mode):
            raise UnreadableFileError("a folder, not a game file")
        if not stat.S_ISREG(found.st_mode):
            raise UnreadableFileError("not a regular file, so not a game file")
        chunks: list[bytes] = []
        left = MAX_GAME_FILE_BYTES + 1
        while left > 0 and (chunk := os.read(fd, min(left, 2**20))):
            chunks.append(chunk)
            left -= len(chunk)
    except UnreadableFileError:
        raise
    except OSError as err:
        raise UnreadableFileError(err.strerror or str(err)) from None
    finally:
        os.close(fd)
    return b"".join(chunks), datetime.fromtimestamp(found.st_mtime, UTC)


def kit_colours(players: Sequence[str]) -> dict[str, str]:
    """Every player's kit colour: a player named after a colour (in English or French,
    in any case) gets it, the others the first colours left, in seating order."""
    french = {word: colour for colour, word in FRENCH_COLOUR_NAMES.items()}
    given: dict[str, str] = {}
    for player in players:
        word = player.casefold()
        colour = word if word in BY_NAME else french.get(word)
        if colour is not None and colour not in given.values():
            given[player] = colour
    free = iter(c.name for c in COLOURS if c.name not in given.values())
    for player in players:
        if player not in given:
            colour = next(free, None)
            if colour is None:
                raise SettingError(f"{len(players)} players, more than the kit's colours")
            given[player] = colour
    return {player: given[player] for player in players}
