"""The screen while a round is played (waiting, proposal, clearing): the track
across the top; below it the scoreboard, the round's points and the notices, and
the camera picture at the right.

With more than `MERGE_ABOVE` scorers the scoreboard and the points become one
table (totals beside the points) so that twelve rows can be drawn large. While a
proposal waits, or the table is merged, the points keep their column and the
notices go under the camera (or above the points when there is no camera);
otherwise the notices come first, with the last round's points below them. Parts
with nothing to show give their room to the others, and the notices take only the
height they need.

The reasons behind the points are drawn whole or not at all, at a legible size (see
`breakdown_layout`). When they do not fit, the screen gives them room, in the order of
`arrangements`: the points and the scoreboard become one table even with few
scorers; the track steps down to a compact height (the table then shows every
total, so the track only has to show the race), the notices going beside it, where
a compact track leaves room; and, while a proposal waits, the camera picture goes:
the table has been read by then and the proposal is what everyone looks at. A
failed camera stays, since it says why the table cannot be read. Only then does the
table leave out repeated "0 ..." reasons, and at last cut rows short.

When even that leaves a reason or a name cut, the reasons leave the screen for the
phone page: the points are drawn as points and totals, and the table's title line
says where the reasons are (the view's `details_elsewhere`).

The last round's points get the same room but never the camera's, and never at the
cost of a notice (the notices are what the table waits for): when their reasons do
not fit, the last round is shown as points and totals only (its reasons were read
while it was proposed), and when even that leaves too little room for the notices,
the points give way to the notices and the scoreboard.

Names are kept whole too where any arrangement allows it (a long one wraps to two
lines): a name cut short is accepted only when no arrangement, and for the last
round not even its points alone, can show every name.

When there is a phone page, its small QR code stands at the right end of the track's
band, in the top right corner of the body: the track gives it its width (every
arrangement's track is at least as high as the code), and nothing else moves.
"""

import dataclasses
import functools
from dataclasses import dataclass

import pygame

from companion.display import (
    breakdown,
    breakdown_layout,
    camera,
    layout,
    notices,
    qr,
    scoreboard,
    track,
)
from companion.display.hitmap import Box, box
from companion.display.scoreboard import Standing, standings
from companion.display.theme import GOLD, Scale
from companion.display.typescale import Tier
from companion.display.view import Breakdown, Level, Notice, ScreenView

MERGE_ABOVE = 6
"""More scorers than this share one table of totals and points."""
MOST_NOTICES_ABOVE_POINTS = 0.4
"""Of the middle column, the most the notices take above a proposal's points."""
MOST_NOTICES_ABOVE_LAST_ROUND = 0.62
"""Of the middle column, the most the notices take above the last round's points."""
MOST_NOTICES_UNDER_CAMERA = 0.55
"""Of the camera column, the most the notices take under the picture."""
MOST_NOTICES_STACKED = 0.55
"""Of the room under the track, the most the notices take when stacked above the
scoreboard: a long list ends in "+N more" rather than leave the names too small to
read; but problems and what the table waits for always get their room."""
BESIDE_COMPACT_TRACK = (0.72, 0.28)
"""The shares of a compact track and of the notices beside it (above the camera
column): a compact track is wide and low, and narrowed its spaces come out about
square, which costs the rabbits nothing."""


@dataclass(frozen=True)
class Arrangement:
    """One way of sharing the screen below the header."""

    track: int
    """The track's design height."""
    merged: bool
    """Whether the scoreboard and the points are one table."""
    camera: bool
    """Whether the camera column is drawn."""


@dataclass(frozen=True)
class Parts:
    """Where each part of the playing screen goes; None for a part not drawn."""

    track: Box
    scoreboard: Box | None
    points: Box | None
    notices: Box | None
    camera: Box | None
    merged: bool
    """Whether `points` shows the totals too (there is then no scoreboard)."""
    reasons: bool = True
    """Whether `points` shows the reasons, or only the points."""
    page: Box | None = None
    """The phone page's QR code, when there is a page."""


@dataclass(frozen=True)
class _Shape:
    """What the layout depends on: not the rabbits' positions nor the camera's picture,
    so that it is worked out once and not for every frame."""

    points: Breakdown | None
    proposal: bool
    rabbits: tuple[Standing, ...]
    notices: tuple[Notice, ...]
    camera: bool
    camera_working: bool
    page: int = 0
    """The side of the phone page's QR code; 0 when there is no page."""


def draw(surface: pygame.Surface, body: pygame.Rect, view: ScreenView, s: Scale, gap: int) -> None:
    """The playing screen in `body`."""
    parts = arrange(body, view, s, gap)
    if pygame.Rect(parts.track).height > 0:
        least = s.least(Tier.DETAIL)
        track.draw(surface, pygame.Rect(parts.track), view.rabbits, view.target, least)
    if parts.scoreboard is not None:
        scoreboard.draw(surface, pygame.Rect(parts.scoreboard), view.rabbits, s)
    if parts.camera is not None and view.camera is not None:
        camera.draw(surface, pygame.Rect(parts.camera), view.camera, s)
    if parts.notices is not None:
        notices.draw(surface, pygame.Rect(parts.notices), view.notices, s, more=view.more_notices)
    points = view.proposal or view.last_round
    if parts.points is not None and points is not None:
        edge = GOLD if view.proposal is not None else None
        shown = points if parts.reasons else _without_reasons(points)
        totals = view.rabbits if parts.merged else ()
        elsewhere = "" if parts.reasons or not _has_reasons(points) else view.details_elsewhere
        breakdown.draw(surface, pygame.Rect(parts.points), shown, s, edge, totals, elsewhere)
    if parts.page is not None and view.page is not None:
        qr.draw_code(surface, pygame.Rect(parts.page), view.page, qr.SMALL_LEAST_MODULE)


def arrange(body: pygame.Rect, view: ScreenView, s: Scale, gap: int) -> Parts:
    """Where the parts of `view` go in `body`."""
    shape = _Shape(
        view.proposal or view.last_round,
        view.proposal is not None,
        standings(view.rabbits),
        view.notices,
        view.camera is not None,
        view.camera is None or view.camera.working,
        qr.small_side(view.page, s) if view.page is not None else 0,
    )
    return _arrange(box(body), s, gap, shape)


def arrangements(
    points: Breakdown, proposal: bool, camera_shown: bool, camera_working: bool
) -> tuple[Arrangement, ...]:
    """The ways to share the screen while `points` are shown, the first preferred."""
    many = len(points.lines) > MERGE_ABOVE
    heights = (layout.TRACK_HEIGHT, *layout.COMPACT_TRACK_HEIGHTS)
    tried = [Arrangement(layout.TRACK_HEIGHT, many, camera_shown)]
    if not many:
        tried.append(Arrangement(layout.TRACK_HEIGHT, True, camera_shown))
    tried += [Arrangement(height, True, camera_shown) for height in heights[1:]]
    if proposal and camera_shown and camera_working:
        tried += [Arrangement(height, True, False) for height in heights]
    return tuple(tried)


def _bare_arrangements(shape: _Shape) -> tuple[Arrangement, ...]:
    """The ways to share the screen when the points are shown without their reasons
    (which the phone page then shows): one table of totals and points, the track
    stepping down; a proposal's camera picture goes first, the last round's never."""
    heights = (layout.TRACK_HEIGHT, *layout.COMPACT_TRACK_HEIGHTS)
    camera_shown = shape.camera and not (shape.proposal and shape.camera_working)
    if shape.proposal:
        tried = [Arrangement(height, True, camera_shown) for height in heights]
        if not shape.page:
            tried.append(Arrangement(0, True, camera_shown))
        return tuple(tried)
    return (Arrangement(layout.TRACK_HEIGHT, True, camera_shown),)


def _has_reasons(points: Breakdown) -> bool:
    return any(line.reasons for line in points.lines)


def _without_reasons(points: Breakdown) -> Breakdown:
    lines = tuple(dataclasses.replace(line, reasons=()) for line in points.lines)
    return dataclasses.replace(points, lines=lines)


@functools.lru_cache(maxsize=16)
def _arrange(body: Box, s: Scale, gap: int, shape: _Shape) -> Parts:
    area = pygame.Rect(body)
    if shape.points is None:
        return _without_points(area, s, gap, shape)
    tried = arrangements(shape.points, shape.proposal, shape.camera, shape.camera_working)
    bare = dataclasses.replace(shape, points=_without_reasons(shape.points))
    for names in (True, False):
        for arrangement in tried:
            parts = _parts(area, s, gap, arrangement, shape)
            if _fits(parts, shape, s, names):
                return parts
        for arrangement in _bare_arrangements(shape):
            bare_parts = _parts(area, s, gap, arrangement, bare)
            if _fits(bare_parts, bare, s, names):
                return dataclasses.replace(bare_parts, reasons=False)
    if shape.proposal:
        return dataclasses.replace(parts, reasons=False)
    return _without_points(area, s, gap, dataclasses.replace(shape, points=None))


def _without_points(area: pygame.Rect, s: Scale, gap: int, shape: _Shape) -> Parts:
    """With no points to show: the first track height at which the scoreboard shows
    every row at the seat's size and every notice is shown; then the same without a
    working camera's picture (what players read from their seats comes first); then
    the parts stacked under a compact track, or under none (`_stacked`). When none
    shows everything, the last of those, so that every notice is whole (who the table
    waits for is named) and the scoreboard comes as close to the seat's size as it
    can."""
    heights = (layout.TRACK_HEIGHT, *layout.COMPACT_TRACK_HEIGHTS)
    tried = [Arrangement(height, False, shape.camera) for height in heights]
    if shape.camera and shape.camera_working:
        tried += [Arrangement(height, False, False) for height in heights]
    parts = _parts(area, s, gap, tried[0], shape)
    camera = shape.camera and not shape.camera_working
    stacked = [_stacked(area, s, gap, shape, height, camera) for height in heights[1:]]
    if not shape.page:
        stacked.append(_stacked(area, s, gap, shape, 0, camera))
    for arrangement in tried:
        parts = _parts(area, s, gap, arrangement, shape)
        if _all_shown(parts, shape, s):
            return parts
    for stack in stacked:
        if _all_shown(stack, shape, s):
            return stack
    return stacked[-1] if shape.notices else parts


def _all_shown(parts: Parts, shape: _Shape, s: Scale) -> bool:
    """Whether the scoreboard shows every row at the seat's size, and the notices all."""
    board = parts.scoreboard is None or scoreboard.fits(
        shape.rabbits, pygame.Rect(parts.scoreboard).size, s
    )
    listed = not shape.notices or (
        parts.notices is not None
        and notices.all_shown(shape.notices, pygame.Rect(parts.notices).size, s)
    )
    return board and listed


def _stacked(
    area: pygame.Rect, s: Scale, gap: int, shape: _Shape, track_height: int, camera: bool
) -> Parts:
    """The track `track_height` high (none at 0), the notices across the screen below
    it at the height they need, and the scoreboard across the rest; a failed camera's
    panel keeps a column at the right, a working camera's picture goes. On a small
    screen with many players, what everyone reads from the seats comes before the
    track."""
    alone = dataclasses.replace(shape, notices=())  # the track keeps its whole band
    parts = _parts(area, s, gap, Arrangement(track_height, False, False), alone)
    lower = pygame.Rect(area)
    if track_height:
        lower = layout.split_top(area, s(track_height), gap)[1]
    picture = None
    if camera:
        lower, column = layout.split_right(lower, round(lower.width * 0.28), gap)
        picture = box(column)
    listed = None
    if shape.notices:
        wanted = notices.needed_height(shape.notices, lower.width, s)
        most = round(lower.height * MOST_NOTICES_STACKED)
        urgent = tuple(n for n in shape.notices if n.level is not Level.INFO)
        least = notices.needed_height(urgent, lower.width, s) if urgent else 0
        band, lower = layout.split_top(lower, max(least, min(wanted, most)), gap)
        listed = box(band)
    board = box(lower) if lower.height > 0 else None
    return dataclasses.replace(parts, scoreboard=board, points=None, notices=listed, camera=picture)


def _fits(parts: Parts, shape: _Shape, s: Scale, names: bool) -> bool:
    """Whether the points are drawn whole in `parts` (with `names`, every name whole
    too), and, but for a proposal, every notice."""
    if parts.points is None or shape.points is None:
        return False
    size = pygame.Rect(parts.points).size
    laid = breakdown_layout.plan(size, shape.points, s, shape.rabbits if parts.merged else ())
    if not laid.whole or (names and laid.names_cut):
        return False
    if parts.scoreboard is not None and not scoreboard.fits(
        shape.rabbits, pygame.Rect(parts.scoreboard).size, s
    ):
        return False
    if shape.proposal or not shape.notices:
        return True
    return parts.notices is not None and notices.all_shown(
        shape.notices, pygame.Rect(parts.notices).size, s
    )


def _parts(area: pygame.Rect, s: Scale, gap: int, arrangement: Arrangement, shape: _Shape) -> Parts:
    """Where the parts go in `area` when the screen is shared as `arrangement` says."""
    if arrangement.track == 0:
        band, lower = pygame.Rect(area.topleft, (area.width, 0)), area
    else:
        band, lower = layout.split_top(area, s(arrangement.track), gap)
    page = None
    if shape.page:
        band, corner = layout.split_right(band, shape.page, gap)
        page = box(pygame.Rect(corner.topleft, (corner.width, min(shape.page, corner.height))))
    if lower.height <= 0:
        return Parts(box(band), None, None, None, None, arrangement.merged, page=page)
    listed: pygame.Rect | None = None
    if shape.notices and 0 < arrangement.track < layout.TRACK_HEIGHT:
        band, listed = layout.split_columns(band, BESIDE_COMPACT_TRACK, gap)
    middle = (bool(shape.notices) and listed is None) or shape.points is not None
    shares: tuple[float, ...] = (0.72,) if arrangement.merged or not middle else (0.25, 0.47)
    if arrangement.camera:
        shares += (0.28,)
    elif len(shares) == 1:
        shares = (1.0,)
    columns = layout.split_columns(lower, shares, gap)
    board = None if arrangement.merged else columns[0]
    main = columns[0] if arrangement.merged else columns[1] if middle else None
    picture = columns[-1] if arrangement.camera else None
    if listed is None and shape.notices:
        main, picture, listed = _placed_notices(shape, arrangement, main, picture, s, gap)
    return Parts(
        box(band),
        None if board is None else box(board),
        None if main is None or main.height <= 0 else box(main),
        None if listed is None else box(listed),
        None if picture is None else box(picture),
        arrangement.merged,
        page=page,
    )


def _placed_notices(
    shape: _Shape,
    arrangement: Arrangement,
    main: pygame.Rect | None,
    picture: pygame.Rect | None,
    s: Scale,
    gap: int,
) -> tuple[pygame.Rect | None, pygame.Rect | None, pygame.Rect | None]:
    """The points' and camera's room once the notices have theirs, and the notices':
    under the picture while a proposal waits or the table is merged, else above the
    points (or in the points' place when there are none)."""
    if picture is not None and (shape.proposal or arrangement.merged):
        wanted = notices.needed_height(shape.notices, picture.width, s)
        height = min(wanted, round(picture.height * MOST_NOTICES_UNDER_CAMERA))
        picture, listed = layout.split_top(picture, picture.height - height - gap, gap)
        return main, picture, listed
    if main is None or shape.points is None:
        return None, picture, main
    most = MOST_NOTICES_ABOVE_POINTS if shape.proposal else MOST_NOTICES_ABOVE_LAST_ROUND
    wanted = notices.needed_height(shape.notices, main.width, s)
    listed, main = layout.split_top(main, min(wanted, round(main.height * most)), gap)
    return main, picture, listed
