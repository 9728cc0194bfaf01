"""Sample screens that push the display to its limits: twelve long names, teams in
split colours, rabbits sharing spaces, a lapped score, crowded notices, long
reasons, the editor, setup, the winner and a failed camera.

Run as a script to write every sample as PNG for looking at:
    python -m tests.display.sample_views [folder]
"""

import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame

from companion.actions import Action
from companion.colours import COLOURS
from companion.display.render import render
from companion.display.view import (
    RGB,
    Breakdown,
    CameraView,
    EditorRow,
    EditorView,
    Level,
    Notice,
    OnScreenButton,
    Rabbit,
    ScoreLine,
    ScreenView,
    SetupView,
    WinnerView,
)

RGBS: tuple[RGB, ...] = tuple(c.rgb for c in COLOURS)
LONG_NAMES = (
    "Alexandrina Montgomery-Smythe",
    "Bartholomew",
    "Christabel von Hohenzollern",
    "Dmitri",
    "Evangeline Featherstonehaugh",
    "Fitzgerald O'Donnell",
    "Guinevere",
    "Hieronymus Bosch-Bakker",
    "Isambard Kingdom",
    "Jacqueline Desrosiers",
    "Konstantinos Papadopoulos",
    "Leocadia",
)
SHORT_NAMES = ("Ann", "Bob", "Cleo")
PLAY_BUTTONS = (
    OnScreenButton("Confirm", Action.CONFIRM),
    OnScreenButton("Undo", Action.UNDO, enabled=False),
    OnScreenButton("Fix by hand", Action.FIX),
    OnScreenButton("Quit", Action.QUIT),
)
REASONS = (
    "+3 storyteller: some found the card, not all",
    "+1 vote from Bartholomew on their card",
    "+1 vote from Guinevere on their card",
    "+1 vote from Leocadia on their card",
    "+2 bonus: found the storyteller's card",
)


def camera_picture(width: int = 320, height: int = 240) -> npt.NDArray[np.uint8]:
    """A small BGR picture: green felt with cards and a red and a blue square."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:, :] = (40, 110, 30)
    for i in range(6):
        x = 20 + i * 48
        image[60:160, x : x + 38] = (230, 230, 230)
    image[20:40, 20:40] = (0, 0, 255)
    image[20:40, 60:80] = (255, 0, 0)
    return image


def _camera() -> CameraView:
    return CameraView(camera_picture(), "camera: simulated table, 10 fps", True)


def _rabbits(names: tuple[str, ...], totals: tuple[int, ...], teller: int) -> tuple[Rabbit, ...]:
    return tuple(
        Rabbit(name, (RGBS[i],), total, float(total), storyteller=i == teller)
        for i, (name, total) in enumerate(zip(names, totals, strict=True))
    )


def _breakdown(title: str, names: tuple[str, ...], reasons: int) -> Breakdown:
    return Breakdown(
        title,
        tuple(
            ScoreLine(name, (RGBS[i],), (i * 2) % 6, REASONS[: max(0, reasons - i % 3)])
            for i, name in enumerate(names)
        ),
    )


def twelve_players() -> ScreenView:
    """Twelve players with long names, mid-game, a proposal with reasons, a camera."""
    totals = (12, 15, 12, 9, 21, 15, 3, 27, 12, 18, 6, 24)
    return ScreenView(
        title="Dixit Odyssey - round 14",
        headline="Proposed score: press Confirm, or fix it by hand",
        rabbits=_rabbits(LONG_NAMES, totals, teller=4),
        notices=(Notice("Seen a QR code that is not ours: ignored", Level.INFO),),
        proposal=_breakdown("Proposed score: round 14", LONG_NAMES, 3),
        camera=_camera(),
        buttons=PLAY_BUTTONS,
        countdown=7.4,
        footer="deck: 24 cards left - journal: cafe-table-3.sqlite",
    )


def three_players() -> ScreenView:
    """Three players waiting for votes, the last round shown."""
    return ScreenView(
        title="Dixit (first edition) - round 3",
        headline="Waiting for Bob and Cleo to vote",
        rabbits=_rabbits(SHORT_NAMES, (7, 4, 10), teller=0),
        notices=(
            Notice("Bob still has to vote", Level.WAITING),
            Notice("Cleo still has to vote", Level.WAITING),
        ),
        last_round=_breakdown("Round 2", SHORT_NAMES, 4),
        camera=_camera(),
        buttons=(
            OnScreenButton("Confirm", Action.CONFIRM, enabled=False),
            OnScreenButton("Undo", Action.UNDO),
            OnScreenButton("Fix by hand", Action.FIX),
        ),
        footer="3 players: two cards each",
    )


def teams() -> ScreenView:
    """Four teams of two in split colours, two teams on one space, one moving."""
    names = ("Ann + Bob", "Cleo + Dan", "Eve + Finn", "Gus + Hana")
    totals = (8, 8, 13, 5)
    rabbits = tuple(
        Rabbit(
            name,
            (RGBS[2 * i], RGBS[2 * i + 1]),
            total,
            total - 1.4 if i == 2 else float(total),
            storyteller=i == 1,
        )
        for i, (name, total) in enumerate(zip(names, totals, strict=True))
    )
    return ScreenView(
        title="Dixit Party, teams - round 6",
        headline="Round 6 scored: clear the table for round 7",
        rabbits=rabbits,
        last_round=Breakdown(
            "Round 6",
            tuple(
                ScoreLine(r.name, r.colours, 3 - i % 2 * 3, REASONS[:2])
                for i, r in enumerate(rabbits)
            ),
        ),
        buttons=(OnScreenButton("Undo", Action.UNDO), OnScreenButton("Fix by hand", Action.FIX)),
    )


def crowded() -> ScreenView:
    """All twelve rabbits on space 0: the start of a big game."""
    return ScreenView(
        title="Dixit Odyssey - round 1",
        headline="Alexandrina tells: lay your cards face down",
        rabbits=_rabbits(LONG_NAMES, (0,) * 12, teller=0),
        camera=_camera(),
        buttons=PLAY_BUTTONS,
    )


def sharing() -> ScreenView:
    """Rabbits sharing spaces in groups of two to five, one lapped (34 next to 4)."""
    totals = (4, 34, 4, 17, 17, 17, 17, 17, 29, 29, 30, 4)
    return ScreenView(
        title="Dixit Odyssey - round 11, playing on past 30",
        headline="Evangeline tells: lay your cards face down",
        rabbits=_rabbits(LONG_NAMES, totals, teller=4),
        buttons=PLAY_BUTTONS,
        target=None,
    )


def lapped() -> ScreenView:
    """A score of 34 beside a score of 4, a target of 40."""
    return ScreenView(
        title="House rules - to 40 points",
        headline="Cleo tells: lay your cards face down",
        rabbits=_rabbits(SHORT_NAMES, (34, 4, 22), teller=2),
        buttons=PLAY_BUTTONS,
        target=40,
    )


def many_notices() -> ScreenView:
    """More notices than fit, in mixed order, with long words."""
    notices = tuple(
        Notice(text, level)
        for text, level in (
            ("Seen a QR code that is not ours: ignored", Level.INFO),
            ("Blue voted for their own card, slot 2", Level.PROBLEM),
            ("Alexandrina Montgomery-Smythe still has to lay an owner token", Level.WAITING),
            ("Two owner tokens on slot 5: Red and Green", Level.PROBLEM),
            ("Dmitri still has to vote", Level.WAITING),
            ("Guinevere still has to vote", Level.WAITING),
            ("Camera: exposure changed", Level.INFO),
            ("Hieronymus Bosch-Bakker's vote lies between slots 3 and 4: move it", Level.PROBLEM),
            ("Leocadia still has to vote", Level.WAITING),
            ("Isambard still has to vote", Level.WAITING),
            ("Konstantinos still has to vote", Level.WAITING),
            ("Supercalifragilisticexpialidociouslylongwordwithoutanyspaces", Level.INFO),
        )
    )
    return ScreenView(
        title="Dixit Odyssey - round 6",
        headline="The table is not ready to score: put right what is shown in red",
        rabbits=_rabbits(LONG_NAMES, (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), teller=7),
        notices=notices,
        last_round=_breakdown("Round 5", LONG_NAMES, 2),
        camera=_camera(),
        buttons=PLAY_BUTTONS,
    )


def long_reasons() -> ScreenView:
    """A proposal where each scorer has five reasons, and a very long headline."""
    return ScreenView(
        title="Dixit (first edition) - round 8",
        headline=(
            "Proposed score for round 8, where everyone found the storyteller's card so "
            "the storyteller scores nothing and everyone else scores two"
        ),
        rabbits=_rabbits(SHORT_NAMES, (14, 12, 16), teller=1),
        notices=(Notice("Confirming by itself in 3 seconds", Level.INFO),),
        proposal=_breakdown("Proposed score: round 8", SHORT_NAMES, 5),
        buttons=PLAY_BUTTONS,
        countdown=2.2,
    )


def editor() -> ScreenView:
    """The round editor for twelve players with votes, problems and a preview."""
    rows = [EditorRow("Round", "14 (playing now)", False)]
    rows += [
        EditorRow(f"{n.split()[0]}'s card", f"slot {i + 1}", False)
        for i, n in enumerate(LONG_NAMES)
    ]
    rows += [
        EditorRow(f"{n.split()[0]}'s vote", "none" if i % 4 else f"slot {12 - i}", i == 3)
        for i, n in enumerate(LONG_NAMES)
    ]
    rows.append(EditorRow("Trap", "none", False))
    return ScreenView(
        title="Dixit Odyssey - round 14",
        headline="Correct the round, then press Confirm",
        rabbits=_rabbits(LONG_NAMES, (3,) * 12, teller=0),
        buttons=(
            OnScreenButton("Confirm", Action.CONFIRM, enabled=False),
            OnScreenButton("Next row", Action.FIX),
            OnScreenButton("Back", Action.BACK),
        ),
        editor=EditorView(
            "Correct round 14",
            tuple(rows),
            (
                "Bartholomew has not voted",
                "Dmitri voted for their own card, slot 4",
            ),
            _breakdown("Score as entered", LONG_NAMES[:6], 2),
        ),
    )


def small_editor() -> ScreenView:
    """The editor for three players, legal, with its preview."""
    rows = (
        EditorRow("Round", "5 (playing now)", False),
        EditorRow("Ann's card", "slot 1", False),
        EditorRow("Bob's card", "slot 3", True),
        EditorRow("Cleo's card", "slot 2", False),
        EditorRow("Bob's vote", "slot 1", False),
        EditorRow("Cleo's vote", "slot 1", False),
    )
    return ScreenView(
        title="Dixit - round 5",
        headline="Enter round 5 by hand",
        rabbits=_rabbits(SHORT_NAMES, (3, 4, 5), teller=0),
        buttons=(
            OnScreenButton("Confirm", Action.CONFIRM),
            OnScreenButton("Next row", Action.FIX),
            OnScreenButton("Back", Action.BACK),
        ),
        editor=EditorView(
            "Enter round 5 by hand", rows, (), _breakdown("Score as entered", SHORT_NAMES, 2)
        ),
    )


def setup() -> ScreenView:
    """Choosing the first storyteller among twelve."""
    return ScreenView(
        title="Dixit Odyssey - new game",
        headline="Who tells first?",
        rabbits=_rabbits(LONG_NAMES, (0,) * 12, teller=5),
        buttons=(OnScreenButton("Start", Action.CONFIRM), OnScreenButton("Next", Action.NEXT)),
        setup=SetupView(
            "Dixit Odyssey, to 30 points",
            tuple((name, RGBS[i]) for i, name in enumerate(LONG_NAMES)),
            5,
            "Press Next, touch a name, or lay your owner token on a card",
        ),
    )


def small_setup() -> ScreenView:
    """Choosing the first storyteller among three."""
    return ScreenView(
        title="Dixit - new game",
        headline="Who tells first?",
        rabbits=_rabbits(SHORT_NAMES, (0, 0, 0), teller=0),
        buttons=(OnScreenButton("Start", Action.CONFIRM), OnScreenButton("Next", Action.NEXT)),
        setup=SetupView(
            "Dixit (first edition), to 30 points",
            tuple((name, RGBS[i]) for i, name in enumerate(SHORT_NAMES)),
            0,
            "Press Next, touch a name, or lay your owner token on a card",
        ),
    )


def winner() -> ScreenView:
    """The end of a twelve-player game with a shared win."""
    totals = (31, 31, 28, 27, 25, 22, 22, 20, 18, 15, 12, 9)
    standings = tuple((name, (RGBS[i],), totals[i]) for i, name in enumerate(LONG_NAMES))
    return ScreenView(
        title="Dixit Odyssey - game over after round 16",
        headline="Alexandrina and Bartholomew win!",
        rabbits=_rabbits(LONG_NAMES, totals, teller=-1),
        buttons=(OnScreenButton("New game", Action.CONFIRM), OnScreenButton("Quit", Action.QUIT)),
        winner=WinnerView(
            (LONG_NAMES[0], LONG_NAMES[1]),
            "a score reached 30 after round 16",
            standings,
        ),
    )


def small_winner() -> ScreenView:
    """The end of a three-player game ended by turns (no target)."""
    return ScreenView(
        title="Dixit - game over after round 9",
        headline="Cleo wins!",
        rabbits=_rabbits(SHORT_NAMES, (18, 22, 25), teller=-1),
        buttons=(OnScreenButton("New game", Action.CONFIRM),),
        winner=WinnerView(
            ("Cleo",),
            "the deck ran out after round 9",
            (("Cleo", (RGBS[2],), 25), ("Bob", (RGBS[1],), 22), ("Ann", (RGBS[0],), 18)),
        ),
        target=None,
    )


def camera_failed() -> ScreenView:
    """The camera has failed; the status says what to do."""
    return ScreenView(
        title="Dixit - round 2",
        headline="The camera has stopped: score by hand or check the cable",
        rabbits=_rabbits(SHORT_NAMES, (3, 0, 4), teller=1),
        notices=(Notice("No picture from the camera for 10 seconds", Level.PROBLEM),),
        camera=CameraView(
            None,
            "camera: picamera2 stopped (no frames for 10 s); check the ribbon cable, then restart",
            False,
        ),
        buttons=PLAY_BUTTONS,
    )


def no_picture_yet() -> ScreenView:
    """A camera that works but has no frame yet, no buttons, nothing else."""
    return ScreenView(
        title="Dixit",
        headline="Starting the camera",
        rabbits=(),
        camera=CameraView(None, "camera: opening /dev/video0", True),
    )


SAMPLES = {
    "twelve-players": twelve_players,
    "three-players": three_players,
    "teams": teams,
    "crowded": crowded,
    "sharing": sharing,
    "lapped": lapped,
    "many-notices": many_notices,
    "long-reasons": long_reasons,
    "editor": editor,
    "small-editor": small_editor,
    "setup": setup,
    "small-setup": small_setup,
    "winner": winner,
    "small-winner": small_winner,
    "camera-failed": camera_failed,
    "no-picture-yet": no_picture_yet,
}
"""Every sample by name."""
TWELVE_PLAYER_SAMPLES = (
    "twelve-players",
    "crowded",
    "sharing",
    "many-notices",
    "editor",
    "setup",
    "winner",
)
"""The samples also looked at on the 7" screen."""


def write_all(folder: Path) -> list[Path]:
    """Every sample as PNG at 1280x720, the twelve-player ones also at 800x480."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in SAMPLES.items():
        sizes = [(1280, 720)] + ([(800, 480)] if name in TWELVE_PLAYER_SAMPLES else [])
        for size in sizes:
            surface = pygame.Surface(size)
            render(build(), surface)
            path = folder / f"{name}-{size[0]}x{size[1]}.png"
            pygame.image.save(surface, str(path))
            written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/screens")):
        print(written_path)
