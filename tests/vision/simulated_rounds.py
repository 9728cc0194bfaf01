"""Whole simulated rounds through the reader and the stabiliser, for the accuracy tests.

Each round is a random legal reveal of one ruleset and player count, laid out on the
board, photographed three times (two clear frames, one with hands reaching over the
board) and fed to the watcher as a sequence of frames in which the hands come and go.
The settled table is compared with what the players laid; every single frame's reads
are compared with the tags that frame shows.

The accuracy run is `ROUNDS` rounds over every case; the accuracy tests play it in
shares, each the rounds of some rulesets (`play_rounds`) on a worker of its own, so that
the shares run side by side.
"""

import dataclasses
import functools
import multiprocessing
from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from companion.colours import COLOURS
from companion.kit.layouts import Layout, load_layout
from companion.kit.tags import KitTag, Role
from companion.rules import RULESETS, Game
from companion.sim import (
    CameraPose,
    Conditions,
    ForeignCode,
    Scene,
    SimCamera,
    render,
    round_scene,
)
from companion.vision.assign import PlacedToken, observe
from companion.vision.calibration import Calibration, calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, TableWatcher, to_gray
from companion.vision.records import TableObservation
from companion.vision.stabilise import Stabiliser

KIT = "CAFE1"
LAYOUT = "odyssey-12"
"""The 12-slot board: it holds every round of every ruleset."""
FRAME_PX = (4608, 2592)
"""Camera Module 3 at full resolution: 24 mm tokens over a 12-slot board at 4 to 5 px
per module from 80 cm."""
MILD = Conditions(blur_sigma_px=0.8, noise_sigma=3.0, jpeg_quality=None)
HANDS = dataclasses.replace(MILD, hands=2)
SEQUENCE = (0, 2, 1, 2, 0, 1, 0, 1)
"""Which of the three frames (0 and 1 clear, 2 with hands) the watcher sees, in order."""
MIN_PX_PER_MODULE = 4.0

CASES = [(name, n) for name in sorted(RULESETS) for n in RULESETS[name].player_counts]
"""Every ruleset with every player count it allows."""
ROUNDS = 205
"""At least 200, spread over every ruleset and player count (41 cases, 5 each)."""


@dataclass(frozen=True)
class RoundResult:
    """What one simulated round showed about the reader."""

    case: str
    """Ruleset, player count and seed."""
    visible: int
    """Kit tags fully visible at >= 4 px per module, over the clear frames."""
    read: int
    """How many of those the single-frame reader found, in the right place."""
    misread: tuple[str, ...]
    """Kit tags the reader reported that the frame did not show, or in a wrong slot."""
    settled_exact: bool
    """Whether the settled table equals what the players laid."""
    difference: str
    """What differed, when it did."""
    foreign_shown: int
    """Foreign codes (menus, another kit's tags) fully visible in the clear frames."""


def table_pose(layout: Layout) -> CameraPose:
    """A camera high enough to see the whole board, as a café would mount it."""
    return CameraPose(height_mm=800.0 * layout.board_mm[0] / 812.0, tilt_deg=6.0, frame_px=FRAME_PX)


@functools.cache
def camera(name: str) -> SimCamera:
    """The camera over the board, one per process: it paints the board and develops it
    once, and each round's cards once for the round's frames (the frames are the ones
    `render` would make, pixel for pixel, in a third of the time)."""
    return SimCamera(table_pose(load_layout(name)))


@functools.cache
def calibrated(name: str) -> Calibration:
    """The calibration a café would make once: a frame of the empty board."""
    layout = load_layout(name)
    frame = render(Scene(layout, KIT), table_pose(layout), MILD, np.random.default_rng(0))
    return calibrate(to_gray(frame.image), layout, make_decoder(), name)


def expected_table(scene: Scene, layout: Layout) -> TableObservation:
    """The table as the players laid it: every token in the slot holding its centre."""
    placed = []
    for p in scene.tokens:
        slot = layout.slot_at(p.center_mm)
        assert slot is not None
        placed.append(PlacedToken(p.tag, slot, (0.0, 0.0)))
    return observe(placed, (), ())


def foreign_codes(layout: Layout, rng: np.random.Generator) -> tuple[ForeignCode, ...]:
    """A café menu code and a token of the next table's kit, lying between the cards."""
    width, height = layout.board_mm
    other = KitTag("BAR2", Role.VOTE, colour=COLOURS[int(rng.integers(12))].name, index=1)
    return (
        ForeignCode(
            "https://cafe.example/menu", (width * 0.3, height / 2), 30.0, float(rng.uniform(0, 90))
        ),
        ForeignCode(
            other.text, (width * 0.7, height / 2), layout.token_size_mm, float(rng.uniform(0, 90))
        ),
    )


def play_round(args: tuple[str, int, int]) -> RoundResult:
    """One simulated round of `ruleset` with `players` players, from `seed`."""
    ruleset, players, seed = args
    rng = np.random.default_rng(seed)
    rules = RULESETS[ruleset]
    layout = load_layout(LAYOUT)
    names = [c.name for c in COLOURS[:players]]
    game = Game.start(rules, names, names[int(rng.integers(players))])
    scene = round_scene(layout, KIT, game, rng)
    scene = dataclasses.replace(scene, foreign=foreign_codes(layout, rng))
    frames = [camera(LAYOUT).shoot(scene, c, rng) for c in (MILD, MILD, HANDS)]

    reader = TableReader(calibrated(LAYOUT), layout, make_decoder())
    truth_slot = {p.tag.text: layout.slot_at(p.center_mm) for p in scene.tokens}
    visible = read = foreign_shown = 0
    misread: list[str] = []
    for frame in frames[:2]:
        reading = reader.read(frame.image)
        shown = {
            t.text
            for t in frame.truth.visible_tags
            if t.tag is not None
            and t.tag.kit == KIT
            and t.tag.is_token
            and t.px_per_module >= MIN_PX_PER_MODULE
        }
        got = {p.tag.text: p.slot for p in reading.placed}
        visible += len(shown)
        read += sum(1 for text in shown if got.get(text) == truth_slot[text])
        misread += [text for text, slot in got.items() if truth_slot.get(text) != slot]
        foreign_shown += sum(
            1 for t in frame.truth.visible_tags if t.tag is None or t.tag.kit != KIT
        )

    watcher = TableWatcher(reader, Stabiliser())
    for index in SEQUENCE:
        _, settled = watcher.push(frames[index].image)
    want = expected_table(scene, layout)
    exact = dict(settled.observation.slots) == dict(want.slots)
    difference = (
        "" if exact else f"settled {dict(settled.observation.slots)} != laid {dict(want.slots)}"
    )
    return RoundResult(
        f"{ruleset} {players}p seed {seed}",
        visible,
        read,
        tuple(misread),
        exact,
        difference,
        foreign_shown,
    )


def play_rounds(rulesets: Collection[str]) -> list[RoundResult]:
    """The accuracy run's rounds of `rulesets`, on two processes: case `i % len(CASES)`
    from seed `1000 + i`, whichever share plays it."""
    jobs = [
        (name, n, 1000 + i)
        for i in range(ROUNDS)
        for name, n in [CASES[i % len(CASES)]]
        if name in rulesets
    ]
    calibrated(LAYOUT)  # once, before the workers fork
    camera(LAYOUT).shoot(Scene(load_layout(LAYOUT), KIT), MILD, np.random.default_rng(0))
    with multiprocessing.get_context("fork").Pool(2) as pool:
        return pool.map(play_round, jobs, chunksize=4)


def check_single_frames(results: list[RoundResult], more_visible_than: int) -> None:
    """At least 99% of the kit tags fully visible in single frames are read in the
    right slot, out of more than `more_visible_than` of them."""
    visible = sum(r.visible for r in results)
    read = sum(r.read for r in results)
    print(f"single frames: {read} of {visible} visible kit tokens read in the right slot")
    assert visible > more_visible_than
    assert read / visible >= 0.99, f"{read} of {visible} tags read"


def check_no_misreads(results: list[RoundResult]) -> None:
    """No tag is ever read where it is not."""
    assert [(r.case, r.misread) for r in results if r.misread] == []


def check_foreign_codes_shown(results: list[RoundResult]) -> None:
    """Every round had foreign codes and another kit's tags in view."""
    assert sum(r.foreign_shown for r in results) >= len(results)


def check_settled_rounds(results: list[RoundResult], rulesets: tuple[str, ...]) -> None:
    """Every settled round is exactly what the players laid, over 100 rounds or more
    and every case of `rulesets`."""
    exact = sum(r.settled_exact for r in results)
    cases = {f"{name} {n}p" for name, n in CASES if name in rulesets}
    print(f"settled rounds: {exact} of {len(results)} exactly as laid, {len(cases)} cases")
    assert len(results) >= 100
    assert {r.case.split(" seed")[0] for r in results} == cases
    assert [(r.case, r.difference) for r in results if not r.settled_exact] == []
