"""The conditions a frame is taken in, and what lens, light, sensor and JPEG do to it.

A scan of the board would be too easy a test: `Conditions` say how far a frame falls
short of one, each effect as mild or as harsh as a test needs: the light (how much
of it, its colour against the camera's white balance, how it falls off across the
table), the shutter (how far a moving hand smears), the lens's blur, the sensor's
noise (which grows with the gain a dim room needs), glare, shadows and hands, and
the camera's own hunting for focus and exposure. Hands, glare and shadows are drawn
by `hands`, `glare` and `shadows`; the camera's hunting over a run of frames is
`autos`'.

`develop` is the light and the lens, applied to any piece of the frame (so the
still table is developed once per pose and only what moves afterwards); `expose` is
the sensor, applied to the whole frame, once per frame.
"""

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

import cv2
import numpy as np

from companion.errors import SettingError
from companion.sim.pixels import Image, Rect, cell_centres, stretched

REFERENCE_EXPOSURE_MS = 10.0
"""The shutter time at which a café's usual light needs no gain."""
MAX_GAIN = 8.0
"""The most the sensor's gain is raised; beyond it a dim frame stays dim."""
NOISE_GROWTH = 0.75
"""Noise grows as the gain to this power: between photon noise (0.5), which rules
in good light, and the sensor's read noise (1), which a high gain lays bare."""
HAND_SPEED_MM_S = 400.0
"""How fast a hand moves over the table, to smear it while the shutter is open."""
NOISE_PAD = 64
"""Extra rows and columns of the sensor's noise pattern: each frame takes it from a
random offset, so no two frames share their noise."""
NOISE_SEED = 4_201
"""The seed of the noise pattern; each frame's offset comes from the scene's draws."""
LIGHT_STEP = 8
"""The light's fall-off is worked out every this many pixels and stretched: a linear
ramp survives that unchanged."""
SOFT_FOCUS_SHRINK = 2
"""A frame out of focus by more than a few pixels is blurred at this fraction of its
size, which looks the same and costs a quarter."""


@dataclass(frozen=True)
class Conditions:
    """What makes a frame harder to read than a scan: light, optics, sensor and hands.

    The defaults are a good café: a little blur and noise, a gentle light gradient,
    white balance right, no glare, no hands, the camera's usual JPEG compression.
    """

    blur_sigma_px: float = 0.7
    """Gaussian blur of lens and focus, in pixels."""
    noise_sigma: float = 2.5
    """Sensor noise in good light, in grey levels: its standard deviation in the grey
    frame. A dim room's gain raises it (`gain`)."""
    gradient: float = 0.2
    """How much darker the dim side of the frame is than the bright side (0 to <1)."""
    gradient_deg: float = 30.0
    """Direction the light falls off towards, clockwise from the frame's right."""
    light: float = 1.0
    """How much light there is, as a share of a well-lit café's (an evening with the
    lamps low: a third)."""
    exposure_ms: float = REFERENCE_EXPOSURE_MS
    """How long the shutter stays open: longer lets a dim room in, and smears a
    moving hand."""
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Gains of blue, green and red that the light's colour leaves on the frame
    against the camera's white balance: warm lamps push red up and blue down."""
    glare_spots: int = 0
    """Bright reflections that wash out part of the frame."""
    glare_strength: float = 0.9
    """Share of the way to white at a reflection's centre (0 to 1)."""
    glare_radius: float = 0.05
    """Size (standard deviation) of a reflection, as a share of the frame's width."""
    glare_streaks: int = 0
    """Long reflections off glossy cards, each across a token lying on a card."""
    arm_shadows: int = 0
    """Shadows of players' arms thrown across the board by the lamps."""
    hands: int = 0
    """Hands and arms reaching over the board from the frame's edges."""
    focus_hunt: int = 0
    """Soft frames while the camera hunts for focus after the table changes."""
    exposure_hunt: int = 0
    """Frames the exposure steps through when a hand comes into view."""
    jpeg_quality: int | None = 90
    """JPEG quality the frame is compressed at; None leaves it uncompressed."""

    def __post_init__(self) -> None:
        checks = (
            (self.blur_sigma_px >= 0, "blur_sigma_px must be 0 or more"),
            (self.noise_sigma >= 0, "noise_sigma must be 0 or more"),
            (0 <= self.gradient < 1, "gradient must be from 0 up to (not including) 1"),
            (0 < self.light <= 1, "light must be a share above 0 and up to 1"),
            (0 < self.exposure_ms <= 1000, "exposure_ms must be above 0 and up to 1000"),
            (all(0 < g <= 2 for g in self.white_balance), "white_balance: gains above 0, to 2"),
            (self.glare_spots >= 0, "glare_spots must be 0 or more"),
            (0 <= self.glare_strength <= 1, "glare_strength must be from 0 to 1"),
            (self.glare_radius > 0, "glare_radius must be more than 0"),
            (self.glare_streaks >= 0, "glare_streaks must be 0 or more"),
            (self.arm_shadows >= 0, "arm_shadows must be 0 or more"),
            (self.hands >= 0, "hands must be 0 or more"),
            (self.focus_hunt >= 0, "focus_hunt must be 0 or more"),
            (self.exposure_hunt >= 0, "exposure_hunt must be 0 or more"),
            (self.jpeg_quality is None or 1 <= self.jpeg_quality <= 100, "jpeg_quality: 1-100"),
        )
        for ok, message in checks:
            if not ok:
                raise SettingError(f"conditions: {message}")

    @property
    def gain(self) -> float:
        """The sensor gain the camera sets to make up for a dim room and a short shutter."""
        return min(MAX_GAIN, max(1.0, REFERENCE_EXPOSURE_MS / (self.light * self.exposure_ms)))

    @property
    def brightness(self) -> float:
        """How bright the frame comes out against a well-lit one (below 1 only when the
        gain is at its most)."""
        return min(1.0, self.light * self.exposure_ms / REFERENCE_EXPOSURE_MS * self.gain)

    @property
    def noise(self) -> float:
        """The sensor noise in this frame, in grey levels, gain included."""
        return self.noise_sigma * float(self.gain**NOISE_GROWTH)

    @property
    def smear_mm(self) -> float:
        """How far a moving hand travels while the shutter is open."""
        return HAND_SPEED_MM_S * self.exposure_ms / 1000

    def developing(self) -> tuple[float, float, float, float, tuple[float, float, float]]:
        """Everything `develop` depends on, to keep developed pieces by."""
        return (
            self.blur_sigma_px,
            self.gradient,
            self.gradient_deg,
            self.brightness,
            self.white_balance,
        )


@dataclass(frozen=True)
class Tweak:
    """What the camera's own hunting does to one frame, beyond its conditions."""

    focus_sigma_px: float = 0.0
    """Extra blur while focus is off."""
    exposure: float = 1.0
    """Brightness against the settled exposure."""

    @property
    def none(self) -> bool:
        """Whether the frame is left as it is."""
        return self.focus_sigma_px == 0 and self.exposure == 1.0


def margin_px(conditions: Conditions) -> int:
    """How far the lens's blur reaches: a piece developed on its own needs this many
    pixels of what lies round it."""
    return math.ceil(3 * conditions.blur_sigma_px) + 1


def develop(piece: Image, rect: Rect, frame_px: tuple[int, int], conditions: Conditions) -> Image:
    """A piece of the table as the lens and the light render it: the lens's blur,
    then the light's fall-off across the frame, its level and its colour. `rect` says
    where the piece lies in a frame of `frame_px`."""
    out = piece
    if conditions.blur_sigma_px > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), conditions.blur_sigma_px), np.uint8)
    channels = [conditions.brightness * g for g in conditions.white_balance]
    if conditions.gradient == 0 and all(abs(c - 1.0) < 1e-9 for c in channels):
        return out if out is not piece else piece.copy()
    level = _fall_off(rect, frame_px, conditions)
    top = max(channels)
    codes = [cv2.convertScaleAbs(level, alpha=255.0 * c / top) for c in channels]
    return np.asarray(cv2.multiply(out, cv2.merge(codes), scale=top / 255.0), np.uint8)


def _fall_off(rect: Rect, frame_px: tuple[int, int], conditions: Conditions) -> np.ndarray:
    """The share of the light reaching each pixel of `rect`: falling off linearly
    across the frame, full on one side and `1 - gradient` on the side `gradient_deg`
    points to. Worked out on a grid eight times coarser and stretched, which a linear
    ramp survives unchanged."""
    x0, y0, x1, y1 = rect
    cols, rows = frame_px
    turn = math.radians(conditions.gradient_deg)
    cos, sin = math.cos(turn), math.sin(turn)
    reach = (abs(cols * cos) + abs(rows * sin)) / 2
    xs, ys = cell_centres(rect, LIGHT_STEP)
    along = (xs - (cols - 1) / 2) * (cos / reach) + (ys - (rows - 1) / 2) * (sin / reach)
    level = 1.0 - conditions.gradient * (0.5 + 0.5 * along)
    coarse = np.clip(level, 0.0, 1.0).astype(np.float32)
    return stretched(coarse, LIGHT_STEP, (x1 - x0, y1 - y0))


@lru_cache(maxsize=1)
def _noise_pattern(rows: int, cols: int, sigma: float) -> tuple[Image, Image]:
    """The sensor's noise, as two non-negative halves to add and to subtract with
    saturation (random bytes looked up in a table of normal quantiles), the same in
    the three channels so that `sigma` is exactly the noise a decoder sees in the grey
    frame. Larger than a frame by `NOISE_PAD` each way; made once per frame size."""
    quantiles = np.array([NormalDist().inv_cdf((k + 0.5) / 256) for k in range(256)]) * sigma
    up = np.clip(np.rint(quantiles), 0, 255).astype(np.uint8)
    down = np.clip(np.rint(-quantiles), 0, 255).astype(np.uint8)
    draws = np.random.default_rng(NOISE_SEED).integers(
        0, 256, size=(rows + NOISE_PAD, cols + NOISE_PAD), dtype=np.uint8
    )
    raised, lowered = cv2.LUT(draws, up), cv2.LUT(draws, down)
    return (
        np.asarray(cv2.merge([raised, raised, raised]), np.uint8),
        np.asarray(cv2.merge([lowered, lowered, lowered]), np.uint8),
    )


def expose(frame: Image, conditions: Conditions, rng: np.random.Generator) -> Image:
    """The sensor's part, in place where it can be: the noise of its gain, then JPEG
    compression."""
    out = frame
    sigma = conditions.noise
    if sigma > 0:
        rows, cols = out.shape[:2]
        up, down = _noise_pattern(rows, cols, round(sigma, 3))
        dy, dx = (int(v) for v in rng.integers(0, NOISE_PAD, size=2))
        cv2.add(out, up[dy : dy + rows, dx : dx + cols], dst=out)
        cv2.subtract(out, down[dy : dy + rows, dx : dx + cols], dst=out)
    if conditions.jpeg_quality is not None:
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality])
        out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return out


def hunted(frame: Image, tweak: Tweak) -> Image:
    """A finished frame as the camera's hunting leaves it: soft while focus is off,
    darker or brighter while the exposure steps."""
    out = frame
    if tweak.focus_sigma_px > 0:
        out = _soften(out, tweak.focus_sigma_px)
    if tweak.exposure != 1.0:
        out = np.asarray(cv2.convertScaleAbs(out, alpha=tweak.exposure), np.uint8)
    return out


def _soften(frame: Image, sigma: float) -> Image:
    """The frame out of focus by `sigma` pixels; a wide blur is done small."""
    if sigma < 2 * SOFT_FOCUS_SHRINK:
        return np.asarray(cv2.GaussianBlur(frame, (0, 0), sigma), np.uint8)
    rows, cols = frame.shape[:2]
    small = cv2.resize(
        frame,
        (cols // SOFT_FOCUS_SHRINK, rows // SOFT_FOCUS_SHRINK),
        interpolation=cv2.INTER_AREA,
    )
    small = cv2.GaussianBlur(small, (0, 0), sigma / SOFT_FOCUS_SHRINK)
    return np.asarray(cv2.resize(small, (cols, rows), interpolation=cv2.INTER_LINEAR), np.uint8)
