"""What the simulator's tests share: the kit, seeded generators, games and a round of
Odyssey for twelve, and reading a frame's codes or a scene's tokens back as the
companion reads the table."""

import cv2
import numpy as np
import zxingcpp

from companion.colours import COLOURS
from companion.kit.layouts import load_layout
from companion.kit.tags import Role
from companion.rules import Game, Reveal, find_ruleset
from companion.sim import Scene, round_scene

KIT = "CAFE1"
QR = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
"""What the reader asks zxing-cpp for: QR codes only."""
ZXING_OFFSET = 0.5
"""zxing-cpp puts pixel centres at half-integers, the truth (like OpenCV) at integers."""


def decode(image: np.ndarray) -> dict[str, np.ndarray]:
    """Text to corners (4, 2) of every QR code zxing-cpp finds, as the reader calls it."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = zxingcpp.read_barcodes(gray, formats=QR, try_invert=False, try_downscale=False)
    corners = {}
    for code in found:
        p = code.position
        points = (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
        corners[code.text] = np.array([(q.x, q.y) for q in points], dtype=float)
    return corners


def game_of(ruleset: str, players: int, first: int = 0) -> Game:
    names = [c.name for c in COLOURS[:players]]
    return Game.start(find_ruleset(ruleset), names, names[first])


def odyssey_scene(seed: int) -> Scene:
    return round_scene(load_layout("odyssey-12"), KIT, game_of("odyssey", 12), rng(seed))


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def read_back(scene: Scene) -> Reveal:
    """The reveal the tokens of a scene say, read as the companion reads the table."""
    cards: dict[int, str] = {}
    votes: dict[str, list[tuple[int, int]]] = {}
    trap = None
    for placement in scene.tokens:
        slot = scene.layout.slot_at(placement.center_mm)
        assert slot is not None, placement
        tag = placement.tag
        if tag.role is Role.OWNER:
            assert tag.colour is not None
            cards[slot] = tag.colour
        elif tag.role is Role.VOTE:
            assert tag.colour is not None and tag.index is not None
            votes.setdefault(tag.colour, []).append((tag.index, slot))
        else:
            trap = slot
    ordered = {voter: tuple(s for _, s in sorted(cast)) for voter, cast in votes.items()}
    return Reveal(cards, ordered, trap)
