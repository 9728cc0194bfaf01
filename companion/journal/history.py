"""Reading the journal's history: the list of games, a game's rounds, its pictures.

What `companion history` prints comes from here, through any open `JournalFile`:
one opened only to read, or the game loop's own writer, and the archive beside it
when there is one (games moved there by `companion history archive` are read as if
they had stayed). Like `load`, every list shows the scores the rules engine gives,
never the stored ones: a game's line is taken from its last replay only while every
text it was replayed from is unchanged (`lines`), a round changed behind the
journal's back is replayed again, and a game that does not replay is listed by what
is damaged in it. A picture is handed out only if it matches the checksum kept with
it.
"""

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from os import PathLike
from types import MappingProxyType
from typing import TypeVar

from companion.errors import CompanionError, UnknownGameError, UnknownRoundError
from companion.gamefile import game_document
from companion.journal import lines, schema
from companion.journal.archive_file import Damaged, Open, open_archive
from companion.journal.documents import stored_text, stored_time
from companion.journal.faults import corrupt
from companion.journal.file import SQLITE_INTEGERS, JournalFile
from companion.journal.records import (
    DamagedGame,
    GameStatus,
    GameSummary,
    RoundImages,
    RoundSummary,
    StoredGame,
)
from companion.journal.schema import picture_sum
from companion.names import one_line
from companion.rules import Game
from companion.wording import rounds_played

T = TypeVar("T")

_PICTURES = ("frame", "overlay")


@dataclass(frozen=True)
class GameList:
    """The games that can be listed, and what is wrong with the archive when its games
    cannot be."""

    games: tuple[GameSummary | DamagedGame, ...]
    """Newest first, as `History.games` gives them."""
    archive_damage: Damaged | None
    """Why the archive's games are missing from `games`, if they are."""


class History:
    """The games of an open journal file (and its archive), read back for people to look at."""

    def __init__(self, file: JournalFile, archive: JournalFile | Damaged | None = None) -> None:
        """`archive` is the archive opened to read, or what is wrong with it, or None
        while there is none (see `open_archive`)."""
        self.file = file
        """The journal read: the game loop's writer, or a file opened only to read."""
        self.archive = archive if isinstance(archive, JournalFile) else None
        """The archive of the journal's oldest games, opened to read, if there is one."""
        self.archive_damage = archive if isinstance(archive, Damaged) else None
        """Why the archive beside the journal could not be opened, if it could not."""

    def games(self) -> tuple[GameSummary | DamagedGame, ...]:
        """Every stored game, newest first; those that do not replay as damage. A game
        found in both files (an archiving cut short) is the journal's. An archive that
        cannot be read raises (`Damaged.error`): `listing` lists the journal's games then."""
        found = self.listing()
        if found.archive_damage is not None:
            raise found.archive_damage.error
        return found.games

    def listing(self) -> GameList:
        """The games that can be listed, newest first, and what is wrong with the
        archive when its games cannot be: a damaged archive leaves out its games, and
        says so, instead of hiding the journal's."""
        found = _listed(self.file, archived=False)
        damage = self.archive_damage
        if self.archive is not None:
            held = {line.id for line in found}
            try:
                kept = _listed(self.archive, archived=True)
            except CompanionError as err:
                damage = Damaged(self.archive.path, err)
            else:
                found += [line for line in kept if line.id not in held]
                found.sort(key=lambda line: line.id, reverse=True)
        return GameList(tuple(found), damage)

    def game(self, game_id: int) -> GameSummary | DamagedGame:
        """One game's line of the list; `UnknownGameError` if there is none."""

        def read(file: JournalFile) -> GameSummary | DamagedGame:
            with file.transaction(f"reading game {game_id}") as conn:
                return _summary(file.examined(conn, game_id), game_id, file is self.archive)

        return self._either(read)

    def rounds(self, game_id: int) -> tuple[RoundSummary, ...]:
        """The rounds of a game scored as the rules score them now, oldest first, with
        when each was confirmed; `JournalCorruptError` naming the round that does not replay."""

        def read(file: JournalFile) -> tuple[RoundSummary, ...]:
            with file.transaction(f"listing the rounds of game {game_id}") as conn:
                return _rounds(file, conn, file.stored(conn, game_id))

        return self._either(read)

    def whole(self, game_id: int) -> tuple[GameSummary, StoredGame, tuple[RoundSummary, ...]]:
        """A game's line, the game and its rounds, read in one transaction: a round
        confirmed meanwhile at the table cannot make them disagree. A game that does
        not replay raises `JournalCorruptError` naming the damage."""

        def read(file: JournalFile) -> tuple[GameSummary, StoredGame, tuple[RoundSummary, ...]]:
            with file.transaction(f"reading game {game_id}") as conn:
                found = file.examined(conn, game_id)
                if isinstance(found, str):
                    raise corrupt(file.path, f"game {game_id}: {found}")
                return _line(found, file is self.archive), found, _rounds(file, conn, found)

        return self._either(read)

    def images(self, game_id: int, number: int) -> RoundImages:
        """The frame and overlay kept with a round (None for those not kept, and for
        those no longer matching their checksum, which are named in `damaged`)."""
        return self._either(lambda file: _images(file, game_id, number))

    def export(self, game_id: int) -> str:
        """The game as a game file (JSON) that `companion score` reads."""
        return exported(self._either(lambda file: file.load(game_id)).game)

    def _either(self, read: Callable[[JournalFile], T]) -> T:
        """What `read` finds in the journal, else in the archive; a game in neither is
        told as the journal's (whose newest game is the table's newest), unless the
        archive that may hold it cannot be read."""
        try:
            return read(self.file)
        except UnknownGameError as unknown:
            if self.archive_damage is not None:
                raise self.archive_damage.error from None
            if self.archive is None:
                raise
            try:
                return read(self.archive)
            except UnknownGameError:
                raise unknown from None


@contextmanager
def read_history(path: str | PathLike[str]) -> Iterator[History]:
    """The history of the journal at `path`, opened only to read, with its archive as
    `open_archive` finds it; both closed when the block ends. Raises as `JournalFile`
    does for the journal; a damaged archive is raised by what reads its games."""
    with JournalFile(path) as file:
        state = open_archive(path)
        if not isinstance(state, Open):
            yield History(file, state if isinstance(state, Damaged) else None)
            return
        with state.file:
            yield History(file, state.file)


def exported(game: Game) -> str:
    """A game as the game file (JSON) that `companion score` reads."""
    return json.dumps(game_document(game), ensure_ascii=False)


def _listed(file: JournalFile, *, archived: bool) -> list[GameSummary | DamagedGame]:
    """Every game of one file, newest first: from its kept line where the texts it was
    replayed from are unchanged, else replayed."""
    with file.transaction("listing the games") as conn:
        kept = schema.has_year_of_service(conn)
        rows = conn.execute(
            "SELECT g.id, CAST(g.header AS BLOB), CAST(g.colours AS BLOB), "
            "CAST(g.started_at AS BLOB), CAST(g.status AS BLOB), "
            + (
                "l.digest, CAST(l.line AS BLOB) FROM games g LEFT JOIN game_lines l "
                "ON l.game_id = g.id "
                if kept
                else "NULL, NULL FROM games g "
            )
            + "ORDER BY g.id DESC"
        ).fetchall()
        texts: dict[int, list[tuple[int, bytes]]] = {}
        if kept:
            for game_id, number, text in conn.execute(
                "SELECT game_id, number, CAST(reveal AS BLOB) FROM rounds ORDER BY game_id, number"
            ):
                texts.setdefault(game_id, []).append((number, bytes(text or b"")))
        found: list[GameSummary | DamagedGame] = []
        for game_id, header, colours, started_at, status, digest, line in rows:
            summary = None
            if digest is not None and digest == lines.digest(
                bytes(header or b""),
                bytes(colours or b""),
                texts.get(game_id, []),
                bytes(line or b""),
            ):
                summary = _kept_line(game_id, lines.loaded(line), started_at, status, archived)
            found.append(summary or _summary(file.examined(conn, game_id), game_id, archived))
        return found


def _kept_line(
    game_id: int, line: lines.Line | None, started_at: object, status: object, archived: bool
) -> GameSummary | None:
    """A game's line from its kept replay, or None when the row around it is damaged
    (read as bytes, so that text that is not UTF-8 is one game's damage, not the list's)."""
    if line is None:
        return None
    try:
        stage = GameStatus(stored_text(status))
        started = stored_time(stored_text(started_at))
    except ValueError:
        return None
    return _made_line(game_id, line, stage, started, archived)


def _summary(found: StoredGame | str, game_id: int, archived: bool) -> GameSummary | DamagedGame:
    """A game's line of the list from its replay, or what is damaged in it."""
    if isinstance(found, str):
        return DamagedGame(id=game_id, damage=found)
    return _line(found, archived)


def _line(found: StoredGame, archived: bool = False) -> GameSummary:
    """A sound game's line of the list."""
    return _made_line(found.id, lines.line_of(found.game), found.status, found.started_at, archived)


def _made_line(
    game_id: int, line: lines.Line, status: GameStatus, started_at: datetime, archived: bool
) -> GameSummary:
    totals = dict(line.totals)
    best = max(totals.values())
    finished = status is GameStatus.FINISHED
    return GameSummary(
        id=game_id,
        ruleset=line.ruleset,
        players=line.players,
        rounds=line.rounds,
        status=status,
        started_at=started_at,
        totals=MappingProxyType(totals),
        winners=tuple(s for s, t in totals.items() if t == best) if finished else (),
        archived=archived,
    )


def _rounds(
    file: JournalFile, conn: sqlite3.Connection, stored: StoredGame
) -> tuple[RoundSummary, ...]:
    game_id = stored.id
    pruned = "g.pictures_pruned_at IS NOT NULL" if schema.has_year_of_service(conn) else "0"
    sums = "i.frame_sha256, i.overlay_sha256" if schema.has_year_of_service(conn) else "NULL, NULL"
    rows = conn.execute(
        "SELECT r.number, r.committed_at, "
        "EXISTS (SELECT 1 FROM corrections c "
        "        WHERE c.game_id = r.game_id AND c.number = r.number), "
        f"{pruned}, i.frame, i.overlay, {sums} "
        "FROM rounds r JOIN games g ON g.id = r.game_id LEFT JOIN round_images i "
        "ON i.game_id = r.game_id AND i.number = r.number "
        "WHERE r.game_id = ? ORDER BY r.number",
        (game_id,),
    ).fetchall()
    try:
        return tuple(
            _round_summary(stored, number, committed_at, corrected, pruned, checked(*pictures))
            for number, committed_at, corrected, pruned, *pictures in rows
        )
    except ValueError as err:
        raise corrupt(
            file.path,
            f"game {game_id}: a round's time is damaged: {one_line(str(err))}",
        ) from err


def _images(file: JournalFile, game_id: int, number: int) -> RoundImages:
    """A round's pictures from one file, each checked against its checksum (a picture
    kept before pictures had checksums is handed out as it is), and whether its game's
    pictures were pruned."""
    with file.transaction(f"reading the pictures of round {number} of game {game_id}") as conn:
        count = len(file.stored(conn, game_id).game.played)
        if not 1 <= number <= count or number not in SQLITE_INTEGERS:
            raise UnknownRoundError(
                f"{file.path}: game {game_id} has no round {number} (it has {rounds_played(count)})"
            )
        current = schema.has_year_of_service(conn)
        sums = "frame_sha256, overlay_sha256" if current else "NULL, NULL"
        row = conn.execute(
            f"SELECT frame, overlay, {sums} FROM round_images WHERE game_id = ? AND number = ?",
            (game_id, number),
        ).fetchone()
        pruned = current and bool(
            conn.execute(
                "SELECT pictures_pruned_at IS NOT NULL FROM games WHERE id = ?", (game_id,)
            ).fetchone()[0]
        )
    found = RoundImages(None, None) if row is None else checked(*row)
    return replace(found, pruned=pruned)


def checked(frame: object, overlay: object, frame_sum: object, overlay_sum: object) -> RoundImages:
    """A round's pictures as read, each checked against its checksum: one that no longer
    matches is left out and named damaged (a picture kept before pictures had checksums
    is handed out as it is)."""
    kept: list[bytes | None] = []
    damaged: list[str] = []
    pictures = zip(_PICTURES, (frame, overlay), (frame_sum, overlay_sum), strict=True)
    for name, data, kept_sum in pictures:
        if data is None:
            kept.append(None)
        elif not isinstance(data, bytes) or (
            kept_sum is not None and picture_sum(data) != kept_sum
        ):
            kept.append(None)
            damaged.append(name)
        else:
            kept.append(data)
    return RoundImages(kept[0], kept[1], tuple(damaged))


def _round_summary(
    stored: StoredGame,
    number: int,
    committed_at: object,
    corrected: int,
    pruned: int,
    pictures: RoundImages,
) -> RoundSummary:
    game = stored.game
    played = game.played[number - 1]
    return RoundSummary(
        number=number,
        storyteller=game.seating.storyteller(game.first_storyteller, number),
        deltas=MappingProxyType(dict(played.score.deltas)),
        reasons=MappingProxyType(dict(played.score.reasons)),
        totals=MappingProxyType(dict(played.totals)),
        committed_at=stored_time(committed_at),
        has_frame=pictures.frame is not None,
        has_overlay=pictures.overlay is not None,
        corrected=bool(corrected),
        pruned=bool(pruned),
        damaged=pictures.damaged,
    )
