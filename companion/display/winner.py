"""The end of the game: the winners' names large, why the game ended, the final
standings with places (shared places for equal totals), and the track still shown
above so everyone sees where the rabbits finished. When there is a phone page, its
large QR code stands at the right of the standings, where players look at the end of a
game and may look up its rounds on their phones; the winners' panel gives it the room,
the standings keep theirs.
"""

from dataclasses import dataclass

import pygame

from companion.colours import RGB
from companion.display import fonts, layout, paint, qr, theme, track, typescale
from companion.display.theme import Scale
from companion.display.typescale import Tier
from companion.display.view import ScreenView, WinnerView

PLACE_COLOURS: dict[int, RGB] = {1: theme.GOLD, 2: (210, 214, 224), 3: (214, 140, 80)}
"""Gold, silver and bronze."""


def places(totals: tuple[int, ...]) -> tuple[int, ...]:
    """Places for totals given best first: equal totals share a place (1, 1, 3)."""
    out: list[int] = []
    for i, total in enumerate(totals):
        out.append(out[-1] if i and totals[i - 1] == total else i + 1)
    return tuple(out)


def draw(surface: pygame.Surface, body: pygame.Rect, view: ScreenView, s: Scale, gap: int) -> None:
    """The winner screen in `body`."""
    if view.winner is not None and view.page is None and not _fit_beside(body, view, s, gap):
        _standings_only(surface, body, view, view.winner, s, gap)
        return
    band, lower = layout.split_top(body, s(layout.TRACK_HEIGHT * 0.8), gap)
    track.draw(surface, band, view.rabbits, view.target, s.least(Tier.DETAIL))
    if view.winner is None or lower.height <= 0:
        return
    left, right = layout.split_columns(lower, (0.5, 0.5), gap)
    if view.page is not None:
        rest, column = layout.split_right(lower, qr.block_width(view.page, s), gap)
        left, right = layout.split_right(rest, right.width, gap)
        qr.draw_block(surface, column, view.page, view.page_caption, s)
    _winners(surface, left, view.winner, s)
    with typescale.tier(Tier.SEAT):
        _standings(surface, right, view.winner, s)


def _fit_beside(body: pygame.Rect, view: ScreenView, s: Scale, gap: int) -> bool:
    """Whether the standings, beside the winners' panel under the track, show every
    name whole at the seat's size."""
    lower = layout.split_top(body, s(layout.TRACK_HEIGHT * 0.8), gap)[1]
    right = layout.split_columns(lower, (0.5, 0.5), gap)[1]
    return view.winner is None or _standing_sizes(right, view.winner, s)[1]


def _standings_only(
    surface: pygame.Surface,
    body: pygame.Rect,
    view: ScreenView,
    winner: WinnerView,
    s: Scale,
    gap: int,
) -> None:
    """On a screen too small for the winners' panel and every name beside it: the
    track as high as the standings leave room for, and the standings across the
    screen (the headline names the winners)."""
    count = len(winner.standings)
    line = fonts.line_height(s.least(Tier.SEAT))
    needed = -(-count // 2) * line + 2 * s(8) if count > 1 else line + 2 * s(8)
    high = min(s(layout.TRACK_HEIGHT * 0.8), max(0, body.height - needed - gap))
    band, lower = layout.split_top(body, high, gap)
    if band.height > 0:
        track.draw(surface, band, view.rabbits, view.target, s.least(Tier.DETAIL))
    with typescale.tier(Tier.SEAT):
        _standings(surface, lower if band.height > 0 else body, winner, s)


def _winners(surface: pygame.Surface, area: pygame.Rect, winner: WinnerView, s: Scale) -> None:
    paint.panel(surface, area, theme.PANEL, theme.GOLD, s(3), radius=s(12))
    inner = area.inflate(-2 * s(16), -2 * s(12))
    small = s.at_least(26, Tier.DETAIL)
    label = pygame.Rect(inner.x, inner.y, inner.width, fonts.line_height(small))
    heading = winner.shared_heading if len(winner.winners) > 1 else winner.heading
    paint.line(surface, heading, label, small, theme.MUTED, "center")
    detail = s.at_least(24, Tier.DETAIL)
    reason_height = 2 * fonts.line_height(detail)
    reason = pygame.Rect(inner.x, inner.bottom - reason_height, inner.width, reason_height)
    paint.paragraphs(
        surface,
        (winner.reason,),
        reason,
        detail,
        s.least(Tier.DETAIL),
        theme.MUTED,
        "center",
        centre_vertically=True,
    )
    names = pygame.Rect(inner.x, label.bottom, inner.width, reason.y - label.bottom)
    with typescale.tier(Tier.SEAT):
        paint.paragraphs(
            surface,
            (" & ".join(winner.winners),),
            names,
            max(s(84), s.least(Tier.SEAT)),
            s.least(Tier.SEAT),
            theme.GOLD,
            "center",
            centre_vertically=True,
        )


NAME_LEAST_PX = 13
"""The smallest a name in the standings is drawn, rather than cut short."""
LEGIBLE_ROW_PX = 22
"""The least design height of a line of the standings (and never less than a line of
the seat's tier of type): more players than fit are listed in two columns."""


@dataclass(frozen=True)
class _Sizes:
    columns: int
    per_column: int
    gap: int
    width: int
    row_height: int
    px: int
    chip: int
    number_width: int
    total_width: int
    name_width: int
    name_px: int


def _standing_sizes(area: pygame.Rect, winner: WinnerView, s: Scale) -> tuple[_Sizes, bool]:
    """How the standings are laid out in `area`, and whether every name is whole at the
    seat's size there."""
    inner = area.inflate(-2 * s(12), -2 * s(8))
    count = max(1, len(winner.standings))
    seat = s.least(Tier.SEAT)
    legible = max(s(LEGIBLE_ROW_PX), fonts.line_height(seat))
    columns = 2 if inner.height // count < legible else 1
    per_column = -(-count // columns)
    gap = s(16) if columns > 1 else 0
    width = (inner.width - gap * (columns - 1)) // columns
    row_height = max(1, min(max(s(48), fonts.line_height(seat)), inner.height // per_column))
    px = max(seat, round(row_height * 0.78))
    while px > 4 and fonts.line_height(px) > row_height:  # rows too low: drawn smaller
        px -= 1
    chip = max(6, round(row_height * 0.6))
    number_width = fonts.width("12", px) + s(4)
    total_width = fonts.width("88", px) + s(4)
    name_width = width - number_width - chip - total_width - 3 * s(10)
    names = tuple(name for name, _, _ in winner.standings)
    name_px = fonts.common_size(names, name_width, px, min(px, max(seat, NAME_LEAST_PX)))
    whole = name_px >= seat and all(fonts.width(n, name_px) <= name_width for n in names)
    sizes = _Sizes(
        columns,
        per_column,
        gap,
        width,
        row_height,
        px,
        chip,
        number_width,
        total_width,
        name_width,
        name_px,
    )
    return sizes, whole


def _standings(surface: pygame.Surface, area: pygame.Rect, winner: WinnerView, s: Scale) -> None:
    paint.panel(surface, area)
    inner = area.inflate(-2 * s(12), -2 * s(8))
    if not winner.standings:
        return
    z, _ = _standing_sizes(area, winner, s)
    ranks = places(tuple(total for _, _, total in winner.standings))
    for i, ((name, colours, total), place) in enumerate(zip(winner.standings, ranks, strict=True)):
        column, line = divmod(i, z.per_column)
        left = inner.x + column * (z.width + z.gap)
        row = pygame.Rect(left, inner.y + line * z.row_height, z.width, z.row_height)
        number = pygame.Rect(row.x, row.y, z.number_width, row.height)
        colour = PLACE_COLOURS.get(place, theme.MUTED)
        paint.line(surface, str(place), number, z.px, colour, "right", z.px)
        swatch = pygame.Rect(number.right + s(10), row.centery - z.chip // 2, z.chip, z.chip)
        paint.swatch(surface, swatch, colours)
        name_box = pygame.Rect(swatch.right + s(10), row.y, z.name_width, row.height)
        paint.line(surface, name, name_box, z.name_px, theme.TEXT, "left", z.name_px)
        points = pygame.Rect(row.right - z.total_width, row.y, z.total_width, row.height)
        paint.line(surface, str(total), points, z.px, theme.TEXT, "right", z.px)
