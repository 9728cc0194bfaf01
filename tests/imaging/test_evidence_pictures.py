"""The pictures a round keeps in the journal: the board at a size an SD card can hold
for months of play, with every token still readable from the kept frame.

Rounds are simulated on the 12-slot board in full-resolution 4608x2592 frames, read
by the calibrated reader, and their pictures taken through the camera as the game
loop takes them when a round is confirmed.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from companion.colours import COLOURS
from companion.imaging.evidence import FRAME_LONG_SIDE, OVERLAY_LONG_SIDE, round_pictures
from companion.imaging.overlay import annotate
from companion.journal import RoundImages
from companion.kit.layouts import Layout, load_layout
from companion.rules import RULESETS, Game
from companion.runtime.camera import THUMBNAIL_WIDTH, Camera, Watching
from companion.sim import render, round_scene
from companion.sources.base import Frame, FrameSource
from companion.vision.decode import make_decoder
from companion.vision.pipeline import FrameReading, TableReader, TableWatcher
from companion.vision.stabilise import Stabiliser
from tests.vision.simulated_rounds import FRAME_PX, KIT, LAYOUT, MILD, calibrated, table_pose

BUDGET_BYTES = 150_000
"""At most this many bytes of pictures (frame and drawing together) per round."""
ROUNDS = ((1, 12), (2, 8), (3, 6))
"""Seed and player count of each simulated round of Dixit Odyssey."""
ZOOM = 2.0
"""How much the kept frame is enlarged before it is read again, as a person zooms in
on it: the decoder finds codes of about 2 px per module only once enlarged."""


class Still(FrameSource):
    """A camera that sees the same frame every time."""

    description = "still frame"

    def __init__(self, frame: Frame) -> None:
        self.frame = frame

    def read(self) -> Frame:
        return self.frame

    def close(self) -> None:
        pass


@dataclass(frozen=True, eq=False)
class Taken:
    """A frame, what the reader made of it, and the pictures the camera kept."""

    frame: Frame
    reading: FrameReading
    pictures: RoundImages
    camera: Camera


def reader(layout: Layout) -> TableReader:
    return TableReader(calibrated(LAYOUT), layout, make_decoder())


def take(frame: Frame, layout: Layout) -> Taken:
    """One look of a camera at `frame`, and the pictures of a round entered then."""
    camera = Camera(lambda: Still(frame), TableWatcher(reader(layout), Stabiliser()), layout)
    camera.look(0.0)
    status = camera.state.status
    assert isinstance(status, Watching) and status.latest is not None
    return Taken(frame, status.latest.reading, camera.pictures(None), camera)


@pytest.fixture(scope="module")
def board() -> Layout:
    return load_layout(LAYOUT)


@pytest.fixture(scope="module")
def rounds(board: Layout) -> list[Taken]:
    taken = []
    for seed, players in ROUNDS:
        rng = np.random.default_rng(seed)
        names = [c.name for c in COLOURS[:players]]
        game = Game.start(RULESETS["odyssey"], names, names[0])
        frame = render(round_scene(board, KIT, game, rng), table_pose(board), MILD, rng)
        taken.append(take(frame.image, board))
    return taken


def decoded(data: bytes | None) -> Frame:
    assert data is not None
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return np.asarray(image, np.uint8)


def tokens_read_again(kept: bytes | None, layout: Layout) -> set[tuple[str, int]]:
    """Every token the reader places on a slot in the kept frame, zoomed in."""
    image = cv2.resize(decoded(kept), None, fx=ZOOM, fy=ZOOM, interpolation=cv2.INTER_CUBIC)
    reading = reader(layout).read(np.asarray(image, np.uint8))
    assert reading.refitted, "the board's own tags no longer fix it in the kept frame"
    return {(token.tag.text, token.slot) for token in reading.placed}


def tokens(reading: FrameReading) -> set[tuple[str, int]]:
    return {(token.tag.text, token.slot) for token in reading.placed}


def size(images: RoundImages) -> int:
    return len(images.frame or b"") + len(images.overlay or b"")


def test_a_twelve_slot_round_keeps_at_most_150_kb_of_pictures(rounds: list[Taken]) -> None:
    for taken in rounds:
        assert taken.pictures.frame is not None and taken.pictures.overlay is not None
        assert size(taken.pictures) <= BUDGET_BYTES


def test_the_kept_frame_is_the_board_at_its_long_side(rounds: list[Taken]) -> None:
    for taken in rounds:
        frame, overlay = decoded(taken.pictures.frame), decoded(taken.pictures.overlay)
        assert max(frame.shape[:2]) == FRAME_LONG_SIDE
        assert max(overlay.shape[:2]) == OVERLAY_LONG_SIDE
        frame_ratio = frame.shape[1] / frame.shape[0]
        assert frame_ratio == pytest.approx(overlay.shape[1] / overlay.shape[0], rel=0.01)
        assert frame_ratio != pytest.approx(FRAME_PX[0] / FRAME_PX[1], rel=0.01)


def test_every_token_of_the_round_is_read_again_from_the_kept_frame(
    rounds: list[Taken], board: Layout
) -> None:
    for taken in rounds:
        laid = tokens(taken.reading)
        assert laid and tokens_read_again(taken.pictures.frame, board) == laid


def test_a_board_kept_too_small_loses_its_tokens_to_the_reader(
    rounds: list[Taken], board: Layout
) -> None:
    taken = rounds[0]
    small = round_pictures(taken.frame, taken.reading, board, long_side=400)
    image = cv2.resize(decoded(small.frame), None, fx=ZOOM, fy=ZOOM, interpolation=cv2.INTER_CUBIC)
    reading = reader(board).read(np.asarray(image, np.uint8))
    assert tokens(reading) != tokens(taken.reading)


def test_a_round_with_no_reading_keeps_the_whole_frame_scaled_within_the_budget(
    rounds: list[Taken], board: Layout
) -> None:
    for taken in rounds:
        kept = round_pictures(taken.frame, None, board)
        assert size(kept) <= BUDGET_BYTES
        height, width = decoded(kept.frame).shape[:2]
        assert (width, height) == (
            FRAME_LONG_SIDE,
            round(FRAME_LONG_SIDE * FRAME_PX[1] / FRAME_PX[0]),
        )


def test_a_frame_where_no_board_is_found_is_kept_whole(board: Layout) -> None:
    blank = np.full((FRAME_PX[1], FRAME_PX[0], 3), 128, np.uint8)
    taken = take(blank, board)
    assert not taken.reading.refitted
    height, width = decoded(taken.pictures.frame).shape[:2]
    assert (width, height) == (FRAME_LONG_SIDE, round(FRAME_LONG_SIDE * FRAME_PX[1] / FRAME_PX[0]))


def test_the_screen_picture_is_still_the_whole_frame_at_the_screen_width(
    rounds: list[Taken], board: Layout
) -> None:
    taken = rounds[0]
    image = taken.camera.view(0.0).image
    assert image is not None
    assert image.shape == (round(THUMBNAIL_WIDTH * FRAME_PX[1] / FRAME_PX[0]), THUMBNAIL_WIDTH, 3)
    whole = (0, 0, FRAME_PX[0], FRAME_PX[1])
    drawn = annotate(taken.frame, taken.reading, board, THUMBNAIL_WIDTH, whole)
    assert np.array_equal(image, drawn)
