"""The demo's simulated camera, calibrated as a café calibrates its own."""

import numpy as np
import pytest

from companion.demo.camera import KIT, calibrated, demo_pose
from companion.demo.demo import LAYOUT
from companion.kit.layouts import load_layout
from companion.sim import LENSES, Scene, look_with
from companion.sources.simulated import SimulatedTable


@pytest.mark.parametrize("lens", list(LENSES))
def test_the_demo_calibrates_once_a_hunting_camera_has_settled(lens: str) -> None:
    layout = load_layout(LAYOUT)
    look = look_with(["autofocus", "evening"])
    table = SimulatedTable(
        Scene(layout, KIT, disc=look.disc),
        demo_pose(layout, LENSES[lens]),
        look.conditions,
        np.random.default_rng(5),
    )
    calibration = calibrated(table, layout, LAYOUT)
    assert calibration.board.anchors_used == len(layout.anchors())
    assert calibration.board.rms_error_mm < 1.0
