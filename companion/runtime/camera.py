"""The table's camera as the game loop sees it: open, failed, or at the end of a replay.

A camera that fails is closed, reported on the screen and opened again every few
seconds while the game goes on by hand; one bad frame (a replayed file that will not
decode) is skipped. What the loop knows of its camera is one frozen `CameraState`,
replaced at every change: which of those it is in, how many frames it has read, and
the frame a proposal settled on (the evidence kept with the round in the journal).
"""

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.display.view import CameraView
from companion.errors import CompanionError, HardwareError, SourceEndedError, error_words
from companion.imaging.evidence import round_pictures
from companion.imaging.overlay import annotate
from companion.journal import RoundImages
from companion.kit.layouts import Layout
from companion.phrases import Phrase, in_context, phrase
from companion.rules import RoundScore
from companion.sources.base import Frame, FrameSource
from companion.vision.pipeline import FrameReading, TableWatcher
from companion.vision.stabilise import Settled

RETRY_SECONDS = 3.0
"""How often a failed camera is opened again."""
FAILURES_IN_A_ROW = 3
"""Failed frames in a row after which the camera counts as lost (one bad frame, a
replayed file that will not decode, is skipped)."""
THUMBNAIL_WIDTH = 480
"""Width of the camera picture on the screen, in pixels."""
THUMBNAIL_SECONDS = 0.25
"""How often the camera picture on the screen is redrawn."""
WEDGED_MESSAGE = phrase(
    "the camera is stuck in a read that never returned: restart the companion to free it "
    "(as a service it restarts by itself)"
)
"""What the screen says when a hung read holds the camera."""


@dataclass(frozen=True, eq=False)
class Look:
    """A frame and what the reader made of it."""

    frame: Frame
    """The frame as the camera gave it."""
    reading: FrameReading
    """The tags, the board fit and the tokens read from it."""


@dataclass(frozen=True)
class Watching:
    """The source is open and frames come in."""

    source: FrameSource
    """The open source."""
    failures: int = 0
    """Failed frames in a row."""
    latest: Look | None = None
    """The latest frame read, once there is one."""


@dataclass(frozen=True)
class Failed:
    """The source failed or could not be opened: it is tried again at `retry_at`."""

    problem: Phrase | None
    """Why there is no source, in words; None before the first try."""
    retry_at: float
    """When to open it again."""
    stuck: FrameSource | None = None
    """A failed source whose read never returned: it may hold the camera still."""
    wedged: bool = False
    """The camera is held by a read that never returned and cannot be opened again:
    the watchdog is left unfed, so the service manager restarts the companion (the
    journal resumes the game) and the new process has the camera."""


@dataclass(frozen=True)
class Ended:
    """A replay (a video, a folder) has no frames left: nothing to try again."""

    problem: Phrase
    """What ended, in words."""


@dataclass(frozen=True, eq=False)
class Evidence:
    """The frame a proposal settled on, kept for the journal when it is confirmed."""

    proposal: RoundScore
    """The proposal (the very object the session holds)."""
    look: Look
    """The frame and its reading."""


@dataclass(frozen=True)
class CameraState:
    """Everything the loop knows of its camera at one moment."""

    status: Watching | Failed | Ended
    """Open, failed, or at the end of a replay."""
    frames: int = 0
    """Frames read since the start."""
    evidence: Evidence | None = None
    """The frame the latest proposal settled on."""


@dataclass(frozen=True)
class Lost:
    """What a look at the camera can report besides a settled table: it was lost."""

    wedged: bool
    """Whether it has just turned out to be held by a read that never returned."""


class Camera:
    """The frame source and the reader of the calibrated table."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        watcher: TableWatcher,
        layout: Layout,
        start: Watching | Failed | None = None,
    ) -> None:
        """`start` is the source already open (or why it could not be); by default
        it is opened at the loop's first step."""
        self.open_source = open_source
        """Opens the source again after a failure."""
        self.watcher = watcher
        """Reader and stabiliser of the calibrated table."""
        self.layout = layout
        """The board, for drawing card areas on the picture."""
        self.state = CameraState(start or Failed(None, retry_at=0.0))
        """What the loop knows of the camera now."""
        self._thumbnail: tuple[float, CameraView] | None = None

    @property
    def wedged(self) -> bool:
        """Whether a hung read holds the camera so that only a restart frees it."""
        status = self.state.status
        return isinstance(status, Failed) and status.wedged

    def look(self, now: float) -> Settled | Lost | None:
        """Read one frame: the settled table it gives, `Lost` when the camera has
        just been lost (or could not be opened again), or None (waiting to retry, a
        bad frame skipped, the replay over)."""
        status = self.state.status
        if isinstance(status, Ended):
            return None
        if isinstance(status, Failed):
            if now < status.retry_at:
                return None
            try:
                source = self.open_source()
            except CompanionError as error:
                stuck = status.stuck
                wedged = status.wedged or (stuck is not None and stuck.stuck)
                self._forget(Failed(unavailable(error), now + RETRY_SECONDS, stuck, wedged))
                return Lost(wedged and not status.wedged)
            status = Watching(source)
            self.state = replace(self.state, status=status)
        try:
            frame = status.source.read()
        except SourceEndedError:
            self._forget(Ended(phrase("the replay has no more frames")))
            return Lost(False)
        except (HardwareError, OSError) as error:
            failures = status.failures + 1
            if failures < FAILURES_IN_A_ROW:
                self.state = replace(self.state, status=replace(status, failures=failures))
                return None
            lost = phrase("camera lost: {problem}", problem=error_words(error))
            self._forget(Failed(lost, now + RETRY_SECONDS))
            return Lost(False)
        reading, settled = self.watcher.push(frame)
        look = Look(frame, reading)
        self.state = replace(
            self.state,
            status=Watching(status.source, latest=look),
            frames=self.state.frames + 1,
        )
        return settled

    def keep_evidence(self, proposal: RoundScore | None) -> None:
        """Remember the frame a new proposal settled on (the latest one)."""
        status, evidence = self.state.status, self.state.evidence
        if proposal is None or not isinstance(status, Watching) or status.latest is None:
            return
        if evidence is None or evidence.proposal is not proposal:
            self.state = replace(self.state, evidence=Evidence(proposal, status.latest))

    def pictures(self, proposal: RoundScore | None) -> RoundImages:
        """The frame and annotated picture of a round about to be committed, of the
        board at a size the journal can keep (`round_pictures`): those its proposal
        settled on, else the latest (a round entered by hand)."""
        evidence, status = self.state.evidence, self.state.status
        if proposal is not None and evidence is not None and evidence.proposal is proposal:
            look = evidence.look
        elif isinstance(status, Watching) and status.latest is not None:
            look = status.latest
        else:
            return RoundImages(None, None)
        return round_pictures(look.frame, look.reading, self.layout)

    def view(self, now: float) -> CameraView:
        """The picture and status for the screen, redrawn a few times a second."""
        status = self.state.status
        if isinstance(status, Failed | Ended) and status.problem is not None:
            hint = (
                phrase("trying again") if isinstance(status, Failed) else phrase("no more frames")
            )
            line = phrase(
                "{problem} ({hint}); the game goes on by hand: press {button}",
                problem=status.problem,
                hint=hint,
                button=in_context("button", "Fix"),
            )
            return CameraView(None, line, working=False)
        if not isinstance(status, Watching) or status.latest is None:
            return CameraView(None, phrase("camera starting"), working=True)
        if self._thumbnail is None or now - self._thumbnail[0] >= THUMBNAIL_SECONDS:
            look = status.latest
            image = annotate(look.frame, look.reading, self.layout, THUMBNAIL_WIDTH)
            self._thumbnail = (now, CameraView(image, status.source.description, working=True))
        return self._thumbnail[1]

    def close(self) -> None:
        """Let the source go, if one is open."""
        status = self.state.status
        if isinstance(status, Watching):
            status.source.close()

    def _forget(self, status: Failed | Ended) -> None:
        """Let the open source go (keeping it if a read of it never returned), forget
        what it showed, and take `status`."""
        current = self.state.status
        if isinstance(current, Watching):
            with contextlib.suppress(HardwareError, OSError):
                current.source.close()
            if isinstance(status, Failed) and current.source.stuck:
                status = replace(status, stuck=current.source)
        self._thumbnail = None
        self.watcher.stabiliser.clear()
        self.state = replace(self.state, status=status, evidence=None)


def unavailable(error: CompanionError) -> Phrase:
    """Why a camera could not be opened, as the screen says it."""
    return phrase("camera not available: {problem}", problem=error.phrase)
