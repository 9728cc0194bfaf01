"""The whole companion on a simulated table: setup to winner, with no hardware.

The demo calibrates the simulated board from a frame of it, as a café would, then
builds the table as `companion play` does (`companion.runtime.build.build_table`:
reader, stabiliser, session, journal, screen, loop), its camera the simulated table,
while a simulated group sets up its game on the table's screens, as a group sitting
down does (`companion.demo.group`), then plays it, laying its tokens. Proposals
confirm themselves after a countdown. Time is simulated too (one frame is a tenth of
a second), so a headless demo runs as fast as the machine reads frames and its
screens are the same on every run of one seed.
"""

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from companion.closing import Closing
from companion.demo.camera import KIT, calibrated, demo_pose
from companion.demo.group import NAMES, Group, leaves_list, make_move, moment, setup_move
from companion.display.screen import DisplayMode, Screen
from companion.errors import CompanionError, LayoutError
from companion.kit.layouts import Layout, load_layout
from companion.language import Language
from companion.rules import Ruleset, Seating
from companion.runtime.build import Sight, Table, build_table
from companion.runtime.camera import Camera, Watching
from companion.runtime.config import CameraConfig, GameConfig, TableConfig, Wiring
from companion.runtime.loop import Loop
from companion.session.states import Phase, SessionState
from companion.sim import LENSES, Look, Scene, SimLens
from companion.sim.looks import CAFE
from companion.sim.players import DemoPlayers
from companion.sources.registry import NO_SOURCE
from companion.sources.simulated import SimulatedTable
from companion.view.present import scorer_name
from companion.vision.pipeline import FrameReading

LAYOUT = "odyssey-12"
"""The 12-slot board: it holds every round of every ruleset."""
FRAME_SECONDS = 0.1
"""Simulated time per frame: a camera at 10 frames a second."""
STUCK_FRAMES = 600
"""Frames without a round scored after which the demo gives up (a bug, not a table)."""
TIMINGS_KEPT = 1000
"""Frames whose reading time the median is taken over (the latest)."""
WINNER_FRAMES = 20
"""Frames the winner screen stays up before the demo ends."""
PRESS_FRAMES = 5
"""Frames the group looks at a setup screen before its next touch (or name typed):
every screen is seen, and saved, before it changes."""
DEFAULT_AUTO_CONFIRM = 2.0
"""Seconds a demo's proposal waits before it confirms itself, when not told."""


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
    setup_seconds: float
    """Simulated seconds the group took to set the game up (0 for a game resumed)."""
    first_round_after_setup_s: float | None
    """Real seconds from the setup's end (the game's start) to the first round scored;
    None for a game resumed, or when no round was scored."""


@dataclass(frozen=True)
class DemoGame:
    """The game a demo plays, and how: what only a demo has (a table's own settings are
    its `TableConfig`)."""

    ruleset: Ruleset
    """The edition the group picks, with the options it plays by."""
    players: int
    """How many sit down."""
    language: Language = Language.ENGLISH
    """The language the group picks at the first step."""
    layout: str = LAYOUT
    """The board: a layout name or file."""
    seed: int = 1
    """The random seed of the table and the players."""
    rounds: int | None = None
    """Rounds after which the game stops; None plays it to the end."""
    out: Path | None = None
    """Where a PNG of the screen at each phase is saved; None saves none."""
    speed: float | None = None
    """Simulated seconds per real second; None: as fast as the machine goes headless,
    real time in a window."""
    stay: bool = False
    """Keep the table up after the game (or its `rounds`), the group's hands off it,
    until the loop is stopped."""
    phone_names: bool = False
    """The group leaves its names to be typed on the phone page."""
    names: tuple[str, ...] | None = None
    """The names the group types, in seat order, one per player; None: the first
    `players` of Ann, Ben, Cleo…"""
    lens: SimLens = LENSES["standard"]
    """The camera over the simulated table."""
    look: Look = CAFE
    """Its light and tokens."""


class SimClock:
    """Simulated time: advances one frame at a time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def demo_config(
    journal: Path,
    *,
    auto_confirm: float | None = DEFAULT_AUTO_CONFIRM,
    resume: bool = False,
    display: DisplayMode = DisplayMode.HEADLESS,
    wiring: Wiring | None = None,
) -> TableConfig:
    """A demo table's configuration: no camera of its own (the demo gives its simulated
    table), no buttons or light unless asked, the journal's unfinished game set aside
    for a new one unless it is to `resume`. Its phone page is the caller's (`page`,
    `serve` of `run_demo`)."""
    return TableConfig(
        camera=CameraConfig(NO_SOURCE),
        journal=journal,
        wiring=wiring or Wiring(None, None),
        game=GameConfig(new_game=not resume, auto_confirm=auto_confirm),
        display=display,
        web=None,
    )


def run_demo(
    config: TableConfig,
    game: DemoGame,
    *,
    say: Callable[[str], None] = print,
    step: Callable[[Loop], None] = Loop.step,
    page: Callable[[], str | None] | None = None,
    serve: Callable[[Loop], Closing | None] | None = None,
) -> DemoResult:
    """Build the table `config` describes over a simulated one, let the group of `game`
    set up its game on the table's screens, then play it to the end (or for its
    `rounds`); unless `config` asks for a new game, go on with the journal's
    unfinished game, or the setup it kept, if there is one.

    `say` hears the progress, `step` runs one turn of the loop (a benchmark times it).
    `page` is the phone page's address (shown as a QR code) and `serve` starts what
    goes with the loop (its server; the command line's stop on Ctrl-C)."""
    rng = np.random.default_rng(game.seed)
    layout = load_layout(game.layout)
    _check_board(game, layout)
    look = game.look
    table = SimulatedTable(
        Scene(layout, KIT, disc=look.disc), demo_pose(layout, game.lens), look.conditions, rng
    )
    sight = Sight(lambda: table, calibrated(table, layout, game.layout), layout)
    group = Group.of(game.language, game.ruleset, game.players, game.names)
    kept = replace(config.game, setup=group.kept(config.game.language))
    clock = SimClock()
    with build_table(
        replace(config, game=kept),
        sight,
        say=lambda line: say(f"demo: {line}"),
        clock=clock,
        page=page,
        serve=serve,
    ) as built:
        state = built.session.state
        colours = group.colours
        if built.resumed is not None:
            colours = state.lineup.colour_by_player
            say(
                f"demo: {state.game.ruleset.title}, {len(colours)} players, seed {game.seed}, "
                f"going on with game {built.resumed}"
            )
        else:
            say(
                f"demo: {game.ruleset.title}, {game.players} players, "
                f"language {game.language.value}, seed {game.seed}"
            )
        players = DemoPlayers(table.lay, layout, KIT, colours, rng, look=look)
        run = _Run(built, game, group, players, clock, say)
        run.play(step)
        result = run.result()
    state = built.session.state
    if state.game_id is not None:  # none when stopped before the group set one up
        totals = state.game.totals.items()
        say("final totals: " + ", ".join(f"{n} {total}" for n, total in totals))
    return result


def _check_board(game: DemoGame, layout: Layout) -> None:
    """Refuse a board with fewer slots than the game lays cards in a round."""
    names = NAMES[: game.players]
    most = max(len(game.ruleset.scoring.layers(Seating(names), n)) for n in names)
    if most > len(layout.slots):
        raise LayoutError(
            f"{game.ruleset.name} with {game.players} players lays {most} cards a round; "
            f"the board {layout.name} has {len(layout.slots)} slots"
        )


class _Run:
    """A demo game in progress: the table, the group at it, what was seen so far."""

    def __init__(
        self,
        table: Table,
        game: DemoGame,
        group: Group,
        players: DemoPlayers,
        clock: SimClock,
        say: Callable[[str], None],
    ) -> None:
        self.table = table
        self.game = game
        self.group = group
        self.players = players
        self.clock = clock
        self.say = say
        self.pace = _pace(table.screen.mode, game.speed)
        self.played_before = len(table.session.state.game.played)
        self.set_up = table.resumed is not None
        self.exact = self.frames_idle = self.snapshots = self.waited = self.shown_winner = 0
        self.setup_seconds = 0.0
        self.playing_since: float | None = None
        self.first_round: float | None = None
        self.phase: Phase | None = None
        self.problem_shown = False
        self.timings: deque[float] = deque(maxlen=TIMINGS_KEPT)

    def play(self, step: Callable[[Loop], None]) -> None:
        """Turns of the loop, the group acting before each, until the game (or its
        rounds) is over and the winner shown, unless asked to stay, or the loop stops."""
        loop = self.table.loop
        while (self.game.stay or self.shown_winner < WINNER_FRAMES) and not loop.quit:
            state = self.table.session.state
            rounds = self.game.rounds
            done = rounds is not None and len(state.game.played) - self.played_before >= rounds
            if done and not self.game.stay:
                break
            started = time.perf_counter()
            self._act(state, done)
            played = len(state.game.played)
            step(loop)
            self._look(self.table.session.state, played, done)
            self.clock.now += FRAME_SECONDS
            kept_up = done or (self.game.stay and self.phase is Phase.WINNER)  # no hurry
            wait = max(self.pace, FRAME_SECONDS) if kept_up else self.pace
            if wait:
                time.sleep(max(0.0, wait - (time.perf_counter() - started)))
        self._snapshot(self.table.session.state)

    def _act(self, state: SessionState, done: bool) -> None:
        """The group's touch at a setup step, once it has looked at it, and the
        players' hands on the table (left alone once the rounds asked for are played)."""
        self.waited += 1
        if state.setting_up and self.waited >= PRESS_FRAMES:
            move = setup_move(state, self.group, phone_names=self.game.phone_names)
            if move is not None:
                self.waited = 0
                if leaves_list(state, move):
                    self._snapshot(state, "-done")
                make_move(move, self.table.loop, self.clock.now)
        if not done:
            self.players.act(moment(state.phase), state.game, state.game_id)

    def _look(self, state: SessionState, played: int, done: bool) -> None:
        """What the turn did: the game set up, a round scored, a new phase (saved)."""
        if not self.set_up and state.game_id is not None and not state.setting_up:
            self.set_up = True
            self.players.colours = dict(state.lineup.colour_by_player)  # names from a phone
            self.playing_since = time.perf_counter()
            self.setup_seconds = self.clock.now
            self.say(
                f"demo: game {state.game_id} set up in {self.setup_seconds:.1f} simulated "
                f"seconds: {', '.join(state.lineup.names)}; "
                f"{state.game.first_storyteller} tells first"
            )
        latest = _latest_reading(self.table.camera)
        if latest is not None:
            self.timings.append(latest.elapsed_ms)
        if len(state.game.played) > played:
            self.exact += _report(state, self.players, self.say)
            self.frames_idle = 0
            if self.first_round is None and self.playing_since is not None:
                self.first_round = time.perf_counter() - self.playing_since
        names_awaited = self.game.phone_names and state.phase is Phase.NAMES
        waits = done or state.phase is Phase.WINNER or names_awaited
        self.frames_idle = 0 if waits else self.frames_idle + 1
        if self.frames_idle > STUCK_FRAMES:
            raise CompanionError(f"the demo made no progress for {STUCK_FRAMES} frames")
        report = state.table.report if state.table else None
        problem = state.phase is Phase.WAITING and bool(report and report.problems)
        if state.phase is not self.phase or (problem and not self.problem_shown):
            if state.phase is not self.phase:
                self.waited = 0
                self.frames_idle = 0 if state.setting_up else self.frames_idle
            self.phase = state.phase
            self.problem_shown = problem
            self._snapshot(state, "-problem" if problem else "")
        if self.phase is Phase.WINNER and not state.hopping(self.clock.now):
            self.shown_winner += 1

    def _snapshot(self, state: SessionState, note: str = "") -> None:
        """Count a screen worth saving, and save it when asked to."""
        self.snapshots += 1
        if self.game.out is not None:
            _snapshot(self.table.screen, self.game.out, self.snapshots, state, note)

    def result(self) -> DemoResult:
        """How the game went."""
        state = self.table.session.state
        game = state.game
        camera = self.table.camera
        return DemoResult(
            game_id=state.game_id or 0,
            rounds=len(game.played),
            scored=len(game.played) - self.played_before,
            finished=game.outcome is not None,
            exact=self.exact,
            mistakes=self.players.mistakes_made,
            frames=camera.state.frames if camera is not None else 0,
            reading_ms=float(np.median(self.timings)) if self.timings else 0.0,
            setup_seconds=self.setup_seconds,
            first_round_after_setup_s=self.first_round,
        )


def _pace(mode: DisplayMode, speed: float | None) -> float:
    """Real seconds per frame: none headless (as fast as it goes), a frame's own time
    in a window, or as `speed` asks."""
    if speed is not None:
        return FRAME_SECONDS / speed
    return 0.0 if mode is DisplayMode.HEADLESS else FRAME_SECONDS


def _latest_reading(camera: Camera | None) -> FrameReading | None:
    """What the reader made of the frame just read, if the camera read one."""
    status = camera.state.status if camera is not None else None
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
    """Save the screen as it is now, named by order, round (once the game started) and
    phase."""
    out.mkdir(parents=True, exist_ok=True)
    if state.setting_up:
        screen.save_png(out / f"{index:03d}-{state.phase.value}{note}.png")
        return
    game = state.game
    number = game.round_number if game.outcome is None else len(game.played)
    screen.save_png(out / f"{index:03d}-round-{number:02d}-{state.phase.value}{note}.png")
