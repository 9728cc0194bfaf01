"""A simulated table: camera frames of any board with cards, tokens and hands on it.

Tests, the benchmark and the demo check the reader against frames whose truth is
known, and a café can check its camera setup without playing a game:

```python
rng = np.random.default_rng(7)
layout = load_layout("odyssey-12")
scene = round_scene(layout, "CAFE1", game, rng, disc=Disc())
camera = SimCamera(find_lens("wide").over(layout, tilt_deg=4))
frame = camera.shoot(scene, Conditions(hands=1, light=1 / 3), rng)
frame.image          # BGR uint8, as the camera would deliver it
frame.truth.reveal   # the round the tokens stand for
frame.truth.visible_tags
```

`scene` says what lies where (and `tokens` how a disc under a tag sits in space),
`rounds` lays out a random round of a game, its tokens laid as `laying` says hands do,
`camera` where the camera is and how its lens bends the view, `lenses` the cameras
a café buys, `effects` the light and the sensor (with `glare`, `shadows` and
`hands`), `autos` the camera's hunting for focus and exposure, `looks` the named
conditions of a café table, `render` draws a frame (a `SimCamera` keeps the still
table between frames) and `truth` says what it shows; `players` are the demo's
simulated group, who lay the tokens of whole rounds the way people do.
The frame source that hands these frames to the game loop is
`companion.sources.simulated.SimulatedTable`.
"""

from companion.sim.camera import CameraPose, View
from companion.sim.effects import Conditions
from companion.sim.laying import Laying
from companion.sim.lenses import LENSES, SimLens, find_lens
from companion.sim.looks import VARIATIONS, Look, Variation, find_variation, look_with
from companion.sim.render import SimCamera, SimFrame, render
from companion.sim.rounds import round_scene
from companion.sim.scene import Disc, ForeignCode, Lay, Placement, Scene
from companion.sim.truth import Obstruction, SimTruth, TagTruth

__all__ = [
    "LENSES",
    "VARIATIONS",
    "CameraPose",
    "Conditions",
    "Disc",
    "ForeignCode",
    "Lay",
    "Laying",
    "Look",
    "Obstruction",
    "Placement",
    "Scene",
    "SimCamera",
    "SimFrame",
    "SimLens",
    "SimTruth",
    "TagTruth",
    "Variation",
    "View",
    "find_lens",
    "find_variation",
    "look_with",
    "render",
    "round_scene",
]
