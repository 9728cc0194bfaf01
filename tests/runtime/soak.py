"""The soak driver: thousands of rounds through the real loop, measured as it goes.

Everything is real but the camera and the clock: an endless Odyssey game in the
session, the journal file with every round's frame and overlay, the headless
screen, the reader and stabiliser on the small 4-slot board of the vision tests.
The camera is a `ReplaySource` serving frames drawn once at the start (drawing a
frame costs far more than reading it): the empty board, and for each storyteller a
few legal rounds with every owner token and every vote dial laid. Each round the
table shows a laid round until the proposal appears, Confirm is pressed, and the
empty board is shown until the session asks for the next round. The clock moves
`STEP_SECONDS` a step.

The stabiliser settles a token in `SETTLE_FRAMES` frames and lets it go after
`KEEP_FRAMES` unseen ones (the loop's defaults are 5 and 15): the soak measures
what grows from one round to the next, not the stabiliser, and five steps a round
(two of the empty board, two of the laid round, one with Confirm) leave time for
thousands of rounds.
"""

import functools
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.actions import Action, Press
from companion.display import fonts
from companion.display.screen import DisplayMode, Screen
from companion.journal import History, Journal
from companion.rules import Game, Reveal, find_ruleset
from companion.runtime.camera import Camera, Watching
from companion.runtime.effects import JournalEffects
from companion.runtime.loop import Loop
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.states import Phase
from companion.sim import Scene, render, round_scene
from companion.sources.base import Frame, FrameSource
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import Stabiliser
from tests.vision.scenes import KIT, MILD, POSE, calibration, layout

SEED = 20261121
LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
ENDLESS = find_ruleset("odyssey").with_options({"target": None, "storyteller_turns": 1000})
"""No target, and 4,000 rounds before every player has told 1,000 times; the draw
pile is reshuffled, so it never runs out."""
LAYS_PER_STORYTELLER = 3
"""Laid rounds drawn for each storyteller; the soak goes through them in turn."""
SETTLE_FRAMES = 2
KEEP_FRAMES = 1
STEP_SECONDS = 0.75
"""Simulated time per step: the rabbits hop for 1.5 s, two steps of clearing."""
STUCK_STEPS = 40
"""Steps without the awaited change after which the soak stops: a bug, not a table."""


class ReplaySource(FrameSource):
    """A camera over the table, handing out the pre-drawn frame of what lies on it."""

    description = "replayed simulated table"

    def __init__(self, frame: Frame) -> None:
        self.showing = frame
        """The frame every read returns until the table changes."""

    def read(self) -> Frame:
        return self.showing

    def close(self) -> None:
        """Nothing to let go: the frames belong to the soak."""


@dataclass(frozen=True)
class Laid:
    """One legal round on the table, as the players laid it and as the camera sees it."""

    reveal: Reveal
    frame: Frame


@dataclass(frozen=True)
class Pool:
    """Every frame the soak shows, drawn once."""

    empty: Frame
    laid: Mapping[str, tuple[Laid, ...]]
    """Laid rounds by storyteller."""


def draw_pool(seed: int = SEED) -> Pool:
    """The empty board and `LAYS_PER_STORYTELLER` laid rounds for each storyteller.
    Frames are read-only: a stage that drew on the camera's frame would fail loudly
    instead of spoiling every later round that shows it."""
    board = layout()
    rng = np.random.default_rng(seed)
    colours = LINEUP.colour_by_player

    def drawn(scene: Scene) -> Frame:
        image = render(scene, POSE, MILD, rng).image
        image.setflags(write=False)
        return image

    laid: dict[str, tuple[Laid, ...]] = {}
    for storyteller in LINEUP.names:
        game = Game.start(ENDLESS, LINEUP.names, storyteller)
        scenes = [round_scene(board, KIT, game, rng, colours) for _ in range(LAYS_PER_STORYTELLER)]
        laid[storyteller] = tuple(Laid(s.reveal, drawn(s)) for s in scenes if s.reveal is not None)
    return Pool(drawn(Scene(board, KIT)), laid)


@dataclass(frozen=True)
class Sample:
    """The process after some rounds."""

    rounds: int
    """Rounds committed when it was taken (0: before the first step)."""
    seconds: float
    """Since the first step."""
    resident_mb: float
    """Resident memory (/proc/self/statm)."""
    fds: int
    """Open file descriptors."""
    font_fds: int
    """Of those, the fonts the screen keeps: one open file per font size in its
    bounded cache (a new size shows up when a total first needs another digit)."""
    threads: int
    """Live Python threads."""
    blocks: int
    """Memory blocks the interpreter has allocated (`sys.getallocatedblocks`)."""

    @property
    def other_fds(self) -> int:
        """File descriptors that are not the screen's fonts."""
        return self.fds - self.font_fds


def sample(rounds: int, started: float) -> Sample:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return Sample(
        rounds=rounds,
        seconds=time.perf_counter() - started,
        resident_mb=pages * os.sysconf("SC_PAGE_SIZE") / 1e6,
        fds=len(os.listdir("/proc/self/fd")),
        font_fds=fonts.font.cache_info().currsize,
        threads=threading.active_count(),
        blocks=sys.getallocatedblocks(),
    )


@dataclass(frozen=True)
class SoakResult:
    """How the soak went."""

    samples: tuple[Sample, ...]
    """Before the first step, after round 1, every `every` rounds and after the last."""
    steps: int
    """Turns of the loop."""
    wrong: tuple[int, ...]
    """Rounds whose committed score (points, reasons, totals) differs from the rules
    engine's for what was laid, played on the game as it stood."""
    journal_rounds: int
    """Rounds the journal holds at the end."""
    journal_replays: bool
    """Whether the journal's game, replayed, is the session's game."""
    journal_bytes: int
    """Size of the journal file and its WAL at the end."""

    def at(self, rounds: int) -> Sample:
        return next(s for s in self.samples if s.rounds == rounds)


def has_played(session: Session, rounds: int) -> bool:
    return len(session.state.game.played) == rounds


def soak(
    journal_path: Path,
    rounds: int,
    pool: Pool,
    *,
    every: int = 100,
    say: Callable[[Sample], None] = lambda _: None,
) -> SoakResult:
    """Play `rounds` rounds at the replayed table, sampling the process as it goes."""
    board = layout()
    source = ReplaySource(pool.empty)
    reader = TableReader(calibration(), board, make_decoder())
    watcher = TableWatcher(reader, Stabiliser(SETTLE_FRAMES, KEEP_FRAMES))
    now = 0.0
    with Journal(journal_path) as journal, Screen(mode=DisplayMode.HEADLESS) as screen:
        settings = Settings(tuple(s.slot for s in board.slots))
        camera = Camera(lambda: source, watcher, board, Watching(source))
        session = Session.new(ENDLESS, LINEUP, JournalEffects(journal, camera.pictures), settings)
        loop = Loop(session, screen, lambda: now, camera=camera)
        started = time.perf_counter()
        samples = [sample(0, started)]
        say(samples[-1])
        steps = 0

        def step_until(done: Callable[[], bool], awaited: str) -> None:
            nonlocal now, steps
            for _ in range(STUCK_STEPS):
                if done():
                    return
                loop.step()
                now += STEP_SECONDS
                steps += 1
            raise AssertionError(
                f"round {session.state.game.round_number}: no {awaited} after {STUCK_STEPS} "
                f"steps (phase {session.state.phase.value}, table {session.state.table})"
            )

        loop.post(Press(Action.CONFIRM))  # the first storyteller is the first player
        wrong: list[int] = []
        for number in range(1, rounds + 1):
            source.showing = pool.empty
            step_until(lambda: session.state.phase is Phase.WAITING, "call for the next round")
            storyteller = session.state.game.storyteller
            lays = pool.laid[storyteller]
            laid = lays[(number - 1) // len(LINEUP.names) % len(lays)]
            source.showing = laid.frame
            step_until(lambda: session.state.proposal is not None, "proposal")
            expected = session.state.game.play(laid.reveal).played[-1]
            loop.post(Press(Action.CONFIRM))
            step_until(functools.partial(has_played, session, number), "commit")
            if session.state.game.played[-1] != expected:
                wrong.append(number)
            if number == 1 or number % every == 0 or number == rounds:
                samples.append(sample(number, started))
                say(samples[-1])
        game_id = session.state.game_id
        assert game_id is not None
        journal_replays = journal.load(game_id).game == session.state.game
        journal_rounds = len(History(journal).rounds(game_id))
    return SoakResult(
        samples=tuple(samples),
        steps=steps,
        wrong=tuple(wrong),
        journal_rounds=journal_rounds,
        journal_replays=journal_replays,
        journal_bytes=sum(
            p.stat().st_size for p in (journal_path, Path(f"{journal_path}-wal")) if p.exists()
        ),
    )
