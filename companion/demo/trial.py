"""Trials of the table reader on simulated café tables, round after round.

A trial is what a café would see if it played: the board calibrated once from the
empty table, then bumped; the demo's players laying each round in stages, hands
passing, now and then a dial on the wrong card that they move; every frame read by
the reader and the stabiliser exactly as the game loop reads them; and, once the
table has held still, what the loop would do: propose a score (right or wrong, against
what the players laid), or hold it back and say why on the screen. The benchmarks
measure lenses and café conditions with it, and the tests hold the reader to it.
"""

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numpy as np

from companion.colours import COLOURS
from companion.demo.camera import KIT, calibrated
from companion.demo.group import NAMES
from companion.kit.layouts import Layout, load_layout
from companion.kit.tags import parse_tag
from companion.rules import Game, Ruleset
from companion.session.lineup import Lineup
from companion.session.table import TableReport, read_table
from companion.sim import CameraPose, Lay, Look, Scene, SimLens
from companion.sim.players import DemoPlayers, Moment
from companion.sources.simulated import SimulatedTable
from companion.vision.decode import make_decoder
from companion.vision.pipeline import FrameReading, TableReader, TableWatcher
from companion.vision.stabilise import Settled, Stabiliser

SETTLE_LIMIT = 30
"""Frames the trial waits, once the last token is down, for the table to be scored;
a round not scored by then is held back (three seconds at 10 frames a second, longer
than the stabiliser takes to settle the last token and to give up one that stays
hidden, and shorter than the demo's players take to read the screen and tidy up)."""
CLEARING_FRAMES = 3
"""Frames of the empty table between rounds."""
MISTAKES = 0.3
"""Share of rounds in which a player first lays a dial where it does not belong."""


class Outcome(enum.Enum):
    """What the table did with a round once it held still."""

    EXACT = "scored exactly as laid"
    NAMED = "held back, naming the token it cannot see"
    UNNAMED = "held back without naming a token it cannot see"
    WRONG = "a score proposed that is not what was laid"


@dataclass(frozen=True)
class Bump:
    """How far the board was pushed after calibration, under a camera that stayed."""

    offset_mm: tuple[float, float] = (14.0, -9.0)
    """How far the board's centre moved, in millimetres."""
    turn_deg: float = 1.5
    """How far it turned."""


@dataclass(frozen=True)
class Setting:
    """The table a trial plays at: its camera, its look, its board."""

    lens: SimLens
    """The camera."""
    look: Look
    """Its light, the camera's habits, the tokens and how they are laid."""
    layout: str = "odyssey-12"
    """The board."""
    tilt_deg: float = 5.0
    """How far the camera leans."""
    bump: Bump = Bump()
    """How far the board moved between calibration and play."""

    def poses(self, layout: Layout) -> tuple[CameraPose, CameraPose]:
        """The camera over the board as calibrated, and over the board bumped."""
        calibrated = self.lens.over(layout, tilt_deg=self.tilt_deg)
        bumped = replace(
            calibrated,
            offset_mm=(-self.bump.offset_mm[0], -self.bump.offset_mm[1]),
            yaw_deg=calibrated.yaw_deg + self.bump.turn_deg,
        )
        return calibrated, bumped


@dataclass(frozen=True)
class RoundTrial:
    """What one round showed about the reader."""

    case: str
    """Ruleset, players and round."""
    visible: int
    """Kit tokens fully visible (whole in the frame, nothing over them), summed over the
    frames of the laid table."""
    read: int
    """How many of those the single frames read, in the right slot."""
    false_tags: tuple[str, ...]
    """Kit tags a frame reported that it did not show, or in a wrong slot."""
    outcome: Outcome
    """What the table did with the round."""
    hidden: tuple[str, ...]
    """Tokens no frame of the still table showed whole: truly hidden (covered, or
    washed out), named by the players' words."""
    screen: tuple[str, ...]
    """What the screen said while it held the round back (English)."""
    reading_ms: tuple[float, ...]
    """Time the reader took on each frame."""


class Trial:
    """A simulated café table, calibrated, played round after round."""

    def __init__(self, setting: Setting, seed: int) -> None:
        self.setting = setting
        self.rng = np.random.default_rng(seed)
        self.layout = load_layout(setting.layout)
        look = setting.look
        at_calibration, bumped = setting.poses(self.layout)
        empty = Scene(self.layout, KIT, disc=look.disc)
        self.calibration = calibrated(
            SimulatedTable(empty, at_calibration, look.conditions, self.rng),
            self.layout,
            setting.layout,
        )
        self.table = SimulatedTable(empty, bumped, look.conditions, self.rng)
        self.reader = TableReader(self.calibration, self.layout, make_decoder())

    def play(self, ruleset: Ruleset, players: int, rounds: int, case: str = "") -> list[RoundTrial]:
        """`rounds` rounds of `ruleset` for `players` players (or fewer, if the game
        ends first)."""
        names = NAMES[:players]
        lineup = Lineup(names, tuple(c.name for c in COLOURS[:players]))
        game = Game.start(ruleset, list(names), names[int(self.rng.integers(players))])
        group = DemoPlayers(
            self.table.lay,
            self.layout,
            KIT,
            lineup.colour_by_player,
            self.rng,
            mistakes=MISTAKES,
            look=self.setting.look,
        )
        played = []
        for number in range(rounds):
            if game.outcome is not None:
                break
            played.append(self._round(game, lineup, group, f"{case} round {number + 1}"))
            assert group.truth is not None
            game = game.play(group.truth)
        return played

    def _round(self, game: Game, lineup: Lineup, group: DemoPlayers, case: str) -> RoundTrial:
        watcher = TableWatcher(self.reader, Stabiliser())
        for _ in range(CLEARING_FRAMES):
            self.table.lay(Lay(Scene(self.layout, KIT, disc=self.setting.look.disc)))
            watcher.push(self.table.read())
        watcher.stabiliser.clear()
        tally = _Tally()
        frames_after = 0
        group.act(Moment.LAYING, game, 0)
        while True:
            reading, settled = watcher.push(self.table.read())
            laid_out = group.laid_out
            tally.add(reading, self.table, self.layout, laid_out and self.table.laid.hands == 0)
            if laid_out:
                frames_after += 1
                report = read_table(settled.observation, game, lineup)
                if _proposed(settled, report) or frames_after >= SETTLE_LIMIT:
                    break
            group.act(Moment.LAYING, game, 0)
        assert group.truth is not None
        covered = {c.text for c in settled.observation.covered}
        read = set(watcher.stabiliser.look_again()) - covered
        unread = [t for t in tally.hidden() if t not in read]
        return tally.round(case, _outcome(report, settled, group, lineup, unread))


class _Tally:
    """What the single frames of a round showed."""

    def __init__(self) -> None:
        self.visible = 0
        self.read = 0
        self.false: list[str] = []
        self.ms: list[float] = []
        self._shown: dict[str, bool] = {}

    def add(
        self, reading: FrameReading, table: SimulatedTable, layout: Layout, still: bool
    ) -> None:
        """One frame: its false tags always; its recall, and which tokens it showed,
        while the laid table holds still."""
        self.ms.append(reading.elapsed_ms)
        frame = table.last
        assert frame is not None
        drawn = {t.text: t for t in frame.truth.tags if t.tag is not None and t.tag.kit == KIT}
        truth_slot = {t.text: layout.slot_at(t.center_mm) for t in drawn.values()}
        got = {p.tag.text: p.slot for p in reading.placed}
        self.false += [t for t in reading.kit_texts if t not in drawn]
        self.false += [t for t, slot in got.items() if t in truth_slot and truth_slot[t] != slot]
        if not still:
            return
        tokens = [t for t in drawn.values() if t.tag is not None and t.tag.is_token]
        for token in tokens:
            self._shown[token.text] = self._shown.get(token.text, False) or token.visible
            if token.visible:
                self.visible += 1
                self.read += got.get(token.text) == truth_slot[token.text]

    def hidden(self) -> tuple[str, ...]:
        """Tokens of the still table no frame showed whole."""
        return tuple(sorted(t for t, shown in self._shown.items() if not shown))

    def round(self, case: str, outcome: tuple[Outcome, tuple[str, ...]]) -> RoundTrial:
        what, screen = outcome
        return RoundTrial(
            case,
            self.visible,
            self.read,
            tuple(self.false),
            what,
            self.hidden(),
            screen,
            tuple(self.ms),
        )


def _outcome(
    report: TableReport,
    settled: Settled,
    group: DemoPlayers,
    lineup: Lineup,
    unread: Iterable[str],
) -> tuple[Outcome, tuple[str, ...]]:
    """What the table did with the round, and what its screen said if it held it back:
    a round held back must name the player of every token it does not count as read
    (one it knows to be covered included; a hidden token it read anyway needs no
    name)."""
    if _proposed(settled, report):
        return (Outcome.EXACT if report.reveal == group.truth else Outcome.WRONG), ()
    screen = tuple(str(line) for line in (*report.waiting, *report.problems))
    named = all(any(_whose(text, lineup) in line for line in screen) for text in unread)
    return (Outcome.NAMED if named and screen else Outcome.UNNAMED), screen


def _proposed(settled: Settled, report: TableReport) -> bool:
    """Whether the game loop would propose the table as it stands: legal, still, and
    seen (a frame that missed most of the table starts nothing)."""
    return settled.steady and not settled.blind and report.ready


def _whose(text: str, lineup: Lineup) -> str:
    """The player a token belongs to (the trap dial: the storyteller's, named as a
    trap dial)."""
    tag = parse_tag(text)
    if tag.colour is None:
        return "trap dial"
    return lineup.player_of(tag.colour) or tag.colour


def each_case(rulesets: Iterable[Ruleset]) -> Callable[[int], tuple[Ruleset, int]]:
    """Every ruleset with every player count it allows, in turn: case `i` of a run."""
    cases = [(ruleset, n) for ruleset in rulesets for n in ruleset.player_counts]
    return lambda i: cases[i % len(cases)]
