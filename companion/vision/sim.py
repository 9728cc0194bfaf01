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

`sim_scene` says what lies where, `sim_camera` where the camera is, `sim_effects`
how the frame is spoiled, `sim_render` draws it and `sim_truth` says what it shows.
"""

from companion.vision.sim_camera import CameraPose
from companion.vision.sim_effects import Conditions
from companion.vision.sim_render import SimFrame, render
from companion.vision.sim_scene import ForeignCode, Placement, Scene, round_scene
from companion.vision.sim_truth import Obstruction, SimTruth, TagTruth

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
