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

`scene` says what lies where, `camera` where the camera is, `effects` how the
frame is spoiled, `render` draws it and `truth` says what it shows; `players` are
the demo's simulated group, who lay the tokens of whole rounds the way people do.
The frame source that hands these frames to the game loop is
`companion.sources.simulated.SimulatedTable`.
"""

from companion.sim.camera import CameraPose
from companion.sim.effects import Conditions
from companion.sim.render import SimFrame, render
from companion.sim.scene import ForeignCode, Lay, Placement, Scene, round_scene
from companion.sim.truth import Obstruction, SimTruth, TagTruth

__all__ = [
    "CameraPose",
    "Conditions",
    "ForeignCode",
    "Lay",
    "Obstruction",
    "Placement",
    "Scene",
    "SimFrame",
    "SimTruth",
    "TagTruth",
    "render",
    "round_scene",
]
