"""The stabiliser: fuses consecutive frames into one settled view of the table.

Single frames flicker: a hand passes, glare washes a tag out, a dial is still being
put down. A token counts only once it has been seen in the same slot in
`settle_frames` frames; a token not seen for up to `keep_frames` frames (a hand over
it) is kept where it was; after that it has left and is dropped. A token moved to
another slot starts settling again. Nothing is ever reported that was not seen.

Tokens are discs a few millimetres thick, and one laid partly on another hides it:
the one below was seen, then vanishes while the table is otherwise still. Dropping it
could leave a legal table (a second vote in Odyssey) and a wrong score, so a token
with another lying over where it was, one that came (or was moved) about when it
vanished, is kept for as long as that one lies there, and for `keep_frames` after, as
*covered*: in no slot, but reported, for the players to move the two apart. Seen
again, it simply comes back. A token taken away from beside one that lay there all
along is not covered: it has gone.
"""

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.errors import SettingError
from companion.kit.tags import KitTag
from companion.vision.assign import PlacedToken, observe
from companion.vision.records import Covered, Point, TableObservation

SETTLE_FRAMES = 5
"""Frames a token must be seen in the same slot before it counts (0.5 s at 10 fps)."""
KEEP_FRAMES = 15
"""Frames a settled token may go unseen before it is taken as gone (1.5 s at 10 fps)."""
MOVED_SIDES = 0.5
"""A token seen this many code sides from where it lay has been moved, not merely seen
again with a pixel's jitter."""
BLIND_AT_LEAST = 4
"""Settled tokens from which a frame missing more than half of them is blind; with
fewer, a hand over one or two is no sign of it."""
TOKEN_ACROSS = 1.7
"""A token's disc across, in sides of its code: the disc holds the printed tag (the
code and its quiet zone, 25 modules for the code's 21) within its circle, so it is at
least sqrt(2) * 25 / 21 = 1.68 code sides across. Two discs overlap, so one may hide
the other, only when their centres are closer than this many sides of the larger code
(the sum of two radii is at most the larger diameter): erring wide asks the players to
move two tokens apart rather than risk scoring a table without the one below."""


@dataclass(frozen=True)
class Settled:
    """The stabiliser's view after a frame."""

    observation: TableObservation
    """The settled tokens by slot, the covered tokens, with the latest frame's
    unplaced tokens, foreign codes, copies of tokens and word on the board."""
    steady: bool
    """True when no token is still settling: the table has held still (a covered token
    does not stop it, since it stays covered until the players move the tokens)."""
    pending: tuple[str, ...]
    """Texts of tokens seen but not yet settled."""
    hidden: tuple[str, ...]
    """Texts of settled tokens not seen in the latest frame, kept for now."""
    blind: bool = False
    """True when the latest frame missed most of the settled tokens (a camera hunting
    for focus, an arm over the board): it says nothing of the table, and the game
    neither starts a proposal nor confirms one on it (see `_blind`)."""


@dataclass
class _Track:
    """What the stabiliser remembers of one token."""

    token: PlacedToken
    """Where and how large it was last seen."""
    seen_in_slot: int
    """How many frames it has been seen in that slot."""
    last_seen: int
    """The last frame it was seen in."""
    arrived: int
    """The frame it was first seen where it lies now (it moved, or came, then)."""
    last_covered: int = 0
    """The last frame a seen token lay over where this one was last seen."""
    covered_by: str = ""
    """The text of that token."""

    def missing_for(self, now: int) -> int:
        """Frames since the token was last seen or last known to lie under another."""
        return now - max(self.last_seen, self.last_covered)


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
                if _moved(track.token, token):
                    track.arrived = now
                track.seen_in_slot += 1
                track.token = token
                track.last_seen = now
            else:
                self._tracks[token.tag] = _Track(token, 1, now, now)
        seen = [t for t in self._tracks.values() if t.last_seen == now]
        for tag, track in list(self._tracks.items()):
            if track.last_seen != now:
                # only a token that came (or moved) about when this one went can lie on
                # it: one that lay beside it all along says nothing of where it went
                since = track.last_seen - self.keep_frames
                over = _lying_over(track.token, [t.token for t in seen if t.arrived >= since])
                if over is not None:
                    track.last_covered = now
                    track.covered_by = over.tag.text
            if track.missing_for(now) > self.keep_frames:
                del self._tracks[tag]

        tracks = sorted(self._tracks.values(), key=lambda t: t.token.tag.text)
        covered = [t for t in tracks if now - t.last_seen > self.keep_frames]
        there = [t for t in tracks if now - t.last_seen <= self.keep_frames]
        settled = [t for t in there if t.seen_in_slot >= self.settle_frames]
        pending = [t for t in there if t.seen_in_slot < self.settle_frames]
        hidden = [t for t in settled if t.last_seen != now]
        return Settled(
            observation=observe(
                [t.token for t in settled],
                latest.unplaced,
                latest.foreign,
                latest.duplicates,
                latest.wrong_board,
                [Covered(t.token.tag.text, t.token.slot, t.covered_by) for t in covered],
            ),
            steady=not pending,
            blind=_blind(len(settled), len(hidden)),
            pending=tuple(t.token.tag.text for t in pending),
            hidden=tuple(t.token.tag.text for t in hidden),
        )

    def look_again(self) -> Mapping[str, Point]:
        """Where tracked tokens were last seen, for the reader to look again if missed."""
        return {track.token.tag.text: track.token.center_px for track in self._tracks.values()}

    def clear(self) -> None:
        """Forget every token: the table was cleared for a new round."""
        self._tracks.clear()


def _blind(settled: int, hidden: int) -> bool:
    """Whether a frame missed too many of the settled tokens to say the table is still:
    a camera hunting for focus, or an arm over most of the board, sees none of what was
    just laid either, and a table taken as still from such a frame is the table as it
    was before the last tokens went down (in Odyssey, a voter's first dial without the
    second is a legal round)."""
    return settled >= BLIND_AT_LEAST and hidden * 2 > settled


def _moved(before: PlacedToken, now: PlacedToken) -> bool:
    """Whether a token was seen somewhere else in its slot (a hand moved it)."""
    apart = math.dist(before.center_px, now.center_px)
    return apart > MOVED_SIDES * max(before.side_px, now.side_px, 1.0)


def _lying_over(missing: PlacedToken, seen: Iterable[PlacedToken]) -> PlacedToken | None:
    """The seen token nearest to where `missing` was last seen, if its disc overlaps
    that place (closer than `TOKEN_ACROSS` sides of the larger code). A size not known
    counts as none, so the other token's size decides; with neither known, no token
    is taken to lie over another and a missing token leaves as it always did."""

    def apart(token: PlacedToken) -> float:
        return math.dist(missing.center_px, token.center_px)

    over = [t for t in seen if apart(t) < TOKEN_ACROSS * max(missing.side_px, t.side_px)]
    return min(over, key=apart, default=None)
