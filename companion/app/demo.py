"""The whole companion on a simulated table: setup to winner, with no hardware.

The demo calibrates the simulated board from a frame of it, as a café would, then
runs the real loop (reader, stabiliser, session, journal, screen) while simulated
players lay their tokens. Proposals confirm themselves after a countdown. Time is
simulated too (one frame is a tenth of a second), so a headless demo runs as fast as
the machine reads frames and its screens are the same on every run of one seed.
"""

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.app.camera import Camera, Watching
from companion.app.lineup import Lineup
from companion.app.loop import Loop
from companion.app.present import scorer_name
from companion.app.session import Session, Settings
from companion.app.states import Phase, SessionState
from companion.display.screen import DisplayMode, Screen
from companion.errors import CompanionError, LayoutError
from companion.journal import Journal
from companion.kit.layouts import Layout, load_layout
from companion.kit.tags import MODULES_ACROSS
from companion.rules import Ruleset, Seating
from companion.sim import CameraPose, Conditions, Scene
from companion.sim.players import DemoPlayers, Moment
from companion.sources.simulated import SimulatedTable
from companion.vision.calibration import calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import FrameReading, TableReader, TableWatcher, to_gray
from companion.vision.stabilise import Stabiliser

KIT = "DEMO1"
LAYOUT = "odyssey-12"
"""The 12-slot board: it holds every round of every ruleset."""
FRAME_SIZES = ((2304, 1296), (4608, 2592))
"""Camera Module 3 modes, the cheaper first: the demo takes the first that shows the
tokens at `PX_PER_MODULE` (the 12-slot board needs full resolution)."""
PX_PER_MODULE = 4.0
"""Pixels per QR module the demo's camera gives a token, at least."""
MARGIN = 1.04
"""Room around the board in the frame, as a share of its width."""
TILT_DEG = 6.0
"""How far the demo's camera leans: mounts are rarely quite level."""
CONDITIONS = Conditions(blur_sigma_px=0.8, noise_sigma=3.0, jpeg_quality=None)
FRAME_SECONDS = 0.1
"""Simulated time per frame: a camera at 10 frames a second."""
STUCK_FRAMES = 600
"""Frames without a round scored after which the demo gives up (a bug, not a table)."""
TIMINGS_KEPT = 1000
"""Frames whose reading time the median is taken over (the latest)."""
WINNER_FRAMES = 20
"""Frames the winner screen stays up before the demo ends."""
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lea")


@dataclass(frozen=True)
class DemoResult:
    """How a demo game went."""

    game_id: int
    """The game's number in the journal."""
    rounds: int
    """Rounds the game had at its end."""
    scored: int
    """Rounds scored in this run (fewer than `rounds` when a game was resumed)."""
    finished: bool
    """Whether the game reached its end (else it stopped after the rounds asked for)."""
    exact: int
    """Rounds the companion read exactly as the simulated players laid them."""
    mistakes: int
    """Misplaced dials the players made (and the companion caught)."""
    frames: int
    """Frames read."""
    reading_ms: float
    """Median time to read one frame, over the last `TIMINGS_KEPT` frames."""


class SimClock:
    """Simulated time: advances one frame at a time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def demo_pose(layout: Layout) -> CameraPose:
    """A camera just high enough to see the whole board, in the cheapest mode that
    still shows its tokens sharply enough."""
    width_mm, height_mm = layout.board_mm
    half = math.tan(math.radians(CameraPose.hfov_deg) / 2)
    poses = []
    for frame in FRAME_SIZES:
        seen_mm = max(width_mm, height_mm * frame[0] / frame[1]) * MARGIN
        px_per_module = frame[0] / seen_mm * layout.token_size_mm / MODULES_ACROSS
        pose = CameraPose(height_mm=seen_mm / 2 / half, tilt_deg=TILT_DEG, frame_px=frame)
        poses.append((px_per_module >= PX_PER_MODULE, pose))
    return next((pose for sharp, pose in poses if sharp), poses[-1][1])


def run_demo(
    ruleset: Ruleset,
    players: int,
    journal: Journal,
    mode: DisplayMode,
    *,
    layout_name: str = LAYOUT,
    resume: bool = False,
    seed: int = 1,
    out: Path | None = None,
    auto_confirm: float = 2.0,
    rounds: int | None = None,
    say: Callable[[str], None] = print,
    step: Callable[[Loop], None] = Loop.step,
) -> DemoResult:
    """Play one game of `ruleset` with `players` simulated players to the end (or
    for `rounds` rounds); with `resume`, go on with the journal's unfinished game if
    there is one. `step` runs one turn of the loop (a benchmark times it)."""
    rng = np.random.default_rng(seed)
    layout = load_layout(layout_name)
    most = max(len(ruleset.scoring.layers(Seating(NAMES[:players]), n)) for n in NAMES[:players])
    if most > len(layout.slots):
        raise LayoutError(
            f"{ruleset.name} with {players} players lays {most} cards a round; "
            f"the board {layout.name} has {len(layout.slots)} slots"
        )
    table = SimulatedTable(Scene(layout, KIT), demo_pose(layout), CONDITIONS, rng)
    calibration = calibrate(to_gray(table.read()), layout, make_decoder(), layout_name)
    reader = TableReader(calibration, layout, make_decoder())
    settings = Settings(tuple(s.slot for s in layout.slots), auto_confirm=auto_confirm)
    camera = Camera(lambda: table, TableWatcher(reader, Stabiliser()), layout, Watching(table))
    stored = journal.resume() if resume else None
    if stored is not None:
        session = Session.resumed(stored, journal, settings, camera.pictures)
        ruleset, players = session.state.game.ruleset, len(session.state.lineup.names)
    else:
        session = Session.new(
            ruleset, Lineup.parse(NAMES[:players]), journal, settings, camera.pictures
        )
    lineup = session.state.lineup
    clock = SimClock()
    screen = Screen(mode=mode)
    loop = Loop(session, screen, clock, camera)
    demo = DemoPlayers(table.lay, layout, KIT, lineup.colour_by_player, rng)
    again = f", going on with game {stored.id}" if stored is not None else ""
    say(f"demo: {ruleset.title}, {players} players, seed {seed}{again}")
    exact = frames_idle = snapshots = 0
    played_before = len(session.state.game.played)
    phase: Phase | None = None
    problem_shown = False
    shown_winner = 0
    timings: deque[float] = deque(maxlen=TIMINGS_KEPT)
    try:
        while shown_winner < WINNER_FRAMES and not loop.quit:
            state = session.state
            if rounds is not None and len(state.game.played) - played_before >= rounds:
                break
            started = time.perf_counter()
            demo.act(_moment(state.phase), state.game, state.game_id)
            played = len(state.game.played)
            step(loop)
            state = session.state
            latest = _latest_reading(camera)
            if latest is not None:
                timings.append(latest.elapsed_ms)
            if len(state.game.played) > played:
                exact += _report(state, demo, say)
                frames_idle = 0
            frames_idle += 1
            if frames_idle > STUCK_FRAMES:
                raise CompanionError(f"the demo made no progress for {STUCK_FRAMES} frames")
            problem = state.phase is Phase.WAITING and bool(
                state.table and state.table.report.problems
            )
            if state.phase is not phase or (problem and not problem_shown):
                phase = state.phase
                problem_shown = problem
                snapshots += 1
                if out is not None:
                    _snapshot(screen, out, snapshots, state, "-problem" if problem else "")
            if phase is Phase.WINNER and not state.hopping(clock.now):
                shown_winner += 1
            clock.now += FRAME_SECONDS
            if mode is not DisplayMode.HEADLESS:
                time.sleep(max(0.0, FRAME_SECONDS - (time.perf_counter() - started)))
        if out is not None:
            _snapshot(screen, out, snapshots + 1, session.state)
    finally:
        screen.close()
    game = session.state.game
    say("final totals: " + ", ".join(f"{name} {total}" for name, total in game.totals.items()))
    return DemoResult(
        game_id=session.state.game_id or 0,
        rounds=len(game.played),
        scored=len(game.played) - played_before,
        finished=game.outcome is not None,
        exact=exact,
        mistakes=demo.mistakes_made,
        frames=camera.state.frames,
        reading_ms=float(np.median(timings)) if timings else 0.0,
    )


def _moment(phase: Phase) -> Moment:
    """What the screen asks of the simulated players in `phase`."""
    match phase:
        case Phase.SETUP:
            return Moment.CHOOSING
        case Phase.WAITING | Phase.PROPOSAL:
            return Moment.LAYING
        case Phase.CLEARING | Phase.WINNER:
            return Moment.CLEARING
        case Phase.EDITING:
            return Moment.WATCHING


def _latest_reading(camera: Camera) -> FrameReading | None:
    """What the reader made of the frame just read, if the camera read one."""
    status = camera.state.status
    return status.latest.reading if isinstance(status, Watching) and status.latest else None


def _report(state: SessionState, demo: DemoPlayers, say: Callable[[str], None]) -> int:
    """Print the round just scored; 1 when it was read exactly as laid."""
    game = state.game
    last = game.played[-1]
    points = ", ".join(f"{scorer_name(game, s)} {d:+d}" for s, d in last.score.deltas.items())
    same = demo.truth is not None and last.score.round.reveal == demo.truth
    verdict = "read as laid" if same else "DIFFERS from what was laid"
    played = last.score.round
    say(f"round {played.number} ({played.storyteller} told): {points} - {verdict}")
    return int(same)


def _snapshot(screen: Screen, out: Path, index: int, state: SessionState, note: str = "") -> None:
    """Save the screen as it is now, named by order, round and phase."""
    out.mkdir(parents=True, exist_ok=True)
    game = state.game
    number = game.round_number if game.outcome is None else len(game.played)
    screen.save_png(out / f"{index:03d}-round-{number:02d}-{state.phase.value}{note}.png")
