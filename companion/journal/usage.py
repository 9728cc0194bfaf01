"""How fast the table fills its journal: what recent play stored, and the room left inside.

A café asks "how long before the memory card is full?", and the answer depends on how much
the table plays, not on how much the journal holds: a year of games whose pictures
were pruned says little about next week. So the doctor measures the recent rounds
(their number, the days they were played on, the bytes of their pictures and texts)
and the free pages inside the file, which pruning and archiving leave for new rounds
before the file grows. Games imported from game files are left out: their rounds
were not played at this table when the file says.
"""

from dataclasses import dataclass
from datetime import datetime

from companion.journal import schema
from companion.journal.file import JournalFile
from companion.journal.store import stamp


@dataclass(frozen=True)
class Use:
    """What the rounds confirmed since a moment took in the journal, and its free room."""

    since: datetime
    """The start of the time measured."""
    rounds: int
    """Rounds confirmed since then (played at this table)."""
    days: int
    """Days (in UTC) on which at least one of them was confirmed."""
    picture_bytes: int
    """Bytes of those rounds' pictures still kept (pruned ones count for nothing)."""
    text_bytes: int
    """Bytes of those rounds' texts: what lay on the table, the points, the reasons."""
    free_bytes: int
    """Pages of the journal file that are free (left by pruning or archiving): room
    for new rounds before the file grows."""

    @property
    def round_bytes(self) -> float | None:
        """Bytes a round took on average, or None without any round."""
        return (self.picture_bytes + self.text_bytes) / self.rounds if self.rounds else None

    @property
    def rounds_per_day(self) -> float | None:
        """Rounds per day of play, or None without any day of play."""
        return self.rounds / self.days if self.days else None


def recent_use(file: JournalFile, since: datetime) -> Use:
    """The rounds confirmed in `file` since `since`, and the file's free pages.

    Reads lengths only (SQLite's `length()` of a blob does not read the blob), so it
    costs the same whatever the pictures weigh.
    """
    with file.transaction("measuring recent play") as conn:
        local = "AND g.imported IS NULL " if schema.has_year_of_service(conn) else ""
        rounds, days, pictures, texts = conn.execute(
            "SELECT count(*), count(DISTINCT substr(r.committed_at, 1, 10)), "
            "coalesce(sum(coalesce(length(i.frame), 0) + coalesce(length(i.overlay), 0)), 0), "
            "coalesce(sum(length(CAST(r.reveal AS BLOB)) + length(CAST(r.deltas AS BLOB)) "
            "+ length(CAST(r.reasons AS BLOB)) + length(CAST(r.totals AS BLOB))), 0) "
            "FROM rounds r JOIN games g ON g.id = r.game_id "
            "LEFT JOIN round_images i ON i.game_id = r.game_id AND i.number = r.number "
            f"WHERE r.committed_at >= ? {local}",
            (stamp(since),),
        ).fetchone()
        (free_pages,) = conn.execute("PRAGMA freelist_count").fetchone()
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    return Use(
        since=since,
        rounds=int(rounds),
        days=int(days),
        picture_bytes=int(pictures),
        text_bytes=int(texts),
        free_bytes=int(free_pages) * int(page_size),
    )
