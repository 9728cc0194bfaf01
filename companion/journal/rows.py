"""A round's rows as the writer stores them: its reveal, its scores and its pictures.

Every way a round enters the journal (confirmed at the table, salvaged from a damaged
journal, imported from a game file) writes it here, from the played round alone: the
cost of a round does not depend on how many rounds came before it, so a game of
40,000 rounds is written in a hundred times the time of one of 400.
"""

import sqlite3

from companion.gamefile import reveal_document
from companion.journal.documents import dumps, score_columns
from companion.journal.records import RoundImages
from companion.journal.schema import picture_sum
from companion.rules import PlayedRound


def insert_round(
    conn: sqlite3.Connection,
    game_id: int,
    number: int,
    played: PlayedRound,
    committed_at: str,
    images: RoundImages,
) -> None:
    """Store round `number` of a game, played as `played`, with its pictures if any,
    inside the writer's transaction."""
    conn.execute(
        "INSERT INTO rounds "
        "(game_id, number, reveal, deltas, reasons, totals, committed_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            number,
            dumps(reveal_document(played.score.round.reveal)),
            *score_columns(played),
            committed_at,
        ),
    )
    if images.frame is not None or images.overlay is not None:
        conn.execute(
            "INSERT INTO round_images "
            "(game_id, number, frame, overlay, frame_sha256, overlay_sha256) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                game_id,
                number,
                images.frame,
                images.overlay,
                picture_sum(images.frame),
                picture_sum(images.overlay),
            ),
        )
