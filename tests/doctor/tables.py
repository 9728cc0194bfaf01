"""Tables for the doctor's tests: simulated frames saved as image folders, and settings.

A folder replay is exactly what `--source folder:DIR` gives `companion doctor`, so the
checks see the simulated board as they would see a café's camera.
"""

import dataclasses
import functools
from pathlib import Path

import cv2
import numpy as np

from companion.doctor import Settings
from companion.kit.tags import KitTag
from companion.sim import CameraPose, Scene, render
from companion.vision.calibration import save_calibration
from companion.vision.decode import make_decoder
from tests.vision.scenes import KIT, MILD, POSE, calibration, layout

Image = np.ndarray


@functools.cache
def board_image(
    offset_mm: tuple[float, float] = (0.0, 0.0),
    kit: str = KIT,
    missing: frozenset[KitTag] = frozenset(),
    frame_px: tuple[int, int] = POSE.frame_px,
) -> Image:
    """The empty board as the calibrated camera sees it, or with the board moved by
    `offset_mm` (the camera looking that far off the board's centre), another kit's
    board, some board tags covered, or another frame size."""
    pose: CameraPose = dataclasses.replace(POSE, offset_mm=offset_mm, frame_px=frame_px)
    scene = Scene(layout(), kit, missing=missing)
    return render(scene, pose, MILD, np.random.default_rng(1)).image


def folder_of(folder: Path, *images: Image) -> str:
    """The images saved into `folder` as frame-1.png, frame-2.png...; the --source text."""
    folder.mkdir(parents=True, exist_ok=True)
    for number, image in enumerate(images, start=1):
        cv2.imwrite(str(folder / f"frame-{number}.png"), image)
    return f"folder:{folder}"


def grey_image(level: int) -> Image:
    """A frame of one grey level, at the calibrated size."""
    width, height = POSE.frame_px
    return np.full((height, width, 3), level, np.uint8)


def calibration_file(folder: Path) -> Path:
    """The simulated table's calibration, saved where a café keeps it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "calibration.json"
    save_calibration(calibration(), path)
    return path


def settings(tmp_path: Path, source: str = "none", **changes: object) -> Settings:
    """Settings for a table in `tmp_path`: calibrated, no journal yet, no GPIO parts."""
    base = Settings(
        calibration=calibration_file(tmp_path / "state"),
        journal=tmp_path / "state" / "journal.sqlite",
        decoder=make_decoder(),
        source=source,
        buttons=None,
        light=None,
        lock=tmp_path / "no-lock" / "requirements.lock",
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]
