"""How a simulated café table looks, by name: its light, its camera's habits, its tokens.

A `Look` is everything about the simulated table that is not the game: the
conditions the camera takes its frames in, how the tokens are made (thick discs or
flat printed tags) and how carelessly they are laid. The named variations are the
café's evenings and accidents the reader must hold through, each on its own or
several together (`--conditions evening,glare` in the demo), and the benchmark's
conditions table measures each.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from companion.errors import SettingError
from companion.sim.effects import Conditions
from companion.sim.laying import Laying
from companion.sim.scene import Disc

GOOD_CAFE = Conditions(blur_sigma_px=0.8, noise_sigma=3.0, jpeg_quality=None)
"""A good café: a little blur and noise, a gentle gradient, frames handed over raw
as a Camera Module does."""
DISC = Disc()
"""The disc a café glues each token onto."""
CAREFUL = Laying()
"""Every token laid flat, clear of the others."""


@dataclass(frozen=True)
class Look:
    """The simulated table's light, camera and tokens."""

    conditions: Conditions = GOOD_CAFE
    """What the camera takes its frames in."""
    disc: Disc | None = DISC
    """The discs the tokens are glued onto; None for flat printed tags."""
    laying: Laying = CAREFUL
    """How carelessly the tokens are laid."""


CAFE = Look()
"""A good café with the kit's discs, laid with care."""


@dataclass(frozen=True)
class Variation:
    """One way a café table differs from a good one."""

    name: str
    """Its name, as `--conditions` takes it."""
    description: str
    """What it is, in a few words."""
    conditions: Mapping[str, Any] = field(default_factory=dict)
    """The conditions it changes."""
    laying: Mapping[str, float] = field(default_factory=dict)
    """The laying it changes."""
    printed: bool = False
    """Whether it lays flat printed tags instead of discs."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "conditions", MappingProxyType(dict(self.conditions)))
        object.__setattr__(self, "laying", MappingProxyType(dict(self.laying)))

    def on(self, look: Look) -> Look:
        """`look` with this variation."""
        return Look(
            replace(look.conditions, **self.conditions),
            None if self.printed else look.disc,
            replace(look.laying, **self.laying),
        )


VARIATIONS: Mapping[str, Variation] = MappingProxyType(
    {
        v.name: v
        for v in (
            Variation("printed", "flat printed tags instead of discs", printed=True),
            Variation(
                "evening",
                "a third of the light: a slower shutter smears moving hands, more gain, more noise",
                {"light": 1 / 3, "exposure_ms": 20.0},
            ),
            Variation(
                "warm",
                "warm lamps against a daylight white balance",
                {"white_balance": (0.72, 0.92, 1.12)},
            ),
            Variation(
                "cool",
                "cool light against a warm white balance",
                {"white_balance": (1.12, 1.0, 0.85)},
            ),
            Variation("glare", "glossy-card glare across a token", {"glare_streaks": 1}),
            Variation(
                "arm-shadow", "the shadow of a player's arm across the board", {"arm_shadows": 1}
            ),
            Variation(
                "autofocus",
                "a few soft frames while focus hunts after the table changes",
                {"focus_hunt": 3},
            ),
            Variation(
                "exposure", "exposure stepping when a hand comes into view", {"exposure_hunt": 3}
            ),
            Variation(
                "half-off",
                "tokens half off their card, leaning on its edge",
                laying={"half_off": 0.25},
            ),
            Variation("overlap", "tokens laid partly over another", laying={"overlap": 0.12}),
        )
    }
)
"""The named variations of a café table, in the order the benchmark measures them."""


def find_variation(name: str) -> Variation:
    """A variation by name; `SettingError` lists the known ones."""
    try:
        return VARIATIONS[name]
    except KeyError:
        raise SettingError(
            f"unknown condition {name!r}; conditions are {', '.join(VARIATIONS)}"
        ) from None


def look_with(names: Iterable[str], base: Look = CAFE) -> Look:
    """`base` with each named variation in turn."""
    look = base
    for name in names:
        look = find_variation(name).on(look)
    return look
