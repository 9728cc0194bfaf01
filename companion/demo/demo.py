"""The whole companion on a simulated table: setup to winner, with no hardware.

The demo calibrates the simulated board from a frame of it, as a café would, then
runs the real loop (reader, stabiliser, session, journal, screen) while a simulated
group sets up its game on the table's screens, as a group sitting down does (a touch
for the language and the edition, owner tokens laid on cards for the seats, names
typed on a phone), then plays it, laying its tokens. Proposals confirm themselves
after a countdown. Time is simulated too (one frame is a tenth of a second), so a
headless demo runs as fast as the machine reads frames and its screens are the same
on every run of one seed.
"""

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.actions import Action, Press
from companion.closing import Closing
from companion.display.screen import DisplayMode, Screen
from companion.errors import CompanionError, LayoutError
from companion.journal import Journal
from companion.journal.checkpoint import Checkpointer
from companion.kit.layouts import Layout, load_layout
from companion.language import Language
from companion.rules import OPTION_NAMES, Ruleset, Seating, find_ruleset
from companion.runtime.camera import Camera, Watching
from companion.runtime.housekeeping import Housekeeper
from companion.runtime.loop import Loop
from companion.session.draft import KIT_COLOURS, Draft
from companion.session.session import Session, Settings
from companion.session.setup import EDITIONS, LANGUAGES, OPTIONS, STEP_NAMES
from companion.session.states import Phase, PickingLanguage, SessionState, TakingSeats
from companion.sim import LENSES, CameraPose, Look, Scene, SimLens
from companion.sim.looks import CAFE
from companion.sim.players import DemoPlayers, Moment
from companion.sources.simulated import SimulatedTable
from companion.view.present import scorer_name
from companion.vision.calibration import Calibration, calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import FrameReading, TableReader, TableWatcher, to_gray
from companion.vision.stabilise import Stabiliser

KIT = "DEMO1"
LAYOUT = "odyssey-12"
"""The 12-slot board: it holds every round of every ruleset."""
MODES = (2, 1)
"""The camera's frame sizes, as fractions of its full size, the cheaper first: the
demo reads the first that shows a token in the board's middle at `PX_PER_MODULE` (the
12-slot board needs the full size)."""
PX_PER_MODULE = 3.8
"""Pixels per QR module the demo's camera gives a token in the board's middle, at
least: a little under the 4 the hardware guide asks of a café's camera (which must
hold in every light), enough for the demo's table, and it lets the tests' small board
be read at a quarter of the pixels."""
MARGIN = 0.02
"""Room kept round the board in the frame, as a share of its size on each side: the
simulated board is never pushed out of view."""
TILT_DEG = 6.0
"""How far the demo's camera leans: mounts are rarely quite level."""
FRAME_SECONDS = 0.1
"""Simulated time per frame: a camera at 10 frames a second."""
STUCK_FRAMES = 600
"""Frames without a round scored after which the demo gives up (a bug, not a table)."""
TIMINGS_KEPT = 1000
"""Frames whose reading time the median is taken over (the latest)."""
WINNER_FRAMES = 20
"""Frames the winner screen stays up before the demo ends."""
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lea")
"""The names the group types for its seats, in seat order."""
PRESS_FRAMES = 5
"""Frames the group looks at a setup screen before its next touch (or name typed):
every screen is seen, and saved, before it changes."""
SETUP_STEPS = (
    Phase.LANGUAGE,
    Phase.EDITION,
    Phase.SEATS,
    Phase.NAMES,
    Phase.OPTIONS,
    Phase.SETUP,
)
"""The setup steps in the order they come."""

CAMERA_SETTLE_FRAMES = 3
"""Frames read from the simulated camera before the one calibrated on: its focus and
exposure hunting (three frames at most in the named looks) is over by then, as a
café's camera has settled before `companion calibrate --source` takes its frame."""


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
class Group:
    """The game the simulated group sets up."""

    language: Language
    """The language it touches at the first step."""
    ruleset: Ruleset
    """The edition it touches, with the options it plays by."""
    seats: tuple[str, ...]
    """Its kit colours in seat order (the slot each owner token is laid on)."""
    names: tuple[str, ...]
    """The names it types, in seat order."""

    @classmethod
    def of(cls, language: Language, ruleset: Ruleset, players: int) -> "Group":
        """`players` players with the first kit colours and the first `NAMES`."""
        return cls(language, ruleset, KIT_COLOURS[:players], NAMES[:players])

    @property
    def colours(self) -> dict[str, str]:
        """Each player's kit colour, in seat order."""
        return dict(zip(self.names, self.seats, strict=True))

    def kept(self, language: Language) -> Draft:
        """The draft a fresh setup starts from: the table's language, and the edition
        with the group's options (the options page offers only some values, and a
        benchmark plays a game without end)."""
        base = find_ruleset(self.ruleset.name)
        options = tuple(
            sorted(
                (name, getattr(self.ruleset, name))
                for name in OPTION_NAMES
                if getattr(self.ruleset, name) != getattr(base, name)
            )
        )
        return Draft(language=language, ruleset=self.ruleset.name, options=options)


@dataclass(frozen=True)
class Typed:
    """A name typed on a phone for a seat."""

    colour: str
    """The seat's kit colour."""
    name: str
    """The name."""


class SimClock:
    """Simulated time: advances one frame at a time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def calibrated(table: SimulatedTable, layout: Layout, layout_name: str) -> Calibration:
    """The calibration a café makes: a frame of the empty board, the camera settled."""
    for _ in range(CAMERA_SETTLE_FRAMES):
        table.read()
    return calibrate(to_gray(table.read()), layout, make_decoder(), layout_name)


def demo_pose(layout: Layout, lens: SimLens = LENSES["standard"]) -> CameraPose:
    """The camera just high enough to see the whole board, read in the cheapest mode
    that still shows a token in the board's middle sharply enough."""
    middle = (layout.board_mm[0] / 2, layout.board_mm[1] / 2)
    poses = []
    for fraction in MODES:
        width, height = lens.frame_px
        mode = lens.in_mode((width // fraction, height // fraction))
        pose = mode.over(layout, tilt_deg=TILT_DEG, margin=MARGIN)
        sharp = pose.px_per_module(layout.board_mm, middle, layout.token_size_mm)
        poses.append((sharp >= PX_PER_MODULE, pose))
    return next((pose for sharp, pose in poses if sharp), poses[-1][1])


def run_demo(
    ruleset: Ruleset,
    players: int,
    journal: Journal,
    mode: DisplayMode,
    *,
    layout_name: str = LAYOUT,
    language: Language = Language.ENGLISH,
    resume: bool = False,
    seed: int = 1,
    out: Path | None = None,
    auto_confirm: float = 2.0,
    rounds: int | None = None,
    say: Callable[[str], None] = print,
    step: Callable[[Loop], None] = Loop.step,
    page: Callable[[], str | None] | None = None,
    serve: Callable[[Loop], Closing | None] | None = None,
    speed: float | None = None,
    stay: bool = False,
    phone_names: bool = False,
    lens: SimLens = LENSES["standard"],
    look: Look = CAFE,
) -> DemoResult:
    """Set up a game of `ruleset` for `players` simulated players speaking `language`
    on the table's screens, then play it to the end (or for `rounds` rounds); with
    `resume`, go on with the journal's unfinished game, or the setup it kept, if there
    is one. `step` runs one turn of the loop (a benchmark times it).

    `page` is the phone page's address (shown as a QR code) and `serve` starts what
    goes with the loop (its server; the command line's stop on Ctrl-C). `speed` is
    simulated seconds per real second (default: as fast as the machine goes headless,
    real time in a window). With `stay` the table stays up after the game (or its
    `rounds`), the group's hands off it, until the loop is stopped; with `phone_names`
    the group leaves its names to be typed on the phone page. `lens` is the camera
    over the simulated table and `look` its light and tokens."""
    rng = np.random.default_rng(seed)
    layout = load_layout(layout_name)
    most = max(len(ruleset.scoring.layers(Seating(NAMES[:players]), n)) for n in NAMES[:players])
    if most > len(layout.slots):
        raise LayoutError(
            f"{ruleset.name} with {players} players lays {most} cards a round; "
            f"the board {layout.name} has {len(layout.slots)} slots"
        )
    scene = Scene(layout, KIT, disc=look.disc)
    table = SimulatedTable(scene, demo_pose(layout, lens), look.conditions, rng)
    calibration = calibrated(table, layout, layout_name)
    reader = TableReader(calibration, layout, make_decoder())
    settings = Settings(tuple(s.slot for s in layout.slots), auto_confirm=auto_confirm)
    camera = Camera(lambda: table, TableWatcher(reader, Stabiliser()), layout, Watching(table))
    group = Group.of(language, ruleset, players)
    stored = journal.resume() if resume else None
    if stored is not None:
        session = Session.resumed(stored, journal, settings, camera.pictures)
        ruleset, players = session.state.game.ruleset, len(session.state.lineup.names)
        colours = session.state.lineup.colour_by_player
        again = f"going on with game {stored.id}"
        say(f"demo: {ruleset.title}, {players} players, seed {seed}, {again}")
    else:
        if not resume:
            journal.save_setup(
                STEP_NAMES[PickingLanguage], group.kept(settings.language).document()
            )
        session = Session.setting_up(journal, settings, camera.pictures)
        colours = group.colours
        say(f"demo: {ruleset.title}, {players} players, language {language.value}, seed {seed}")
    clock = SimClock()
    screen = Screen(mode=mode)
    loop = Loop(session, screen, clock, camera, page=page, housekeeper=Housekeeper(journal))
    server: Closing | None = None
    pace = _pace(mode, speed)
    demo = DemoPlayers(table.lay, layout, KIT, colours, rng, look=look)
    exact = frames_idle = snapshots = waited = 0
    played_before = len(session.state.game.played)
    setup_seconds = 0.0
    set_up = stored is not None
    playing_since: float | None = None
    first_round: float | None = None
    phase: Phase | None = None
    problem_shown = False
    shown_winner = 0
    timings: deque[float] = deque(maxlen=TIMINGS_KEPT)
    checkpoints = Checkpointer(journal.path)
    try:
        server = serve(loop) if serve is not None else None
        while (stay or shown_winner < WINNER_FRAMES) and not loop.quit:
            state = session.state
            done = rounds is not None and len(state.game.played) - played_before >= rounds
            if done and not stay:
                break
            started = time.perf_counter()
            waited += 1
            if state.setting_up and waited >= PRESS_FRAMES:
                move = setup_move(state, group, phone_names=phone_names)
                if move is not None:
                    waited = 0
                    if out is not None and _leaves_list(state, move):
                        snapshots += 1
                        _snapshot(screen, out, snapshots, state, "-done")
                    _make(move, loop, clock.now)
            if not done:  # a table kept up after its last round is left alone
                demo.act(_moment(state.phase), state.game, state.game_id)
            played = len(state.game.played)
            step(loop)
            state = session.state
            if not set_up and state.game_id is not None and not state.setting_up:
                set_up = True
                demo.colours = dict(state.lineup.colour_by_player)  # names typed on a phone
                playing_since = time.perf_counter()
                setup_seconds = clock.now
                first = state.game.first_storyteller
                say(
                    f"demo: game {state.game_id} set up in {setup_seconds:.1f} simulated seconds: "
                    f"{', '.join(state.lineup.names)}; {first} tells first"
                )
            latest = _latest_reading(camera)
            if latest is not None:
                timings.append(latest.elapsed_ms)
            if len(state.game.played) > played:
                exact += _report(state, demo, say)
                frames_idle = 0
                if first_round is None and playing_since is not None:
                    first_round = time.perf_counter() - playing_since
            waits = (
                done or state.phase is Phase.WINNER or (phone_names and state.phase is Phase.NAMES)
            )
            frames_idle = 0 if waits else frames_idle + 1
            if frames_idle > STUCK_FRAMES:
                raise CompanionError(f"the demo made no progress for {STUCK_FRAMES} frames")
            problem = state.phase is Phase.WAITING and bool(
                state.table and state.table.report.problems
            )
            if state.phase is not phase or (problem and not problem_shown):
                if state.phase is not phase:
                    waited = 0
                    frames_idle = 0 if state.setting_up else frames_idle
                phase = state.phase
                problem_shown = problem
                snapshots += 1
                if out is not None:
                    _snapshot(screen, out, snapshots, state, "-problem" if problem else "")
            if phase is Phase.WINNER and not state.hopping(clock.now):
                shown_winner += 1
            clock.now += FRAME_SECONDS
            kept_up = done or (stay and phase is Phase.WINNER)  # no hurry: a frame's own time
            wait = max(pace, FRAME_SECONDS) if kept_up else pace
            if wait:
                time.sleep(max(0.0, wait - (time.perf_counter() - started)))
        if out is not None:
            _snapshot(screen, out, snapshots + 1, session.state)
    finally:
        checkpoints.close()
        if server is not None:
            server.close()
        screen.close()
    game = session.state.game
    if session.state.game_id is not None:  # none when stopped before the group set one up
        say("final totals: " + ", ".join(f"{n} {total}" for n, total in game.totals.items()))
    return DemoResult(
        game_id=session.state.game_id or 0,
        rounds=len(game.played),
        scored=len(game.played) - played_before,
        finished=game.outcome is not None,
        exact=exact,
        mistakes=demo.mistakes_made,
        frames=camera.state.frames,
        reading_ms=float(np.median(timings)) if timings else 0.0,
        setup_seconds=setup_seconds,
        first_round_after_setup_s=first_round,
    )


def setup_move(
    state: SessionState, group: Group, *, phone_names: bool = False
) -> Press | Typed | None:
    """The group's next touch at the setup step on the screen, or the next name it
    types; None while it waits for the table (its tokens to be read, or with
    `phone_names` every seat to be named on the phone page). A step set up otherwise
    than the group wants (a setup the journal kept) is gone back to."""
    draft, at = state.draft, state.at
    right = (
        draft.language is group.language,
        draft.ruleset == group.ruleset.name,
        draft.seats == group.seats,
        phone_names or dict(draft.names) == dict(zip(group.seats, group.names, strict=True)),
        all(draft.option(name) == getattr(group.ruleset, name) for name in OPTION_NAMES),
    )
    wrong = right.index(False) if False in right else len(right)
    if SETUP_STEPS.index(state.phase) > wrong:
        return Press(Action.BACK)
    match state.phase:
        case Phase.LANGUAGE:
            return Press(Action.PICK, LANGUAGES.index(group.language))
        case Phase.EDITION:
            return Press(Action.PICK, EDITIONS.index(group.ruleset.name))
        case Phase.SEATS:
            ready = right[2] and isinstance(at, TakingSeats) and not at.problems
            return Press(Action.PICK, len(KIT_COLOURS)) if ready else None
        case Phase.NAMES if phone_names:
            named = all(colour in dict(draft.names) for colour in draft.seats)
            return Press(Action.PICK, len(draft.seats)) if named else None
        case Phase.NAMES:
            given = dict(draft.names)
            for colour, name in zip(group.seats, group.names, strict=True):
                if given.get(colour) != name:
                    return Typed(colour, name)
            return Press(Action.PICK, len(draft.seats))
        case Phase.OPTIONS if right[4]:
            return Press(Action.PICK, len(OPTIONS))
        case Phase.OPTIONS:
            raise CompanionError(
                f"the setup kept in the journal plays {draft.rules.name} with other options "
                "than the demo's: run the demo without --resume"
            )
        case _:
            return None


def _pace(mode: DisplayMode, speed: float | None) -> float:
    """Real seconds per frame: none headless (as fast as it goes), a frame's own time
    in a window, or as `speed` asks."""
    if speed is not None:
        return FRAME_SECONDS / speed
    return 0.0 if mode is DisplayMode.HEADLESS else FRAME_SECONDS


def _make(move: Press | Typed, loop: Loop, now: float) -> None:
    """Hand the group's move to the table: a touch goes through the loop, where real
    touches go; a name typed on a phone, straight to the session."""
    if isinstance(move, Typed):
        loop.session.name(move.colour, move.name, now)
    else:
        loop.post(move)


def _leaves_list(state: SessionState, move: Press | Typed) -> bool:
    """Whether `move` leaves the seats or names step: its screen, filled, is saved."""
    return isinstance(move, Press) and state.phase in (Phase.SEATS, Phase.NAMES)


def _moment(phase: Phase) -> Moment:
    """What the screen asks of the simulated players in `phase`."""
    match phase:
        case Phase.SEATS:
            return Moment.SEATING
        case Phase.NAMES | Phase.OPTIONS:
            return Moment.CLEARING
        case Phase.SETUP:
            return Moment.CHOOSING
        case Phase.WAITING | Phase.PROPOSAL:
            return Moment.LAYING
        case Phase.CLEARING | Phase.WINNER:
            return Moment.CLEARING
        case Phase.LANGUAGE | Phase.EDITION | Phase.EDITING | Phase.ABANDONING:
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
    """Save the screen as it is now, named by order, round (once the game started) and
    phase."""
    out.mkdir(parents=True, exist_ok=True)
    if state.setting_up:
        screen.save_png(out / f"{index:03d}-{state.phase.value}{note}.png")
        return
    game = state.game
    number = game.round_number if game.outcome is None else len(game.played)
    screen.save_png(out / f"{index:03d}-round-{number:02d}-{state.phase.value}{note}.png")
