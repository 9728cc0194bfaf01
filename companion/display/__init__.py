"""The screen beside the board: draws a `ScreenView` with pygame and turns keys,
clicks and touches into presses.

pygame prints a greeting on import; the companion runs as a service whose log should
hold only its own lines, so the greeting is switched off before anything here can
import pygame.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
