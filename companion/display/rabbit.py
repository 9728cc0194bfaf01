"""One rabbit as a picture: head and ears in the scorer's colour (a team's rabbit is
cut into one slice per member), a label unique at the table on the head (`labels`),
and a double outline, light outside and dark inside, so that white, yellow and black
rabbits all stand out.

Sprites are cached by what they show and their size, so a frame only blits them.
"""

import functools
import math
from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import fonts, theme

HEIGHT_PER_RADIUS = 3.0
"""A rabbit with ears is this many head radii high (plus its outline)."""
EARS_WORTH_IT = 0.65
"""Ears are drawn when they cost less than this share of the head size; crowded
rabbits are drawn as heads only, which keeps them big enough to read."""


@dataclass(frozen=True)
class Look:
    """Everything a rabbit sprite depends on."""

    colours: tuple[RGB, ...]
    initials: str
    radius: int
    ears: bool


def initials(name: str, room: int) -> str:
    """Up to `room` letters naming a scorer: "A" for "Ann", "AB" for "Ann + Bob"."""
    members = [m for m in name.replace("&", "+").split("+") if m.strip()]
    letters = "".join(m.strip()[0] for m in members) or name.strip()[:1] or "?"
    return letters[:room].upper()


def labels(names: tuple[str, ...]) -> tuple[str, ...]:
    """The shortest label on each rabbit that no other rabbit at the table carries,
    so that rabbits are told apart without their colours.

    The rule, in seating order: a scorer's initial ("A" for Ann, "AB" for the team
    "Ann + Bob"), when no other scorer has that initial; else the initial and the
    first later letter of the name that makes a label no one else has yet ("Ma" for
    Margot, "Mr" for Marie-Christine, "Mx" for Maximilien), else the initial and the
    seat's number ("M3"). A scorer without a name carries its seat's number (1 for
    the first seat).
    """
    firsts = [initials(name, 3) if name.strip() else "" for name in names]
    taken: set[str] = set()
    out: list[str] = []
    for seat, (name, first) in enumerate(zip(names, firsts, strict=True), start=1):
        if not first:
            label = str(seat)
        elif firsts.count(first) == 1:
            label = first
        else:
            letters = [c.lower() for c in name.strip()[1:] if c.isalpha()]
            tried = (first + letter for letter in letters)
            label = next(
                (t for t in tried if t not in taken and t.upper() not in firsts),
                f"{first}{seat}",
            )
        taken.add(label)
        out.append(label)
    return tuple(out)


def outline_width(radius: int) -> int:
    """How thick each of the two outline rings is."""
    return max(1, round(radius / 9))


def look_for(
    box_size: tuple[int, int], colours: tuple[RGB, ...], name: str, label: str | None = None
) -> Look:
    """The largest rabbit that fits `box_size`, carrying `label` (by default the
    initials of `name` that fit)."""
    w, h = box_size
    pad = 4 / 9
    with_ears = min(w / (2 + pad), h / (HEIGHT_PER_RADIUS + pad))
    head_only = min(w, h) / (2 + pad)
    ears = with_ears >= EARS_WORTH_IT * head_only
    radius = max(3, int(with_ears if ears else head_only))
    room = 3 if radius >= 20 else 2 if radius >= 11 else 1
    shown = label if label is not None else initials(name, room)
    return Look(colours or (theme.DIM,), shown, radius, ears)


def label_px(look: Look) -> int:
    """The size the label is drawn at on the head of `look`."""
    return _label_size(look)[1]


def _label_size(look: Look) -> tuple[int, int]:
    """The width the label may take on the head and the size it is drawn at."""
    room = round(1.8 * look.radius)
    px = max(6, round(look.radius * (1.6 if len(look.initials) == 1 else 1.25)))
    return room, fonts.fitting_size(look.initials, room, px, max(6, px // 2))


def sprite_size(look: Look) -> tuple[int, int]:
    """Width and height of the sprite for `look`."""
    pad = 2 * outline_width(look.radius)
    width = 2 * look.radius + 2 * pad
    height = round(look.radius * (HEIGHT_PER_RADIUS if look.ears else 2)) + 2 * pad
    return width, height


def _ellipse(
    centre: tuple[float, float], rx: float, ry: float, tilt: float, grow: float
) -> list[tuple[float, float]]:
    points = []
    for i in range(24):
        t = 2 * math.pi * i / 24
        x, y = (rx + grow) * math.cos(t), (ry + grow) * math.sin(t)
        points.append(
            (
                centre[0] + x * math.cos(tilt) - y * math.sin(tilt),
                centre[1] + x * math.sin(tilt) + y * math.cos(tilt),
            )
        )
    return points


def _wedges(
    surface: pygame.Surface, centre: tuple[float, float], radius: int, colours: tuple[RGB, ...]
) -> None:
    if len(colours) == 1:
        pygame.draw.circle(surface, colours[0], (round(centre[0]), round(centre[1])), radius)
        return
    for i, colour in enumerate(colours):
        start = -math.pi / 2 + 2 * math.pi * i / len(colours)
        end = -math.pi / 2 + 2 * math.pi * (i + 1) / len(colours)
        steps = max(4, int(32 / len(colours)))
        arc = [
            (
                centre[0] + (radius + 0.5) * math.cos(start + (end - start) * k / steps),
                centre[1] + (radius + 0.5) * math.sin(start + (end - start) * k / steps),
            )
            for k in range(steps + 1)
        ]
        pygame.draw.polygon(surface, colour, [centre, *arc])


@functools.lru_cache(maxsize=256)
def sprite(look: Look) -> pygame.Surface:
    """The rabbit for `look` on a transparent background."""
    size = sprite_size(look)
    surface = pygame.Surface(size, pygame.SRCALPHA)
    ring = outline_width(look.radius)
    r = look.radius
    head = (size[0] / 2, size[1] - 2 * ring - r)
    ears = []
    if look.ears:
        for side, colour in ((-1, look.colours[0]), (1, look.colours[-1])):
            centre = (head[0] + side * 0.45 * r, head[1] - 1.25 * r)
            ears.append((centre, colour, side * 0.22))
    for grow, colour in ((2 * ring, theme.CHALK), (ring, theme.INK)):
        for centre, _, tilt in ears:
            pygame.draw.polygon(surface, colour, _ellipse(centre, 0.32 * r, 0.72 * r, tilt, grow))
        pygame.draw.circle(surface, colour, (round(head[0]), round(head[1])), r + grow)
    for centre, ear_colour, tilt in ears:
        pygame.draw.polygon(surface, ear_colour, _ellipse(centre, 0.32 * r, 0.72 * r, tilt, 0))
    _wedges(surface, head, r, look.colours)
    _letters(surface, look, head)
    return surface


def _letters(surface: pygame.Surface, look: Look, head: tuple[float, float]) -> None:
    room, px = _label_size(look)
    face = fonts.fit(look.initials, room, px, theme.TEXT, px)
    shadow = fonts.fit(look.initials, room, px, theme.INK, px)
    x = round(head[0] - face.get_width() / 2)
    y = round(head[1] - face.get_height() / 2 + look.radius * 0.06)
    edge = max(1, look.radius // 10)
    for dx, dy in ((-edge, 0), (edge, 0), (0, -edge), (0, edge), (edge, edge), (-edge, -edge)):
        surface.blit(shadow, (x + dx, y + dy))
    surface.blit(face, (x, y))
