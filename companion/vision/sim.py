"""A simulated table: camera frames of any board with cards, tokens and hands on it.

Tests, the benchmark and the demo check the reader against frames whose truth is
known, and a café can check its camera setup without playing a game:

```python
rng = np.random.default_rng(7)
scene = round_scene(load_layout("odyssey-12"), "CAFE1", game, rng)
frame = render(scene, CameraPose(), Conditions(hands=1), rng)
frame.image          # BGR uint8, as the camera would deliver it
frame.truth.reveal   # the round the tokens stand for
frame.truth.visible_tags
```

`sim_scene` holds what lies where and the camera geometry; `sim_render` draws.
"""

from companion.vision.sim_render import Conditions, SimFrame, render
from companion.vision.sim_scene import (
    CameraPose,
    ForeignCode,
    Obstruction,
    Placement,
    Scene,
    SimTruth,
    TagTruth,
    round_scene,
)

__all__ = [
    "CameraPose",
    "Conditions",
    "ForeignCode",
    "Obstruction",
    "Placement",
    "Scene",
    "SimFrame",
    "SimTruth",
    "TagTruth",
    "render",
    "round_scene",
]
