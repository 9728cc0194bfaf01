"""The screen while a round is played (waiting, proposal, clearing): the track
across the top; below it the scoreboard, the round's points and the notices, and
the camera picture at the right.

With more than `MERGE_ABOVE` scorers the scoreboard and the points become one
table (totals beside the points) so that twelve rows can be drawn large. While a
proposal waits, or the table is merged, the points keep their column and the
notices go under the camera (or above the points when there is no camera);
otherwise the notices come first, with the last round's points below them where
they still fit at a legible size. Parts
with nothing to show give their room to the others, and the notices take only the
height they need.
"""

import pygame

from companion.display import breakdown, camera, layout, notices, scoreboard, track
from companion.display.theme import GOLD, Scale
from companion.display.view import ScreenView

MERGE_ABOVE = 6
"""More scorers than this share one table of totals and points."""
MOST_NOTICES_ABOVE_POINTS = 0.4
"""Of the middle column, the most the notices take above a proposal's points."""
MOST_NOTICES_ABOVE_LAST_ROUND = 0.62
"""Of the middle column, the most the notices take above the last round's points."""
LEGIBLE_ROW = 22
"""The least height of a row of points (and of the title) that reads across a table:
the last round's points give way to the notices rather than be drawn smaller."""
MOST_NOTICES_UNDER_CAMERA = 0.55
"""Of the camera column, the most the notices take under the picture."""


def draw(surface: pygame.Surface, body: pygame.Rect, view: ScreenView, s: Scale, gap: int) -> None:
    """The playing screen in `body`."""
    band, lower = layout.split_top(body, s(layout.TRACK_HEIGHT), gap)
    track.draw(surface, band, view.rabbits, view.target)
    if lower.height <= 0:
        return
    points = view.proposal or view.last_round
    merged = points is not None and len(points.lines) > MERGE_ABOVE
    middle = bool(view.notices) or points is not None
    shares: tuple[float, ...]
    if merged:
        shares = (0.72,)
    elif middle:
        shares = (0.25, 0.47)
    else:
        shares = (0.72,)
    if view.camera is not None:
        shares += (0.28,)
    elif len(shares) == 1:
        shares = (1.0,)
    columns = layout.split_columns(lower, shares, gap)
    area = columns[0] if merged else columns[1] if middle else columns[0]
    if not merged:
        scoreboard.draw(surface, columns[0], view.rabbits, s)
    waiting_notices = view.notices
    if view.camera is not None:
        right = columns[-1]
        if (view.proposal is not None or merged) and view.notices:
            wanted = notices.needed_height(view.notices, right.width, s)
            height = min(wanted, round(right.height * MOST_NOTICES_UNDER_CAMERA))
            right, below = layout.split_top(right, right.height - height - gap, gap)
            notices.draw(surface, below, view.notices, s, more=view.more_notices)
            waiting_notices = ()
        camera.draw(surface, right, view.camera, s)
    if not middle:
        return
    if points is None:
        notices.draw(surface, area, view.notices, s, more=view.more_notices)
        return
    if waiting_notices:
        most = MOST_NOTICES_ABOVE_POINTS if view.proposal else MOST_NOTICES_ABOVE_LAST_ROUND
        wanted = notices.needed_height(waiting_notices, area.width, s)
        above = min(wanted, round(area.height * most))
        legible = s(LEGIBLE_ROW) * (len(points.lines) + 2)
        if view.proposal is None and area.height - above - gap < legible:
            notices.draw(surface, area, waiting_notices, s, more=view.more_notices)
            return
        top, area = layout.split_top(area, above, gap)
        notices.draw(surface, top, waiting_notices, s, more=view.more_notices)
    edge = GOLD if view.proposal is not None else None
    breakdown.draw(surface, area, points, s, edge, view.rabbits if merged else ())
