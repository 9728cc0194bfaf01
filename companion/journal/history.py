"""Reading the journal's history: the list of games, a game's rounds, its pictures.

What `companion history` prints comes from here, through any open `JournalFile`:
one opened only to read, or the game loop's own writer. The lists show the scores
as they were confirmed (or last corrected), with a mark on corrected rounds;
`export` replays the game through the rules engine.
"""

import json
from datetime import datetime
from types import MappingProxyType

from companion.errors import JournalError
from companion.gamefile import game_document
from companion.journal.documents import int_mapping, reasons_mapping
from companion.journal.file import JournalFile
from companion.journal.records import GameStatus, GameSummary, RoundImages, RoundSummary
from companion.rules import Game
from companion.wording import rounds_played


class History:
    """The games of an open journal file, read back for people to look at."""

    def __init__(self, file: JournalFile) -> None:
        self.file = file
        """The journal read: the game loop's writer, or a file opened only to read."""

    def games(self) -> tuple[GameSummary, ...]:
        """Every stored game, newest first."""
        with self.file.transaction("listing the games") as conn:
            rows = conn.execute(
                "SELECT g.id, g.started_at, g.header, g.status, "
                "(SELECT count(*) FROM rounds r WHERE r.game_id = g.id), "
                "(SELECT r.totals FROM rounds r WHERE r.game_id = g.id "
                " ORDER BY r.number DESC LIMIT 1) "
                "FROM games g ORDER BY g.id DESC"
            ).fetchall()
        summaries = []
        for game_id, started_at, header, status, count, totals_text in rows:
            start = self.file.replay(game_id, header, ())
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
        with self.file.transaction(f"listing the rounds of game {game_id}") as conn:
            row = self.file.game_row(conn, game_id)
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
        start = self.file.replay(game_id, row.header, ())
        return tuple(_round_summary(start, *columns) for columns in rows)

    def images(self, game_id: int, number: int) -> RoundImages:
        """The frame and overlay kept with a round (None for those not kept)."""
        with self.file.transaction(
            f"reading the pictures of round {number} of game {game_id}"
        ) as conn:
            self.file.game_row(conn, game_id)
            count = len(self.file.reveal_texts(conn, game_id))
            if not 1 <= number <= count:
                raise JournalError(
                    f"{self.file.path}: game {game_id} has no round {number} "
                    f"(it has {rounds_played(count)})"
                )
            row = conn.execute(
                "SELECT frame, overlay FROM round_images WHERE game_id = ? AND number = ?",
                (game_id, number),
            ).fetchone()
        return RoundImages(None, None) if row is None else RoundImages(row[0], row[1])

    def export(self, game_id: int) -> str:
        """The game as a game file (JSON) that `companion score` reads."""
        return json.dumps(game_document(self.file.load(game_id).game), ensure_ascii=False)


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
