"""The stabiliser: fuses consecutive frames into one settled view of the table.

Single frames flicker: a hand passes, glare washes a tag out, a dial is still being
put down. A token counts only once it has been seen in the same slot in
`settle_frames` frames; a token not seen for up to `keep_frames` frames (a hand over
it) is kept where it was; after that it has left and is dropped. A token moved to
another slot starts settling again. Nothing is ever reported that was not seen.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.errors import SettingError
from companion.kit.tags import KitTag
from companion.vision.assign import PlacedToken, observe
from companion.vision.records import Point, TableObservation

SETTLE_FRAMES = 5
"""Frames a token must be seen in the same slot before it counts (0.5 s at 10 fps)."""
KEEP_FRAMES = 15
"""Frames a settled token may go unseen before it is taken as gone (1.5 s at 10 fps)."""


@dataclass(frozen=True)
class Settled:
    """The stabiliser's view after a frame."""

    observation: TableObservation
    """The settled tokens by slot, with the latest frame's unplaced tokens, foreign
    codes, copies of tokens and word on the board."""
    steady: bool
    """True when no token is still settling: the table has held still."""
    pending: tuple[str, ...]
    """Texts of tokens seen but not yet settled."""
    hidden: tuple[str, ...]
    """Texts of settled tokens not seen in the latest frame, kept for now."""


@dataclass
class _Track:
    """What the stabiliser remembers of one token."""

    token: PlacedToken
    seen_in_slot: int
    last_seen: int


class Stabiliser:
    """Settles tokens over frames; one per table, fed every frame in order."""

    def __init__(self, settle_frames: int = SETTLE_FRAMES, keep_frames: int = KEEP_FRAMES) -> None:
        if settle_frames < 1 or keep_frames < 0:
            raise SettingError(
                f"settle_frames must be at least 1 and keep_frames at least 0, "
                f"not {settle_frames} and {keep_frames}"
            )
        self.settle_frames = settle_frames
        self.keep_frames = keep_frames
        self._tracks: dict[KitTag, _Track] = {}
        self._frame = 0

    def push(self, placed: Iterable[PlacedToken], latest: TableObservation) -> Settled:
        """Take one frame's placed tokens; answer with the settled table."""
        self._frame += 1
        now = self._frame
        for token in placed:
            track = self._tracks.get(token.tag)
            if track is not None and track.token.slot == token.slot:
                track.seen_in_slot += 1
                track.token = token
                track.last_seen = now
            else:
                self._tracks[token.tag] = _Track(token, 1, now)
        for tag, track in list(self._tracks.items()):
            if now - track.last_seen > self.keep_frames:
                del self._tracks[tag]

        settled = [t for t in self._tracks.values() if t.seen_in_slot >= self.settle_frames]
        pending = [t for t in self._tracks.values() if t.seen_in_slot < self.settle_frames]
        hidden = [t for t in settled if t.last_seen != now]
        return Settled(
            observation=observe(
                [t.token for t in settled],
                latest.unplaced,
                latest.foreign,
                latest.duplicates,
                latest.wrong_board,
            ),
            steady=not pending,
            pending=tuple(sorted(t.token.tag.text for t in pending)),
            hidden=tuple(sorted(t.token.tag.text for t in hidden)),
        )

    def look_again(self) -> Mapping[str, Point]:
        """Where tracked tokens were last seen, for the reader to look again if missed."""
        return {track.token.tag.text: track.token.center_px for track in self._tracks.values()}

    def clear(self) -> None:
        """Forget every token: the table was cleared for a new round."""
        self._tracks.clear()
