"""The printed scoring track, shared by the screen and the LED strip that both draw it."""

import math

TRACK_LENGTH = 30
"""Spaces on the printed scoring track after the start (0 to 30); scores beyond lap it."""


def lapped(position: float, length: int = TRACK_LENGTH) -> tuple[int, float]:
    """How many times a rabbit has gone round, and where on the track it stands.

    Positions up to the last space (30) are on the first lap; beyond, the track
    starts again at space 0: 30 stays on 30 (lap 0), 31 stands on 1 (lap 1), 60 on 30
    (lap 1), 61 on 1 (lap 2). Negative positions stand on the start.
    """
    position = max(position, 0.0)
    if position <= length:
        return 0, position
    laps = math.ceil(position / length) - 1
    return laps, position - laps * length
