"""The journal: every game and confirmed round, in one SQLite file that a power cut cannot break.

The café must never lose a game, so the file is kept the way SQLite is safest: WAL
mode, `synchronous=FULL`, and exactly one `BEGIN IMMEDIATE` … `COMMIT` per public
write. A round, its scores and its pictures go in together or not at all, whenever
the power goes or the process is killed. Opening checks the file (`quick_check` and
the schema) so that damage is found at start-up, not in the middle of a game.

Scores are stored to explain a round as it was confirmed, never to be believed:
`load` replays the stored reveals through the rules engine, and a correction
replays the game from the corrected round on, inside the transaction that writes it.
"""

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from types import MappingProxyType

from companion.closing import Closing
from companion.errors import (
    CompanionError,
    CorrectionError,
    GameFileError,
    JournalCorruptError,
    JournalError,
    NothingToUndoError,
    RulesError,
    SeatingError,
    UnknownGameError,
    UnreadableFileError,
    UnwritableFileError,
)
from companion.gamefile import game_document
from companion.journal import schema
from companion.journal.documents import (
    dumps,
    header_document,
    int_mapping,
    reasons_mapping,
    record,
    round_documents,
    score_columns,
    str_mapping,
)
from companion.journal.faults import corrupt, translate
from companion.journal.records import (
    GameStatus,
    GameSummary,
    RestoredGame,
    RoundImages,
    RoundSummary,
    StoredGame,
)
from companion.journal.recovery import move_aside, recovery_message, salvage
from companion.rules import Game, Reveal

BUSY_SECONDS = 5.0
"""How long to wait for another program (say `companion history`) to let go of the file."""

Clock = Callable[[], datetime]
"""Where the journal gets the time from (UTC); tests give a fixed one."""


def utc_now() -> datetime:
    """The time now, in UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class _GameRow:
    header: str
    colours: str
    started_at: str
    status: GameStatus
    finished_at: str | None


class Journal(Closing):
    """The SQLite journal of games: open it, write rounds as they are confirmed, read it back."""

    def __init__(
        self, path: str | PathLike[str], *, create: bool = True, clock: Clock = utc_now
    ) -> None:
        """Open the journal at `path`, creating it (and its folders) unless `create` is False.

        Raises `JournalCorruptError` for a damaged file or one that is not a journal,
        `UnwritableFileError` where no journal can be written, and
        `UnreadableFileError` for a missing file when `create` is False.
        """
        self.path = Path(path)
        """The journal file."""
        self._clock = clock
        self._conn: sqlite3.Connection | None = None
        self._conn = _open(self.path, create)

    @classmethod
    def open_or_recover(
        cls, path: str | PathLike[str], *, clock: Clock = utc_now
    ) -> tuple["Journal", str | None]:
        """Open the journal; if it is damaged, move it aside and salvage it into a fresh one.

        Damaged means SQLite's check fails, or the game to resume cannot be read back
        (damage inside a round's text, which the check does not read).

        Returns the journal and, after a recovery, a message for the screen saying what
        was kept. Raises only when no journal can be written at `path` at all
        (`UnwritableFileError`) or SQLite cannot run there (`JournalError`).
        """
        path = Path(path)
        try:
            journal = cls(path, clock=clock)
        except JournalCorruptError:
            pass
        else:
            try:
                journal.resume()
            except JournalError:  # damage SQLite's check cannot see: a round's text
                journal.close()
            else:
                return journal, None
        aside = move_aside(path, clock())
        journal = cls(path, clock=clock)
        try:
            saved = journal.restore(salvage(aside))
        except CompanionError as err:
            return journal, recovery_message(path, aside, None, err)
        return journal, recovery_message(path, aside, saved)

    def close(self) -> None:
        """Close the file; closing again does nothing."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def start_game(self, game: Game, colours: Mapping[str, str]) -> int:
        """Store a new game (no rounds yet) and return its number.

        Any game still being played is marked abandoned in the same transaction.
        `colours` maps every player's name to their kit colour's name.
        """
        if game.played:
            raise JournalError(
                f"{self.path}: a game is stored before its first round, "
                f"and this one has {_rounds_label(len(game.played))} played"
            )
        for player in colours:
            if player not in game.seating:
                raise SeatingError(f"colours: {player!r} is not one of the players")
        for player in game.seating.players:
            if player not in colours:
                raise SeatingError(f"colours: player {player!r} has no kit colour")
        now = self._now()
        with self._transaction("starting a game", write=True) as conn:
            conn.execute("UPDATE games SET status = 'abandoned' WHERE status = 'playing'")
            cursor = conn.execute(
                "INSERT INTO games (started_at, header, colours, status) "
                "VALUES (?, ?, ?, 'playing')",
                (now, dumps(header_document(game)), dumps(dict(colours))),
            )
            game_id = cursor.lastrowid
        if game_id is None:
            raise JournalError(f"{self.path}: SQLite gave no number to the new game")
        return game_id

    def commit_round(
        self,
        game_id: int,
        game: Game,
        *,
        frame: bytes | None = None,
        overlay: bytes | None = None,
    ) -> None:
        """Store the last round of `game` (the game right after playing it) with its pictures.

        The round must be the next one of the stored game, and the rest of `game` must
        be the stored game; the game is marked finished when the round ended it.
        """
        number = len(game.played)
        doing = f"storing round {number} of game {game_id}"
        now = self._now()
        with self._transaction(doing, write=True) as conn:
            row = self._game_row(conn, game_id)
            if row.status is not GameStatus.PLAYING:
                raise JournalError(
                    f"{self.path}: game {game_id} is {row.status.value}, "
                    f"so round {number} cannot be added to it"
                )
            stored = self._reveal_texts(conn, game_id)
            if number != len(stored) + 1:
                raise JournalError(
                    f"{self.path}: game {game_id} has {_rounds_label(len(stored))} stored, "
                    f"so the next is round {len(stored) + 1}, not round {number}"
                )
            self._check_same_game(game_id, row.header, stored, game)
            self._insert_round(conn, game_id, game, now, RoundImages(frame, overlay))
            if game.outcome is not None:
                conn.execute(
                    "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?",
                    (now, game_id),
                )

    def undo_round(self, game_id: int) -> Game:
        """Delete the last round of a game (and its pictures); returns the game without it.

        A finished game is re-opened, unless another game has started since.
        """
        with self._transaction(f"undoing the last round of game {game_id}", write=True) as conn:
            stored = self._stored(conn, game_id)
            rounds = len(stored.game.played)
            if not rounds:
                raise NothingToUndoError(
                    f"{self.path}: game {game_id} has no rounds, so there is nothing to undo"
                )
            if stored.status is GameStatus.ABANDONED:
                raise JournalError(
                    f"{self.path}: game {game_id} was abandoned; its rounds are kept as they are"
                )
            newest = self._newest(conn)
            if stored.status is GameStatus.FINISHED and newest != game_id:
                raise JournalError(
                    f"{self.path}: game {game_id} is over and game {newest} has started since; "
                    f"correct a round of game {game_id} instead of undoing it"
                )
            conn.execute("DELETE FROM rounds WHERE game_id = ? AND number = ?", (game_id, rounds))
            conn.execute(
                "UPDATE games SET status = 'playing', finished_at = NULL WHERE id = ?",
                (game_id,),
            )
            return stored.game.undo()

    def correct_round(self, game_id: int, number: int, reveal: Reveal) -> Game:
        """Replace what lay on the table in round `number` and rescore the game from there.

        An illegal reveal raises the rules engine's error; a correction after which a
        later stored round could not have been played raises `CorrectionError`. In both
        cases nothing is written. Returns the rescored game.
        """
        doing = f"correcting round {number} of game {game_id}"
        now = self._now()
        with self._transaction(doing, write=True) as conn:
            row = self._game_row(conn, game_id)
            stored_texts = self._reveal_texts(conn, game_id)
            if not 1 <= number <= len(stored_texts):
                raise JournalError(
                    f"{self.path}: game {game_id} has no round {number} to correct "
                    f"(it has {_rounds_label(len(stored_texts))})"
                )
            stored = self._replay(game_id, row.header, stored_texts)
            game = replace(stored, played=stored.played[: number - 1]).play(reveal)
            for later, played in enumerate(stored.played[number:], start=number + 1):
                try:
                    game = game.play(played.score.round.reveal)
                except RulesError as err:
                    raise CorrectionError(
                        f"{self.path}: game {game_id}: with round {number} corrected, "
                        f"{_span_label(later, len(stored_texts))} could not have been played "
                        f"({err}); nothing was changed"
                    ) from err
            old_reveal = stored_texts[number - 1]
            new_doc = round_documents(game)[number - 1]
            if new_doc == json.loads(old_reveal):
                return game
            new_reveal = dumps(new_doc)
            conn.execute(
                "UPDATE rounds SET reveal = ? WHERE game_id = ? AND number = ?",
                (new_reveal, game_id, number),
            )
            for n, played in enumerate(game.played[number - 1 :], start=number):
                conn.execute(
                    "UPDATE rounds SET deltas = ?, reasons = ?, totals = ? "
                    "WHERE game_id = ? AND number = ?",
                    (*score_columns(played), game_id, n),
                )
            conn.execute(
                "INSERT INTO corrections (game_id, number, corrected_at, old_reveal, new_reveal) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, number, now, old_reveal, new_reveal),
            )
            status, finished_at = self._status_after(conn, game_id, row, game, now)
            conn.execute(
                "UPDATE games SET status = ?, finished_at = ? WHERE id = ?",
                (status.value, finished_at, game_id),
            )
            return game

    def load(self, game_id: int) -> StoredGame:
        """A stored game, replayed from its reveals; `UnknownGameError` if there is none."""
        with self._transaction(f"reading game {game_id}") as conn:
            return self._stored(conn, game_id)

    def resume(self) -> StoredGame | None:
        """The most recent game still being played, if there is one."""
        with self._transaction("looking for a game to resume") as conn:
            row = conn.execute(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
            ).fetchone()
            return None if row is None else self._stored(conn, row[0])

    def games(self) -> tuple[GameSummary, ...]:
        """Every stored game, newest first."""
        with self._transaction("listing the games") as conn:
            rows = conn.execute(
                "SELECT g.id, g.started_at, g.header, g.status, "
                "(SELECT count(*) FROM rounds r WHERE r.game_id = g.id), "
                "(SELECT r.totals FROM rounds r WHERE r.game_id = g.id "
                " ORDER BY r.number DESC LIMIT 1) "
                "FROM games g ORDER BY g.id DESC"
            ).fetchall()
        summaries = []
        for game_id, started_at, header, status, count, totals_text in rows:
            start = self._replay(game_id, header, ())
            totals = int_mapping(totals_text) if totals_text else dict(start.totals)
            finished = GameStatus(status) is GameStatus.FINISHED
            best = max(totals.values())
            summaries.append(
                GameSummary(
                    id=game_id,
                    ruleset=start.ruleset.name,
                    players=start.seating.players,
                    rounds=count,
                    status=GameStatus(status),
                    started_at=datetime.fromisoformat(started_at),
                    totals=MappingProxyType(totals),
                    winners=tuple(s for s, t in totals.items() if t == best) if finished else (),
                )
            )
        return tuple(summaries)

    def rounds(self, game_id: int) -> tuple[RoundSummary, ...]:
        """The stored rounds of a game as they were confirmed or last corrected, oldest first."""
        with self._transaction(f"listing the rounds of game {game_id}") as conn:
            row = self._game_row(conn, game_id)
            rows = conn.execute(
                "SELECT r.number, r.deltas, r.reasons, r.totals, r.committed_at, "
                "i.frame IS NOT NULL, i.overlay IS NOT NULL, "
                "EXISTS (SELECT 1 FROM corrections c "
                "        WHERE c.game_id = r.game_id AND c.number = r.number) "
                "FROM rounds r LEFT JOIN round_images i "
                "ON i.game_id = r.game_id AND i.number = r.number "
                "WHERE r.game_id = ? ORDER BY r.number",
                (game_id,),
            ).fetchall()
        start = self._replay(game_id, row.header, ())
        return tuple(_round_summary(start, *columns) for columns in rows)

    def images(self, game_id: int, number: int) -> RoundImages:
        """The frame and overlay kept with a round (None for those not kept)."""
        with self._transaction(f"reading the pictures of round {number} of game {game_id}") as conn:
            self._game_row(conn, game_id)
            count = len(self._reveal_texts(conn, game_id))
            if not 1 <= number <= count:
                raise JournalError(
                    f"{self.path}: game {game_id} has no round {number} "
                    f"(it has {_rounds_label(count)})"
                )
            row = conn.execute(
                "SELECT frame, overlay FROM round_images WHERE game_id = ? AND number = ?",
                (game_id, number),
            ).fetchone()
        return RoundImages(None, None) if row is None else RoundImages(row[0], row[1])

    def export(self, game_id: int) -> str:
        """The game as a game file (JSON) that `companion score` reads."""
        return json.dumps(game_document(self.load(game_id).game), ensure_ascii=False)

    def restore(self, games: Iterable[RestoredGame]) -> tuple[int, int]:
        """Write games read from another journal, keeping their numbers; returns games, rounds.

        Meant for a fresh journal (a number already used is refused). Every round is
        replayed through the rules engine; all of it is one transaction. Only the newest
        game can still be playing: older unfinished ones are marked abandoned.
        """
        saved_games = saved_rounds = 0
        with self._transaction("restoring games", write=True) as conn:
            for restored in games:
                game = restored.start
                conn.execute(
                    "INSERT INTO games (id, started_at, header, colours, status) "
                    "VALUES (?, ?, ?, ?, 'playing')",
                    (
                        restored.id,
                        _stamp(restored.started_at),
                        dumps(header_document(game)),
                        dumps(dict(restored.colours)),
                    ),
                )
                last: datetime | None = None
                for restored_round in restored.rounds:
                    game = game.play(restored_round.reveal)
                    last = restored_round.committed_at
                    self._insert_round(conn, restored.id, game, _stamp(last), restored_round.images)
                    saved_rounds += 1
                finished_at = restored.finished_at or last
                if game.outcome is not None and finished_at is not None:
                    conn.execute(
                        "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?",
                        (_stamp(finished_at), restored.id),
                    )
                elif restored.abandoned:
                    conn.execute(
                        "UPDATE games SET status = 'abandoned' WHERE id = ?", (restored.id,)
                    )
                saved_games += 1
            conn.execute(
                "UPDATE games SET status = 'abandoned' "
                "WHERE status = 'playing' AND id < (SELECT max(id) FROM games)"
            )
        return saved_games, saved_rounds

    @contextmanager
    def _transaction(self, doing: str, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        if self._conn is None:
            raise JournalError(f"{self.path}: the journal is closed (while {doing})")
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as err:
            _rollback(conn)
            raise translate(err, self.path, doing) from err
        except BaseException:
            _rollback(conn)
            raise

    def _now(self) -> str:
        return _stamp(self._clock())

    def _game_row(self, conn: sqlite3.Connection, game_id: int) -> _GameRow:
        row = conn.execute(
            "SELECT header, colours, started_at, status, finished_at FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            (newest,) = conn.execute("SELECT max(id) FROM games").fetchone()
            held = "it holds no games" if newest is None else f"the newest is game {newest}"
            raise UnknownGameError(f"{self.path}: there is no game {game_id} ({held})")
        header, colours, started_at, status, finished_at = row
        return _GameRow(header, colours, started_at, GameStatus(status), finished_at)

    def _reveal_texts(self, conn: sqlite3.Connection, game_id: int) -> list[str]:
        rows = conn.execute(
            "SELECT number, reveal FROM rounds WHERE game_id = ? ORDER BY number", (game_id,)
        ).fetchall()
        numbers = [number for number, _ in rows]
        if numbers != list(range(1, len(rows) + 1)):
            raise corrupt(self.path, f"game {game_id} has rounds {numbers} stored, with a gap")
        return [reveal for _, reveal in rows]

    def _replay(self, game_id: int, header: str, reveals: Iterable[str]) -> Game:
        try:
            return record(header, list(reveals)).play()
        except (GameFileError, RulesError, ValueError, TypeError, KeyError) as err:
            raise JournalCorruptError(
                f"{self.path}: game {game_id} cannot be replayed from its stored rounds ({err})"
            ) from err

    def _stored(self, conn: sqlite3.Connection, game_id: int) -> StoredGame:
        row = self._game_row(conn, game_id)
        game = self._replay(game_id, row.header, self._reveal_texts(conn, game_id))
        return StoredGame(
            id=game_id,
            game=game,
            colours=MappingProxyType(str_mapping(row.colours)),
            started_at=datetime.fromisoformat(row.started_at),
            status=row.status,
        )

    def _newest(self, conn: sqlite3.Connection) -> int | None:
        newest: int | None = conn.execute("SELECT max(id) FROM games").fetchone()[0]
        return newest

    def _check_same_game(self, game_id: int, header: str, stored: list[str], game: Game) -> None:
        if header_document(game) != json.loads(header):
            raise JournalError(
                f"{self.path}: the game given is not game {game_id} "
                "(its ruleset, players or first storyteller differ)"
            )
        docs = round_documents(game)
        for number, text in enumerate(stored, start=1):
            if docs[number - 1] != json.loads(text):
                raise JournalError(
                    f"{self.path}: the game given differs from game {game_id} in round {number}"
                )

    def _insert_round(
        self,
        conn: sqlite3.Connection,
        game_id: int,
        game: Game,
        committed_at: str,
        images: RoundImages,
    ) -> None:
        number = len(game.played)
        conn.execute(
            "INSERT INTO rounds "
            "(game_id, number, reveal, deltas, reasons, totals, committed_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                number,
                dumps(round_documents(game)[-1]),
                *score_columns(game.played[-1]),
                committed_at,
            ),
        )
        if images.frame is not None or images.overlay is not None:
            conn.execute(
                "INSERT INTO round_images (game_id, number, frame, overlay) VALUES (?, ?, ?, ?)",
                (game_id, number, images.frame, images.overlay),
            )

    def _status_after(
        self, conn: sqlite3.Connection, game_id: int, row: _GameRow, game: Game, now: str
    ) -> tuple[GameStatus, str | None]:
        """Status and finish time once a correction has rescored the game."""
        if game.outcome is not None:
            return GameStatus.FINISHED, row.finished_at or now
        reopen = row.status is GameStatus.PLAYING or (
            row.status is GameStatus.FINISHED and self._newest(conn) == game_id
        )
        return (GameStatus.PLAYING if reopen else GameStatus.ABANDONED), None


def _open(path: Path, create: bool) -> sqlite3.Connection:
    """Connect, set WAL and FULL sync, check the file and its tables."""
    if not create and not path.is_file():
        raise UnreadableFileError(f"{path}: no journal here (`companion play` starts one)")
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UnwritableFileError(
                f"{path}: cannot make the journal's folder ({err.strerror or err})"
            ) from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_SECONDS)
    except sqlite3.Error as err:
        raise translate(err, path, "opening it") from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if str(mode).lower() != "wal":
            raise JournalError(
                f"{path}: SQLite cannot keep the journal in WAL mode here (it stays in "
                f"{mode} mode); keep the journal on the Pi's own disk"
            )
        conn.execute("PRAGMA synchronous = FULL")
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
        size = path.stat().st_size if path.exists() else 0
        if size % int(page_size):
            raise corrupt(path, f"{size} bytes is not a whole number of {page_size}-byte pages")
        problems = [str(problem) for (problem,) in conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise corrupt(path, "quick_check: " + "; ".join(problems))
        schema.prepare(conn, path)
    except sqlite3.Error as err:
        conn.close()
        raise translate(err, path, "opening it") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _round_summary(
    start: Game,
    number: int,
    deltas: str,
    reasons: str,
    totals: str,
    committed_at: str,
    has_frame: int,
    has_overlay: int,
    corrected: int,
) -> RoundSummary:
    return RoundSummary(
        number=number,
        storyteller=start.seating.storyteller(start.first_storyteller, number),
        deltas=MappingProxyType(int_mapping(deltas)),
        reasons=MappingProxyType(reasons_mapping(reasons)),
        totals=MappingProxyType(int_mapping(totals)),
        committed_at=datetime.fromisoformat(committed_at),
        has_frame=bool(has_frame),
        has_overlay=bool(has_overlay),
        corrected=bool(corrected),
    )


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _rounds_label(count: int) -> str:
    if count == 0:
        return "no rounds"
    return "round 1" if count == 1 else f"rounds 1 to {count}"


def _span_label(first: int, last: int) -> str:
    return f"round {first}" if first == last else f"rounds {first} to {last}"
