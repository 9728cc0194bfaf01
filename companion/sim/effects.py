"""The conditions a frame is taken in, and what glare, lens, light, sensor and JPEG do to it.

A scan of the board would be too easy a test: `Conditions` say how far a frame falls
short of one, each effect as mild or as harsh as a test needs. Glare is drawn before
the truth is taken, since it can burn a code out; blur, uneven light, noise and
compression then spoil the whole frame. Hands, counted here too, are `hands`'.
"""

import math
from dataclasses import dataclass
from statistics import NormalDist

import cv2
import numpy as np

from companion.errors import SettingError
from companion.sim.camera import Matrix, project
from companion.sim.pixels import Image, scaled, three_channels
from companion.sim.scene import Scene
from companion.vision.records import Point


@dataclass(frozen=True)
class Conditions:
    """What makes a frame harder to read than a scan: optics, sensor, light and hands.

    The defaults are a good café: a little blur and noise, a gentle light gradient,
    no glare, no hands, the camera's usual JPEG compression.
    """

    blur_sigma_px: float = 0.7
    """Gaussian blur of lens and focus, in pixels."""
    noise_sigma: float = 2.5
    """Sensor noise, in grey levels: its standard deviation in the grey frame."""
    gradient: float = 0.2
    """How much darker the dim side of the frame is than the bright side (0 to <1)."""
    gradient_deg: float = 30.0
    """Direction the light falls off towards, clockwise from the frame's right."""
    glare_spots: int = 0
    """Bright reflections that wash out part of the frame."""
    glare_strength: float = 0.9
    """Share of the way to white at a reflection's centre (0 to 1)."""
    glare_radius: float = 0.05
    """Size (standard deviation) of a reflection, as a share of the frame's width."""
    hands: int = 0
    """Hands and arms reaching over the board from the frame's edges."""
    jpeg_quality: int | None = 90
    """JPEG quality the frame is compressed at; None leaves it uncompressed."""

    def __post_init__(self) -> None:
        checks = (
            (self.blur_sigma_px >= 0, "blur_sigma_px must be 0 or more"),
            (self.noise_sigma >= 0, "noise_sigma must be 0 or more"),
            (0 <= self.gradient < 1, "gradient must be from 0 up to (not including) 1"),
            (self.glare_spots >= 0, "glare_spots must be 0 or more"),
            (0 <= self.glare_strength <= 1, "glare_strength must be from 0 to 1"),
            (self.glare_radius > 0, "glare_radius must be more than 0"),
            (self.hands >= 0, "hands must be 0 or more"),
            (self.jpeg_quality is None or 1 <= self.jpeg_quality <= 100, "jpeg_quality: 1-100"),
        )
        for ok, message in checks:
            if not ok:
                raise SettingError(f"conditions: {message}")


@dataclass(frozen=True)
class GlareSpot:
    """A reflection: centre and size in pixels, strength at the centre."""

    center: Point
    """Centre in frame pixels."""
    sigma: float
    """Standard deviation of its brightness, in pixels."""
    strength: float
    """Share of the way to white at the centre."""


def draw_glare(
    frame: Image,
    conditions: Conditions,
    scene: Scene,
    board_to_px: Matrix,
    rng: np.random.Generator,
) -> list[GlareSpot]:
    """Reflections over random points of the board, washing the frame towards white."""
    rows, cols = frame.shape[:2]
    board_w, board_h = scene.layout.board_mm
    spots = []
    for _ in range(conditions.glare_spots):
        where = (board_w * float(rng.uniform(0.1, 0.9)), board_h * float(rng.uniform(0.1, 0.9)))
        x, y = project(board_to_px, [where])[0]
        sigma = conditions.glare_radius * cols * float(rng.uniform(0.7, 1.3))
        spots.append(GlareSpot((float(x), float(y)), sigma, conditions.glare_strength))
        left, top = max(0, int(x - 3 * sigma)), max(0, int(y - 3 * sigma))
        right, bottom = min(cols, int(x + 3 * sigma) + 1), min(rows, int(y + 3 * sigma) + 1)
        if right <= left or bottom <= top:
            continue
        across = np.exp(-((np.arange(left, right) - x) ** 2) / (2 * sigma**2))
        down = np.exp(-((np.arange(top, bottom) - y) ** 2) / (2 * sigma**2))
        wash = np.outer(down * 255 * conditions.glare_strength, across).astype(np.uint8)
        roi = frame[top:bottom, left:right]
        whiter = scaled(cv2.bitwise_not(roi), wash)
        roi[:] = cv2.add(roi, whiter)
    return spots


def through_camera(frame: Image, conditions: Conditions, rng: np.random.Generator) -> Image:
    """Lens blur, uneven light, sensor noise and JPEG compression, in that order."""
    out = frame
    if conditions.blur_sigma_px > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), conditions.blur_sigma_px), np.uint8)
    if conditions.gradient > 0:
        out = _light(out, conditions.gradient, conditions.gradient_deg)
    if conditions.noise_sigma > 0:
        out = _noise(out, conditions.noise_sigma, rng)
    if conditions.jpeg_quality is not None:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality])
        out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return out


def _light(frame: Image, strength: float, towards_deg: float) -> Image:
    """Light falling off linearly across the frame: full on one side, `1 - strength`
    on the side `towards_deg` points to. The gain is worked out on a grid eight times
    coarser and stretched, which a linear ramp survives unchanged."""
    rows, cols = frame.shape[:2]
    turn = math.radians(towards_deg)
    cos, sin = math.cos(turn), math.sin(turn)
    reach = (abs(cols * cos) + abs(rows * sin)) / 2
    grid = (rows // 8 + 2, cols // 8 + 2)
    xs = (np.arange(grid[1]) * 8 + 3.5 - (cols - 1) / 2) * (cos / reach)
    ys = (np.arange(grid[0]) * 8 + 3.5 - (rows - 1) / 2) * (sin / reach)
    gain = 1.0 - strength * (0.5 + 0.5 * np.add.outer(ys, xs))
    level = np.rint(np.clip(gain, 0, 1) * 255).astype(np.uint8)
    grown = cv2.resize(level, (grid[1] * 8, grid[0] * 8), interpolation=cv2.INTER_LINEAR)
    return scaled(frame, np.ascontiguousarray(grown[:rows, :cols]))


def _noise(frame: Image, sigma: float, rng: np.random.Generator) -> Image:
    """Gaussian noise of `sigma` grey levels, drawn fast: random bytes looked up in a
    table of normal quantiles, then added and subtracted with saturation. The noise is
    the same in the three channels: `sigma` is then exactly the noise a decoder sees
    in the grey frame."""
    quantiles = np.array([NormalDist().inv_cdf((k + 0.5) / 256) for k in range(256)]) * sigma
    up = np.clip(np.rint(quantiles), 0, 255).astype(np.uint8)
    down = np.clip(np.rint(-quantiles), 0, 255).astype(np.uint8)
    draws = rng.integers(0, 256, size=frame.shape[:2], dtype=np.uint8)
    raised = cv2.add(frame, three_channels(cv2.LUT(draws, up)))
    return np.asarray(cv2.subtract(raised, three_channels(cv2.LUT(draws, down))), np.uint8)
