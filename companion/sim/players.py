"""Simulated players for the demo: they lay cards and tokens on the simulated table.

They play the way people do: to take their seats each lays an owner token on a card
of their own, one after another; at reveal the owner tokens go down first, then the
votes in twos and threes with hands over the board, now and then a dial on the
voter's own card that is moved once the screen complains, and the table is cleared
once the round is scored. They watch the screen and nothing else: the demo tells
them what the screen asks of them (a `Moment`) and which round of which game it is.
What they laid is kept as the truth the companion's reading is checked against.
"""

import enum
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from companion.kit.layouts import Layout
from companion.kit.tags import KitTag, Role
from companion.rules import Game, Reveal
from companion.sim.looks import CAFE, Look
from companion.sim.rounds import round_scene
from companion.sim.scene import Lay, Placement, Scene

SETTLING = 6
"""Frames each stage of laying out lasts before the next hand comes."""
MISTAKE_FRAMES = 12
"""Frames a misplaced dial lies before its player notices the screen and moves it."""
SPOT_TRIES = 200
"""Random places tried for a dial put down between the cards."""
SEAT_FRAMES = 3
"""Frames between one player laying their owner token to take a seat and the next."""
UNDER_FRAMES = (5, 12)
"""Fewest and most frames a token lies in view before another player's hand comes to
lay theirs partly over it (half a second to a little over one at 10 frames a second:
two players laying on one card reach it in turn, not in the same movement). The
shorter waits cover it before it has settled, so the screen must name it."""
TIDY_FRAMES = 40
"""Frames a round with a token lying partly over another waits to be scored before
its players, reading the screen, move the one on top aside."""


class Moment(enum.Enum):
    """What the screen asks of the players at the table."""

    SEATING = "seating"
    """Take the seats: each player lays an owner token on a card, in seat order."""
    CHOOSING = "choosing"
    """Choose who tells first (an owner token laid alone on a card)."""
    LAYING = "laying"
    """Lay out the round: owner tokens, then the votes."""
    CLEARING = "clearing"
    """Clear the table: the round is scored, or the game is over."""
    WATCHING = "watching"
    """Nothing new to do (a round being corrected by hand): go on as before."""


@dataclass(frozen=True)
class Stage:
    """One moment of laying out a round."""

    lay: Lay
    """What lies on the table."""
    frames: int
    """How long it lasts; the last stage lasts until the companion moves on."""
    whole: bool = False
    """Whether the table then holds all the players mean to lay (nothing is to be
    added, though they may still tidy it)."""


class DemoPlayers:
    """The players at a simulated table."""

    def __init__(
        self,
        lay: Callable[[Lay], None],
        layout: Layout,
        kit: str,
        colours: Mapping[str, str],
        rng: np.random.Generator,
        mistakes: float = 0.3,
        look: Look = CAFE,
    ) -> None:
        self.lay = lay
        """Puts what the players laid on the table (`SimulatedTable.lay`)."""
        self.layout = layout
        self.kit = kit
        self.look = look
        """How the tokens are made and how carelessly they are laid."""
        self.colours = dict(colours)
        """Each player's kit colour, in seating order."""
        self.rng = rng
        self.mistakes = mistakes
        self.truth: Reveal | None = None
        """What the players laid for the round being played."""
        self.mistakes_made = 0
        self.laid_out = False
        """Whether the table as last laid is the whole of what the screen asked for
        (the round's last stage): nothing more will be laid until the screen changes."""
        self._plan: tuple[Stage, ...] = ()
        self._for: tuple[object, ...] = ()
        self._frame = 0

    def act(self, moment: Moment, game: Game, game_id: int | None) -> None:
        """Lay the table for the next frame, given what the screen asks for in which
        round of which game."""
        key = (moment, game_id, len(game.played))
        if key != self._for:
            self._for = key
            self._frame = 0
            self._plan = self._plan_for(moment, game)
        stage = self._stage()
        if stage is not None:
            self.lay(stage.lay)
        self.laid_out = stage is not None and stage.whole
        self._frame += 1

    def _stage(self) -> Stage | None:
        elapsed = self._frame
        for stage in self._plan:
            if elapsed < stage.frames:
                return stage
            elapsed -= stage.frames
        return self._plan[-1] if self._plan else None

    def _plan_for(self, moment: Moment, game: Game) -> tuple[Stage, ...]:
        empty = Scene(self.layout, self.kit, disc=self.look.disc)
        match moment:
            case Moment.SEATING:
                return (Stage(Lay(empty), SETTLING), *self._seating())
            case Moment.CHOOSING:
                return (Stage(Lay(empty), SETTLING), Stage(Lay(self._first_storyteller()), 1))
            case Moment.LAYING:
                return self._round(game)
            case Moment.CLEARING:
                return (Stage(Lay(empty, hands=1), 2), Stage(Lay(empty), 1))
            case Moment.WATCHING:
                return self._plan

    def _seating(self) -> tuple[Stage, ...]:
        """The players lay their owner tokens one after another, each alone on a card:
        the first seat on slot 1, the next on slot 2, and so on (a hand over the board
        as each goes down); the last stage lasts until the companion moves on."""
        slots = sorted(self.layout.slots, key=lambda spec: spec.slot)
        tokens: list[Placement] = []
        stages: list[Stage] = []
        for colour, spec in zip(self.colours.values(), slots, strict=False):
            x0, y0, x1, y1 = spec.card_mm
            tag = KitTag(self.kit, Role.OWNER, colour=colour, index=1)
            angle = float(self.rng.uniform(-20.0, 20.0))
            tokens.append(Placement(tag, ((x0 + x1) / 2, (y0 + y1) / 2), angle))
            cards = {taken.slot: True for taken in slots[: len(tokens)]}
            scene = Scene(self.layout, self.kit, cards, tuple(tokens), disc=self.look.disc)
            stages += [Stage(Lay(scene, hands=1), 1), Stage(Lay(scene), SEAT_FRAMES)]
        return tuple(stages)

    def _first_storyteller(self) -> Scene:
        """One player's owner token alone on a card: "I tell first"."""
        colours = list(self.colours.values())
        colour = colours[int(self.rng.integers(len(colours)))]
        spec = self.layout.slots[int(self.rng.integers(len(self.layout.slots)))]
        x0, y0, x1, y1 = spec.card_mm
        token = Placement(
            KitTag(self.kit, Role.OWNER, colour=colour, index=1),
            ((x0 + x1) / 2, (y0 + y1) / 2),
            0.0,
        )
        return Scene(self.layout, self.kit, {spec.slot: True}, (token,), disc=self.look.disc)

    def _round(self, game: Game) -> tuple[Stage, ...]:
        """A round laid out in stages: owners, some votes with hands, maybe a mistake,
        then everything. A token laid partly over another comes last, after the one
        under it (two players laying dials on one card in turn): the one below lies in
        view for a moment (`UNDER_FRAMES`) before a hand lays the other over it; and if
        the round is not scored a while later, its players, reading the screen, move
        the one on top aside."""
        look = self.look
        full = round_scene(
            self.layout,
            self.kit,
            game,
            self.rng,
            self.colours,
            disc=look.disc,
            laying=look.laying,
        )
        self.truth = full.reveal
        resting = {p.resting_on for p in full.tokens if p.resting_on is not None}
        under = tuple(p for p in full.tokens if p.tag.text in resting)
        flat = tuple(p for p in full.tokens if p.resting_on is None and p not in under)
        owners = tuple(p for p in flat if p.tag.role is not Role.VOTE)
        votes = tuple(p for p in flat if p.tag.role is Role.VOTE)
        half = votes[: len(votes) // 2]
        stages = [
            Stage(Lay(replace(full, tokens=owners)), SETTLING),
            Stage(Lay(replace(full, tokens=owners + half), hands=1), 2),
            Stage(Lay(replace(full, tokens=owners + half)), SETTLING),
        ]
        laid = replace(full, tokens=owners + votes)
        if self.rng.random() < self.mistakes:
            wrong = self._own_card_vote(laid, game) or self._dial_off_the_cards(laid)
            if wrong is not None:
                self.mistakes_made += 1
                stages.append(Stage(Lay(wrong, hands=1), 2))
                stages.append(Stage(Lay(wrong), MISTAKE_FRAMES))
        if not resting:
            stages.append(Stage(Lay(full, hands=1), 2))
            return (*stages, Stage(Lay(full), 1, whole=True))
        below = replace(full, tokens=owners + votes + under)
        stages.append(Stage(Lay(laid, hands=1), 2))
        stages.append(Stage(Lay(laid), SETTLING))
        stages.append(Stage(Lay(below, hands=1), 2))
        shown = int(self.rng.integers(UNDER_FRAMES[0], UNDER_FRAMES[1] + 1))
        stages.append(Stage(Lay(below), shown))
        stages.append(Stage(Lay(full, hands=1), 2))
        stages.append(Stage(Lay(full), TIDY_FRAMES, whole=True))
        tidy = self._tidied(full)
        stages.append(Stage(Lay(tidy, hands=1), 2, whole=True))
        stages.append(Stage(Lay(tidy), 1, whole=True))
        return tuple(stages)

    def _tidied(self, full: Scene) -> Scene:
        """The table once the players have moved each token lying over another to a
        clear place on the same card, as the screen asks."""
        width = full.token_width_mm
        tokens = [p for p in full.tokens if p.resting_on is None]
        for placement in (p for p in full.tokens if p.resting_on is not None):
            spec = next(s for s in self.layout.slots if s.holds(placement.center_mm))
            x0, y0, x1, y1 = spec.card_mm
            spot = placement.center_mm
            for _ in range(SPOT_TRIES):
                tried = (
                    float(self.rng.uniform(x0 + width / 2, x1 - width / 2)),
                    float(self.rng.uniform(y0 + width / 2, y1 - width / 2)),
                )
                if all(math.dist(tried, p.center_mm) >= width for p in tokens):
                    spot = tried
                    break
            tokens.append(replace(placement, center_mm=spot, tilt_deg=0.0, resting_on=None))
        return replace(full, tokens=tuple(tokens))

    def _own_card_vote(self, full: Scene, game: Game) -> Scene | None:
        """The full table, but with one voter's dial on their own card, when the rules
        forbid that and some voter has a card of their own (half the time: the other
        half, the dial goes astray instead)."""
        scoring = game.ruleset.scoring
        if full.reveal is None or scoring.own_card_votes or self.rng.random() < 0.5:
            return None
        reveal = full.reveal
        for i, placement in enumerate(full.tokens):
            tag = placement.tag
            if tag.role is not Role.VOTE or tag.colour is None:
                continue
            player = self._player_of(tag.colour)
            own = reveal.slots_of(player) if player is not None else ()
            if not own:
                continue
            spec = next(s for s in self.layout.slots if s.slot == own[0])
            x0, _, x1, y1 = spec.card_mm
            spot = ((x0 + x1) / 2, y1 - self.layout.token_size_mm * 0.7)
            tokens = list(full.tokens)
            tokens[i] = replace(placement, center_mm=spot, angle_deg=0.0, tilt_deg=0.0)
            return replace(full, tokens=tuple(tokens))
        return None

    def _player_of(self, colour: str) -> str | None:
        return next((p for p, c in self.colours.items() if c == colour), None)

    def _dial_off_the_cards(self, full: Scene) -> Scene | None:
        """The full table, but with one vote dial put down between the cards, clear of
        every card area and board tag."""
        votes = [i for i, p in enumerate(full.tokens) if p.tag.role is Role.VOTE]
        if not votes:
            return None
        size = self.layout.token_size_mm
        width, height = self.layout.board_mm
        taken = [p.center_mm for p in full.tokens] + list(self.layout.anchors().values())
        for _ in range(SPOT_TRIES):
            spot = (
                float(self.rng.uniform(size, width - size)),
                float(self.rng.uniform(size, height - size)),
            )
            corners = [(spot[0] + dx, spot[1] + dy) for dx in (-size, size) for dy in (-size, size)]
            if any(self.layout.slot_at(c) is not None for c in (spot, *corners)):
                continue
            if all(math.dist(spot, other) > 2 * size for other in taken):
                i = votes[int(self.rng.integers(len(votes)))]
                tokens = list(full.tokens)
                tokens[i] = replace(tokens[i], center_mm=spot, angle_deg=0.0, tilt_deg=0.0)
                return replace(full, tokens=tuple(tokens))
        return None
