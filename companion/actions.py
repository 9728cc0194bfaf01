"""What a player can ask of the companion, whatever they pressed to ask it.

Buttons, keys, mouse clicks and touches all end up as a `Press`, posted to the main
loop; nothing else in the program knows which of them it came from.
"""

import enum
from dataclasses import dataclass


class Action(enum.Enum):
    """One thing a player can ask for."""

    CONFIRM = "confirm"
    """Accept what is shown: the proposed score, a correction, the setup."""
    UNDO = "undo"
    """Take back the last committed round (a held button, so never by accident)."""
    NEXT = "next"
    """The next choice: the next first storyteller, the next value in the editor."""
    FIX = "fix"
    """Enter or correct a round by hand; in the editor, the next row."""
    UP = "up"
    """The row above, in the editor."""
    DOWN = "down"
    """The row below, in the editor."""
    LEFT = "left"
    """The previous value of the selected row or choice."""
    RIGHT = "right"
    """The next value of the selected row or choice."""
    PICK = "pick"
    """Select the row or player at `Press.target` (a touch or a click on it)."""
    BACK = "back"
    """Leave the editor without changing anything."""
    ABANDON = "abandon"
    """Give up the game in progress (a long hold, then Confirm): it stays in the
    journal, marked abandoned, and the table goes back to setting up a game."""
    QUIT = "quit"
    """Close the companion (the game is kept and resumes on the next start)."""


@dataclass(frozen=True)
class Press:
    """A player's request, as posted to the main loop."""

    action: Action
    """What they asked for."""
    target: int | None = None
    """For `Action.PICK`: the index of the row or player touched."""
    seen: int | None = None
    """The version of the snapshot on the screen (or the page) when it was pressed: a
    Confirm or an Undo whose meaning has changed since is not carried out. None: the
    press acts on the table as it is (a test, a script)."""
