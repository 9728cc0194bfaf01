"""Reading whole frames: refit per frame, fall back to the calibration, look again."""

import dataclasses
import math

import numpy as np
import pytest

from companion.kit.layouts import load_layout
from companion.kit.tags import MODULES_ACROSS, KitTag, Role, parse_tag
from companion.sim import Conditions, render
from companion.vision.board import BoardFit
from companion.vision.calibration import Calibration, calibrate
from companion.vision.decode import Gray, make_decoder
from companion.vision.pipeline import DECODE_PX_PER_MODULE, TableReader, TableWatcher, to_gray
from companion.vision.records import Detection
from companion.vision.stabilise import Stabiliser
from tests.vision.bent import WEBCAM, BentDecoder
from tests.vision.scenes import KIT, MILD, POSE, calibration, layout, round_frame, true_slots


def reader(decoder: object = None) -> TableReader:
    return TableReader(calibration(), layout(), decoder or make_decoder())  # type: ignore[arg-type]


def test_every_visible_token_lands_in_its_slot() -> None:
    frame = round_frame(1)
    reading = reader().read(frame.image)
    assert {p.tag.text: p.slot for p in reading.placed} == true_slots(frame)
    assert reading.refitted


def test_a_grey_frame_reads_like_the_colour_one() -> None:
    frame = round_frame(2)
    assert reader().read(to_gray(frame.image)).placed == reader().read(frame.image).placed


def test_a_bumped_board_is_refitted_from_the_frame() -> None:
    bumped = dataclasses.replace(POSE, yaw_deg=3.0, offset_mm=(12.0, -8.0))
    frame = round_frame(3, pose=bumped)
    reading = reader().read(frame.image)
    assert reading.refitted
    assert {p.tag.text: p.slot for p in reading.placed} == true_slots(frame)


class Blindfold:
    """A decoder that cannot see the board's corner and slot tags in whole frames, as
    when hands and tokens cover them, but reads everything in small crops."""

    name = "blindfold"

    def __init__(self, hide: set[str] | None = None) -> None:
        self.inner = make_decoder()
        self.hide = hide
        self.shapes: list[tuple[int, ...]] = []

    def decode(self, gray: Gray) -> list[Detection]:
        self.shapes.append(gray.shape)
        found = self.inner.decode(gray)
        if gray.shape[0] < 600:
            return found
        hidden = self.hide if self.hide is not None else {d.text for d in found if is_anchor(d)}
        return [d for d in found if d.text not in hidden]


def is_anchor(detection: Detection) -> bool:
    return parse_tag(detection.text).role in (Role.CORNER, Role.SLOT)


def test_too_few_board_tags_fall_back_to_the_calibration_and_look_again() -> None:
    frame = round_frame(4)
    blind = Blindfold()
    reading = reader(blind).read(frame.image)
    assert reading.looked_again >= 4
    assert reading.found_again >= 4
    assert reading.refitted
    assert {p.tag.text: p.slot for p in reading.placed} == true_slots(frame)


def test_with_nothing_found_again_the_calibration_places_the_tokens() -> None:
    frame = round_frame(5)

    class Blind(Blindfold):
        def decode(self, gray: Gray) -> list[Detection]:
            return [d for d in self.inner.decode(gray) if not is_anchor(d)]

    reading = reader(Blind()).read(frame.image)
    assert not reading.refitted
    assert {p.tag.text: p.slot for p in reading.placed} == true_slots(frame)


def test_a_token_seen_a_moment_ago_is_looked_for_again() -> None:
    frame = round_frame(6)
    token = next(p for p in frame.truth.scene.tokens)
    truth = next(t for t in frame.truth.tags if t.text == token.tag.text)
    blind = Blindfold(hide={token.tag.text})
    plain = reader(blind).read(frame.image)
    assert token.tag.text not in {p.tag.text for p in plain.placed}
    again = reader(blind).read(frame.image, {token.tag.text: truth.center_px})
    assert token.tag.text in {p.tag.text for p in again.placed}
    assert again.found_again == 1


def test_large_tags_are_decoded_at_a_reduced_scale() -> None:
    frame = round_frame(7, pose=dataclasses.replace(POSE, frame_px=(4608, 2592)))
    blind = Blindfold(hide=set())
    reading = reader(blind).read(frame.image)
    assert blind.shapes[0][1] < 4608
    assert {p.tag.text: p.slot for p in reading.placed} == true_slots(frame)


def test_the_watcher_keeps_tokens_under_a_passing_hand() -> None:
    clear = round_frame(8)
    rng = np.random.default_rng(8)
    hands = render(clear.truth.scene, POSE, dataclasses.replace(MILD, hands=2), rng)
    hidden = {
        t.text for t in hands.truth.tags if t.tag is not None and t.tag.is_token and not t.visible
    }
    assert hidden
    watcher = TableWatcher(reader(), Stabiliser(settle_frames=3, keep_frames=4))
    for image in (clear.image, clear.image, clear.image, hands.image, hands.image):
        _, settled = watcher.push(image)
    assert set(settled.hidden) >= hidden
    settled_texts = {
        KitTag(KIT, Role.OWNER, colour=o, index=1).text
        for contents in settled.observation.slots.values()
        for o in contents.owners
    } | {
        KitTag(KIT, Role.VOTE, colour=v.player, index=v.dial).text
        for contents in settled.observation.slots.values()
        for v in contents.votes
    }
    assert settled_texts == set(true_slots(clear))


def test_tags_beyond_the_frame_edge_do_not_break_the_reader() -> None:
    off = dataclasses.replace(POSE, offset_mm=(200.0, 0.0))
    frame = round_frame(9, conditions=Conditions(jpeg_quality=None), pose=off)
    reading = reader().read(frame.image)
    slots = true_slots(frame)
    assert all(slots[p.tag.text] == p.slot for p in reading.placed)


CLASSIC = load_layout("classic-8")
BENT = BentDecoder(CLASSIC, "CAFE", WEBCAM)
"""The classic board's tags through a webcam's barrel."""
OWNER = KitTag("CAFE", Role.OWNER, colour="red", index=1).text


class BentTable:
    """The classic board through a webcam, an owner token near the outer corner of slot
    1's card, in frames `shrink` times smaller than the camera's; corner and slot tags
    only if `anchors`, and nothing in crops (as when hands cover the board)."""

    name = "bent-table"

    def __init__(self, shrink: float, *, anchors: bool) -> None:
        self.shrink, self.anchors = shrink, anchors
        x0, y0, _, _ = CLASSIC.slots[0].card_mm
        self.token_mm = (x0 + 16.0, y0 + 16.0)

    def decode(self, gray: Gray) -> list[Detection]:
        width, height = WEBCAM.frame_px
        if gray.shape != (round(height / self.shrink), round(width / self.shrink)):
            return []
        x, y = self.token_mm
        half = 10.0
        square = [
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        ]
        found = [Detection(OWNER, tuple(tuple(p) for p in BENT.project(square)))]  # type: ignore[arg-type]
        found += BENT.decode(gray) if self.anchors else []
        return [
            Detection(d.text, tuple((u / self.shrink, v / self.shrink) for u, v in d.corners_px))  # type: ignore[arg-type]
            for d in found
        ]


@pytest.mark.parametrize("shrink", [1.0, 2.0])
@pytest.mark.parametrize("anchors", [True, False], ids=["refitted", "calibration's fit"])
def test_through_a_bending_lens_the_board_is_read_where_it_lies(
    shrink: float, anchors: bool
) -> None:
    width, height = WEBCAM.frame_px
    calibration = calibrate(np.zeros((height, width), np.uint8), CLASSIC, BENT, "classic-8")
    table = BentTable(shrink, anchors=anchors)
    frame = np.zeros((round(height / shrink), round(width / shrink)), np.uint8)
    reading = TableReader(calibration, CLASSIC, table, decode_scale=1.0).read(frame)
    assert reading.refitted is anchors
    assert [(p.tag.text, p.slot) for p in reading.placed] == [(OWNER, 1)]
    (seen_mm,) = reading.board.to_mm([reading.placed[0].center_px])
    assert math.dist(seen_mm, table.token_mm) < 0.5


def test_the_reduced_scale_keeps_the_tags_where_the_board_is_smallest_readable() -> None:
    """Through a wide lens the board's edge is seen smaller than its middle: the scale
    the frame is decoded at comes from the smallest tags, not the typical ones."""
    ppm = {KitTag("CAFE", Role.SLOT, slot=s.slot).text: 12.0 for s in CLASSIC.slots}
    ppm[KitTag("CAFE", Role.CORNER, corner=1).text] = 7.0  # 30 mm, where slots are 26 mm
    identity = BoardFit(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), 0.0, 4, 4)
    calibration = Calibration("CAFE", "classic-8", (4608, 2592), identity, ppm)
    shapes: list[tuple[int, ...]] = []

    class Shapes:
        name = "shapes"

        def decode(self, gray: Gray) -> list[Detection]:
            shapes.append(gray.shape)
            return []

    TableReader(calibration, CLASSIC, Shapes()).read(np.zeros((2592, 4608), np.uint8))
    px_per_mm = 7.0 * MODULES_ACROSS / 30  # at corner 1
    smallest_token_ppm = px_per_mm * CLASSIC.token_size_mm / MODULES_ACROSS
    scale = shapes[0][1] / 4608
    assert scale < 1
    assert smallest_token_ppm * scale == pytest.approx(DECODE_PX_PER_MODULE, abs=0.01)
