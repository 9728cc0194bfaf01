"""The outlines drawn over the camera picture, through the calibration's lens."""

import numpy as np

from companion.imaging.overlay import EDGE_POINTS, outlines_px
from companion.vision.board import BoardFit
from companion.vision.lens import Lens

BARREL = Lens((1000.0, 600.0), (1166.0, 1166.0), (0.12, 0.02, 0.0))
BOARD = BoardFit(((0.4, 0.0, -20.0), (0.0, 0.4, -10.0), (0.0, 0.0, 1.0)), 0.1, 4, 4, BARREL)
"""A board seen through a webcam's barrel, about 2000 x 1200 px."""


def test_an_outline_follows_the_lens_along_the_edges() -> None:
    card, board = outlines_px(BOARD, [(20.0, 30.0, 140.0, 190.0), (0.0, 0.0, 800.0, 480.0)])
    assert card.shape == board.shape == (4 * EDGE_POINTS, 2)
    x, y = np.array(BOARD.to_mm([tuple(p) for p in card])).T
    assert np.allclose((x[0], y[0]), (20.0, 30.0))  # from the top left corner
    on_edge = np.minimum(
        np.minimum(abs(x - 20.0), abs(x - 140.0)), np.minimum(abs(y - 30.0), abs(y - 190.0))
    )
    assert on_edge.max() < 1e-6
    top = board[: EDGE_POINTS + 1]  # through a barrel, the board's straight edge bows
    (cx, cy), (px, py) = top[-1] - top[0], (top - top[0]).T
    sag = (cx * py - cy * px) / np.hypot(cx, cy)
    assert abs(sag).max() > 10.0
