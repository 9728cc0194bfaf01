"""Games played elsewhere, kept from their game files: each game once, however it was saved.

A game file is taken as the game it holds, not as its bytes: the same game saved
again with a byte-order mark, indented, with Windows line ends or with its keys in
another order is the same game, and is not kept twice. A game's digest
(`game_digest`) is the SHA-256 of the canonical JSON (keys sorted, no spaces) of what
the journal keeps of it, its header and its rounds in the game file's shapes, and is
kept in `games.imported` with the `game:` prefix.

An older companion kept the SHA-256 of the file's bytes there instead. Those games
are still found, by that digest and by the digest of their stored header and rounds
(each round as first imported: a round corrected since counts as it was), made once
per command for the journal and its archive (`ImportedGames`).

Keeping a game is the writer's job (`import_game`, `Journal.import_game`); reading
the game files that `companion history import` is given is `game_files`'.
"""

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from companion.closing import Closing
from companion.gamefile import GameRecord, reveal_document
from companion.journal import lines, schema
from companion.journal.archive_file import Damaged, Open, open_archive
from companion.journal.clock import stamp
from companion.journal.documents import dumps, header_document
from companion.journal.file import JournalFile
from companion.journal.records import RoundImages
from companion.journal.rows import insert_round
from companion.journal.writer import JournalWriter
from companion.rules import Game

DIGEST_PREFIX = "game:"
"""What starts the digest of a game kept by its content (an older companion's digest of
a file's bytes has none)."""


def game_digest(game: GameRecord) -> str:
    """The digest of a game as the journal keeps it: the same for every way of saving
    its game file. Made from the game as read, before the rules play it."""
    return _digest(header_document(game.start), [reveal_document(r) for r in game.reveals])


def as_record(game: Game) -> GameRecord:
    """A game as read from its file: its start and what lay on the table in each round."""
    return GameRecord(game.before_round(1), tuple(p.score.round.reveal for p in game.played))


def _digest(header: object, rounds: Sequence[object]) -> str:
    text = json.dumps(
        {"header": header, "rounds": list(rounds)},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return DIGEST_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def import_game(
    journal: JournalWriter,
    game: Game | GameRecord,
    colours: Mapping[str, str],
    started_at: datetime,
    digest: str,
) -> int | None:
    """Keep a game played elsewhere (a game file: on paper, at another table) as a
    game without pictures, its rounds confirmed at `started_at`; returns its number,
    or None when a game with the same `digest` (`game_digest`) was imported before.

    Its reveals are played through the rules here (a game given played is played
    again: its scores are not taken on trust), the first illegal one raising the
    rules' error. A finished game is kept finished, any other abandoned: it is not
    this table's to resume. All of it is one transaction.
    """
    record = as_record(game) if isinstance(game, Game) else game
    with journal.transaction("importing a game", write=True) as conn:
        game_id = journal.next_game_number(conn)
        played = insert_game(conn, game_id, record, colours, stamp(started_at), digest)
        if played is None:
            return None
        lines.keep(conn, game_id, played)  # the replay's line, as listing would give it
    return game_id


def insert_game(
    conn: sqlite3.Connection,
    game_id: int,
    game: GameRecord,
    colours: Mapping[str, str],
    when: str,
    digest: str,
) -> Game | None:
    """Keep `game` as game `game_id`, without pictures, its rounds confirmed `when`,
    inside the writer's transaction; returns the game as the rules play it, or None
    (and nothing written) when a game with the same `digest` was kept before.

    The reveals are played here, once, through the rules (the first illegal one raises
    the rules' error), and each round is written in the time of one round, whatever
    came before it."""
    if conn.execute("SELECT 1 FROM games WHERE imported = ?", (digest,)).fetchone():
        return None
    played = game.play()
    status = "finished" if played.outcome is not None else "abandoned"
    conn.execute(
        "INSERT INTO games (id, started_at, header, colours, status, finished_at, imported) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            when,
            dumps(header_document(played)),
            dumps(dict(colours)),
            status,
            when if status == "finished" else None,
            digest,
        ),
    )
    for number, round_played in enumerate(played.played, start=1):
        insert_round(conn, game_id, number, round_played, when, RoundImages(None, None))
    return played


class ImportedGames(Closing):
    """The games imported into a journal and its archive, found by a game file's
    digests, for the length of one command."""

    def __init__(self, journal: JournalFile, archive: JournalFile | None) -> None:
        """`archive` is closed with this; `journal` is the caller's (`beside` finds the
        archive)."""
        self.files = (journal,) if archive is None else (journal, archive)
        self._archive = archive
        try:
            self._older = [_older_imports(file) for file in self.files]
        except BaseException:
            self.close()
            raise

    @classmethod
    def beside(cls, journal: JournalFile) -> "ImportedGames":
        """The games imported into `journal` and into the archive beside it (`open_archive`).
        An archive that cannot be read is raised (`Damaged.error`): which games were
        imported before cannot be told without it."""
        state = open_archive(journal.path)
        if isinstance(state, Damaged):
            raise state.error
        return cls(journal, state.file if isinstance(state, Open) else None)

    def find(self, game: str, file: str) -> int | None:
        """The game imported before with the game's digest `game`, or (by an older
        companion) from a file whose bytes' digest is `file`; None if there is none.
        A game in both files (an archiving cut short) is the journal's."""
        for held, older in zip(self.files, self._older, strict=True):
            with held.transaction("looking for a game imported before") as conn:
                if not schema.has_year_of_service(conn):
                    continue
                row = conn.execute(
                    "SELECT id FROM games WHERE imported IN (?, ?) ORDER BY id LIMIT 1",
                    (game, file),
                ).fetchone()
            if row is not None:
                return int(row[0])
            if game in older:
                return older[game]
        return None

    def close(self) -> None:
        """Close the archive, if it was opened; again does nothing."""
        if self._archive is not None:
            self._archive.close()


def _older_imports(file: JournalFile) -> dict[str, int]:
    """The digests of the games an older companion imported (kept by their file's bytes),
    from their stored header and rounds as first imported; a game whose texts are
    damaged is left out (it is still found by its bytes)."""
    with file.transaction("reading the games imported by an older companion") as conn:
        if not schema.has_year_of_service(conn):
            return {}
        games = conn.execute(
            "SELECT id, CAST(header AS BLOB) FROM games WHERE imported IS NOT NULL "
            "AND substr(imported, 1, ?) != ? ORDER BY id",
            (len(DIGEST_PREFIX), DIGEST_PREFIX),
        ).fetchall()
        found: dict[str, int] = {}
        for game_id, header in games:
            try:
                found.setdefault(_stored_digest(conn, game_id, header), game_id)
            except (ValueError, TypeError, RecursionError):
                continue
    return found


def _stored_digest(conn: sqlite3.Connection, game_id: int, header: bytes) -> str:
    """The digest of a stored game, each round as it was before any correction."""
    first: dict[int, Any] = {}
    for number, old in conn.execute(
        "SELECT number, CAST(old_reveal AS BLOB) FROM corrections WHERE game_id = ? "
        "ORDER BY id DESC",
        (game_id,),
    ):
        first[number] = old  # the earliest correction's is written last
    rounds = [
        json.loads(bytes(first.get(number, reveal)))
        for number, reveal in conn.execute(
            "SELECT number, CAST(reveal AS BLOB) FROM rounds WHERE game_id = ? ORDER BY number",
            (game_id,),
        )
    ]
    return _digest(json.loads(bytes(header)), rounds)
