"""Drawing a simulated camera frame of a scene, with the ground truth of every code in it.

A `SimCamera` hangs at one pose and keeps what does not move: the table, the board
and its tags are drawn once for the pose, the cards once per deal, each developed
through the lens and the light once; a frame then copies that and draws only what
moves (tokens, foreign codes, hands, glare, shadows) into the pieces of the frame
they touch, developing just those pieces, before the sensor's noise goes over the
whole. `render` is a camera used for one frame.

The order of random draws is fixed: the same seed gives the same frame, pixel for
pixel, from a fresh camera.
"""

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from companion.errors import SettingError
from companion.kit.layouts import Layout
from companion.sim.camera import CameraPose, View
from companion.sim.codes import PrintedCode, anchor_codes, draw_code, moving_codes
from companion.sim.effects import Conditions, develop, expose, margin_px
from companion.sim.glare import Glare, card_streaks, glare_spots
from companion.sim.hands import hands
from companion.sim.pixels import Canvas, Image, Piece, Rect, grown, overlap
from companion.sim.scene import Scene
from companion.sim.shadows import arm_shadows
from companion.sim.table import card_boxes, paint_board, paint_cards
from companion.sim.tokens import (
    bounds_of,
    draw_body,
    draw_rim,
    draw_shadow,
    shadow_outline,
    silhouette,
)
from companion.sim.truth import SimTruth, tag_truths

BOARDS_KEPT = 1
"""Boards with their tags a camera keeps, undeveloped: the board (another is drawn
only when a scene takes tags off it)."""
DEALS_KEPT = 2
"""Boards with their cards a camera keeps, undeveloped: the round's deal and the empty
table between rounds."""
DEVELOPED_KEPT = 3
"""Developed boards a camera keeps: the bare board, the round's deal, the empty table.
Each is a whole frame (36 MB at 4608x2592), so few are kept."""
SHADOW_REACH = 4
"""Pixels added round a token's outline for its soft shadow and antialiased edge."""


@dataclass(frozen=True, eq=False)
class SimFrame:
    """A simulated camera frame and its truth."""

    image: Image
    """The frame: BGR, uint8, (height, width, 3)."""
    truth: SimTruth
    """What it shows."""


@dataclass(frozen=True, eq=False)
class _Token:
    """A code as a piece of the frame: its disc (if any) and its printed square."""

    code: PrintedCode
    """The code, and the disc under it if any."""
    view: View
    """How the camera sees the table."""

    @property
    def bounds(self) -> Rect:
        """The frame rectangle the token, its side and its shadow reach."""
        outlines = [self.view.project(self.code.square)]
        if self.code.body is not None:
            outlines += [
                silhouette(self.code.body, self.view),
                shadow_outline(self.code.body, self.view),
            ]
        scale = self.view.px_per_mm(self.code.center_mm)
        return bounds_of(outlines, SHADOW_REACH + 3 * scale)

    def draw(self, canvas: Canvas) -> None:
        """Shadow, disc, code and rim, bottom up."""
        body = self.code.body
        if body is not None:
            draw_shadow(canvas, body, self.view)
            draw_body(canvas, body, self.view)
        draw_code(canvas, self.code, self.view)
        if body is not None:
            draw_rim(canvas, body, self.view)


class SimCamera:
    """A camera at one pose over the simulated table, keeping the still table between
    frames."""

    def __init__(self, pose: CameraPose) -> None:
        self.pose = pose
        self._views: dict[tuple[float, float], View] = {}
        self._boards = _Kept(BOARDS_KEPT)
        self._deals = _Kept(DEALS_KEPT)
        self._developed_deals = _Kept(DEVELOPED_KEPT)

    def view(self, layout: Layout) -> View:
        """How this camera sees a board."""
        if layout.board_mm not in self._views:
            self._views[layout.board_mm] = View(self.pose, layout.board_mm)
        return self._views[layout.board_mm]

    def shoot(
        self,
        scene: Scene,
        conditions: Conditions,
        rng: np.random.Generator,
    ) -> SimFrame:
        """The frame this camera takes of `scene` in `conditions`, with its truth.
        Everything random in it (hands, glare, shadows, noise) comes from `rng`."""
        view = self.view(scene.layout)
        still = anchor_codes(scene)
        moving = moving_codes(scene)
        _check_in_front(view, scene, [*still, *moving])
        raw = self._dealt(scene, view, still)
        frame = self._developed(scene, view, still, conditions).copy()
        pieces: list[Piece] = [_Token(code, view) for code in moving]
        shadows = arm_shadows(conditions.arm_shadows, scene, view, rng)
        glare: list[Glare] = card_streaks(conditions.glare_streaks, scene, view, rng)
        reaching = hands(conditions.hands, conditions.smear_mm, scene, view, rng)
        glare += glare_spots(
            conditions.glare_spots,
            conditions.glare_strength,
            conditions.glare_radius,
            scene,
            view,
            rng,
        )
        pieces += [*shadows, *reaching, *glare]
        _compose(frame, raw, pieces, view, conditions)
        truth = SimTruth(
            scene,
            self.pose,
            view.board_to_pinhole,
            view,
            tag_truths([*still, *moving], view, reaching, glare),
        )
        return SimFrame(expose(frame, conditions, rng), truth)

    def _board(self, scene: Scene, view: View, still: Sequence[PrintedCode]) -> Image:
        """The table, the board and its tags, undeveloped."""

        def make() -> Image:
            frame = paint_board(scene.layout, view)
            canvas = Canvas(frame, (0, 0))
            for code in still:
                draw_code(canvas, code, view)
            return frame

        return self._boards.get((scene.layout, scene.kit, scene.missing), make)

    def _dealt(self, scene: Scene, view: View, still: Sequence[PrintedCode]) -> Image:
        """The board with the scene's cards on it, undeveloped."""

        def make() -> Image:
            frame = self._board(scene, view, still).copy()
            paint_cards(frame, scene, view)
            return frame

        cards = tuple(sorted(scene.cards.items()))
        return self._deals.get((scene.layout, scene.kit, scene.missing, cards, scene.deal), make)

    def _developed(
        self, scene: Scene, view: View, still: Sequence[PrintedCode], conditions: Conditions
    ) -> Image:
        """The board with its cards as the lens and the light render them: the board
        developed once, then only where the deal's cards lie."""
        developing = conditions.developing()
        width, height = self.pose.frame_px

        def bare() -> Image:
            raw = self._board(scene, view, still)
            return develop(raw, (0, 0, width, height), self.pose.frame_px, conditions)

        def dealt() -> Image:
            frame = self._developed_deals.get(
                (scene.layout, scene.kit, scene.missing, (), None, developing), bare
            ).copy()
            raw = self._dealt(scene, view, still)
            _compose(frame, raw, [], view, conditions, card_boxes(scene, view))
            return frame

        cards = tuple(sorted(scene.cards.items()))
        key = (scene.layout, scene.kit, scene.missing, cards, scene.deal, developing)
        return self._developed_deals.get(key, dealt)


class _Kept:
    """The still tables a camera keeps of one kind, the least lately used forgotten
    first beyond `size`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, Image] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], Image]) -> Image:
        """The table kept under `key`, made (and kept) if it is not."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        image = make()
        self._kept[key] = image
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return image


def _compose(
    frame: Image,
    raw: Image,
    pieces: Sequence[Piece],
    view: View,
    conditions: Conditions,
    changed: Sequence[Rect] = (),
) -> None:
    """Draw the pieces over the still table: each piece's rectangle (with what the
    lens's blur reaches) is taken from the undeveloped table, every piece touching
    it drawn in, developed, and laid into the frame; so are the `changed` rectangles,
    where the undeveloped table differs from what the frame shows."""
    width, height = view.pose.frame_px
    whole = (0, 0, width, height)
    reach = margin_px(conditions)
    bounds = [piece.bounds for piece in pieces]
    boxes = [b for b in (overlap(grown(r, reach), whole) for r in [*bounds, *changed]) if b]
    for box in _merged(boxes):
        context = overlap(grown(box, reach), whole)
        assert context is not None
        x0, y0, x1, y1 = context
        canvas = Canvas(raw[y0:y1, x0:x1].copy(), (x0, y0))
        for piece, rect in zip(pieces, bounds, strict=True):
            if overlap(rect, context):
                piece.draw(canvas)
        developed = develop(canvas.image, context, view.pose.frame_px, conditions)
        bx0, by0, bx1, by1 = box
        frame[by0:by1, bx0:bx1] = developed[by0 - y0 : by1 - y0, bx0 - x0 : bx1 - x0]


def _merged(boxes: Sequence[Rect]) -> list[Rect]:
    """The boxes, two merged into the box round both wherever that box is no larger
    than the two apart (they overlap much, or one holds the other): drawing and
    developing a piece of the frame once is cheaper than twice."""
    merged = list(boxes)
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(merged):
            for j in range(i + 1, len(merged)):
                b = merged[j]
                union = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if _area(union) <= _area(a) + _area(b):
                    merged[i] = union
                    del merged[j]
                    joined = True
                    break
            if joined:
                break
    return merged


def _area(box: Rect) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def render(
    scene: Scene, pose: CameraPose, conditions: Conditions, rng: np.random.Generator
) -> SimFrame:
    """The frame a camera at `pose` takes of `scene` in `conditions`, with its truth.

    Everything random (hands, glare, shadows, noise) comes from `rng`, so a generator
    seeded alike gives the same frame, pixel for pixel. A camera that takes many
    frames from one pose is faster kept (`SimCamera`).
    """
    return SimCamera(pose).shoot(scene, conditions, rng)


def _check_in_front(view: View, scene: Scene, codes: Sequence[PrintedCode]) -> None:
    """Refuse a pose that puts part of the board or a code behind the camera, where
    its projection would fold it back into the frame."""
    width, height = scene.layout.board_mm
    board = np.array([(0, 0, 0), (width, 0, 0), (width, height, 0), (0, height, 0)], np.float64)
    points = np.vstack([board, *(code.square for code in codes)])
    if (view.depths(points) <= 0).any():
        raise SettingError("the camera must see the whole board and every code in front of it")
