"""What the journal hands back: frozen records, never rows or dicts."""

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from companion.rules import Game, Reveal


class GameStatus(enum.Enum):
    """Where a stored game stands."""

    PLAYING = "playing"
    """Being played; `Journal.resume` picks it up after a restart."""
    FINISHED = "finished"
    """Ended by the rules after its last stored round."""
    ABANDONED = "abandoned"
    """Left unfinished: another game started, or the table gave it up."""


@dataclass(frozen=True)
class StoredGame:
    """A game from the journal, replayed through the rules engine."""

    id: int
    """The game's number in the journal."""
    game: Game
    """Every stored round played again from its reveal; scores are never read from disk."""
    colours: Mapping[str, str]
    """Player name to kit colour name."""
    started_at: datetime
    """When the game started (UTC)."""
    status: GameStatus
    """Playing, finished or abandoned."""


@dataclass(frozen=True)
class GameSummary:
    """One line of the list of games, from the game replayed through the rules."""

    id: int
    """The game's number in the journal."""
    ruleset: str
    """The ruleset's registry name."""
    players: tuple[str, ...]
    """The players in seating order."""
    rounds: int
    """Rounds stored."""
    status: GameStatus
    """Playing, finished or abandoned."""
    started_at: datetime
    """When the game started (UTC)."""
    totals: Mapping[str, int]
    """Every scorer's total after the last stored round, in seating order."""
    winners: tuple[str, ...]
    """The scorers with the highest total, once finished; empty before."""
    archived: bool = False
    """Whether the game is read from the archive beside the journal."""


@dataclass(frozen=True)
class DamagedGame:
    """The line of the list of games for a game that does not replay: it is named with
    what is damaged, never shown with totals as if it were sound."""

    id: int
    """The game's number in the journal."""
    damage: str
    """What is damaged, as said to a person: "round 4 is damaged: …"."""


@dataclass(frozen=True)
class RoundSummary:
    """One stored round, scored as the rules score its stored reveal."""

    number: int
    """1 for the first round."""
    storyteller: str
    """Who told."""
    deltas: Mapping[str, int]
    """Scorer to the points of this round."""
    reasons: Mapping[str, tuple[str, ...]]
    """Scorer to the reasons for those points, as printed."""
    totals: Mapping[str, int]
    """Scorer to the total after this round."""
    committed_at: datetime
    """When the round was confirmed (UTC)."""
    has_frame: bool
    """Whether the camera frame it was scored from is stored (and matches its checksum)."""
    has_overlay: bool
    """Whether the detection overlay is stored (and matches its checksum)."""
    corrected: bool
    """Whether the round has been corrected since it was confirmed."""
    pruned: bool = False
    """Whether its pictures were deleted once older than the time pictures are kept."""
    damaged: tuple[str, ...] = ()
    """The pictures ("frame", "overlay") kept but no longer matching their checksums:
    not counted as stored above, to be told as damaged, never shown."""


@dataclass(frozen=True)
class RoundImages:
    """The pictures kept with a round, as the encoded bytes they were given as."""

    frame: bytes | None
    """The camera frame (JPEG), if one was kept."""
    overlay: bytes | None
    """The detection overlay (JPEG or PNG), if one was kept."""
    damaged: tuple[str, ...] = ()
    """The pictures ("frame", "overlay") kept but changed since: they no longer match
    their checksum, so they are left out (None above) rather than shown as evidence."""
    pruned: bool = False
    """Whether the round's game had its pictures pruned after the time they are kept."""


@dataclass(frozen=True)
class RestoredRound:
    """A round read back from another journal, for `Journal.restore`."""

    reveal: Reveal
    """What lay on the table."""
    committed_at: datetime
    """When it was first confirmed."""
    images: RoundImages
    """Its pictures, or None for those that could not be read."""


@dataclass(frozen=True)
class RestoredGame:
    """A game read back from another journal, for `Journal.restore`."""

    id: int
    """Its number, kept."""
    start: Game
    """The game before its first round."""
    colours: Mapping[str, str]
    """Player name to kit colour name."""
    started_at: datetime
    """When it started."""
    abandoned: bool
    """Whether it had been abandoned."""
    finished_at: datetime | None
    """When it finished, if that was recorded."""
    rounds: Iterable[RestoredRound]
    """Its rounds from round 1, read as they are written (one picture in memory at once)."""
    pictures_pruned_at: str | None = None
    """When its pictures were pruned, as stored, if they were."""
    imported: str | None = None
    """The digest of the game file it was imported from, if it was."""
    table_time: str | None = None
    """Its last change on the journal's own time, as stored, if it was kept."""
