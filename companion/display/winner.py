"""The end of the game: the winners' names large, why the game ended, the final
standings with places (shared places for equal totals), and the track still shown
above so everyone sees where the rabbits finished. When there is a phone page, its
large QR code stands at the right of the standings, where players look at the end of a
game and may look up its rounds on their phones; the winners' panel gives it the room,
the standings keep theirs.
"""

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
    band, lower = layout.split_top(body, s(layout.TRACK_HEIGHT * 0.8), gap)
    track.draw(surface, band, view.rabbits, view.target)
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


def _winners(surface: pygame.Surface, area: pygame.Rect, winner: WinnerView, s: Scale) -> None:
    paint.panel(surface, area, theme.PANEL, theme.GOLD, s(3), radius=s(12))
    inner = area.inflate(-2 * s(16), -2 * s(12))
    label = pygame.Rect(inner.x, inner.y, inner.width, fonts.line_height(s(26)))
    heading = winner.shared_heading if len(winner.winners) > 1 else winner.heading
    paint.line(surface, heading, label, s(26), theme.MUTED, "center")
    reason_height = 2 * fonts.line_height(s(24))
    reason = pygame.Rect(inner.x, inner.bottom - reason_height, inner.width, reason_height)
    paint.paragraphs(
        surface,
        (winner.reason,),
        reason,
        s(24),
        s(14),
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
            s(84),
            s(24),
            theme.GOLD,
            "center",
            centre_vertically=True,
        )


NAME_LEAST_PX = 13
"""The smallest a name in the standings is drawn, rather than cut short."""
LEGIBLE_ROW_PX = 22
"""The least design height of a line of the standings (and never less than a line of
the seat's tier of type): more players than fit are listed in two columns."""


def _standings(surface: pygame.Surface, area: pygame.Rect, winner: WinnerView, s: Scale) -> None:
    paint.panel(surface, area)
    inner = area.inflate(-2 * s(12), -2 * s(8))
    if not winner.standings:
        return
    count = len(winner.standings)
    seat = s.least(Tier.SEAT)
    legible = max(s(LEGIBLE_ROW_PX), fonts.line_height(seat))
    columns = 2 if inner.height // count < legible else 1
    per_column = -(-count // columns)
    gap = s(16) if columns > 1 else 0
    width = (inner.width - gap * (columns - 1)) // columns
    row_height = min(max(s(48), fonts.line_height(seat)), inner.height // per_column)
    px = max(seat, round(row_height * 0.78))
    ranks = places(tuple(total for _, _, total in winner.standings))
    chip = max(6, round(row_height * 0.6))
    number_width = fonts.width("12", px) + s(4)
    total_width = fonts.width("88", px) + s(4)
    name_width = width - number_width - chip - total_width - 3 * s(10)
    names = tuple(name for name, _, _ in winner.standings)
    name_px = fonts.common_size(names, name_width, px, max(seat, min(px, NAME_LEAST_PX)))
    for i, ((name, colours, total), place) in enumerate(zip(winner.standings, ranks, strict=True)):
        column, line = divmod(i, per_column)
        left = inner.x + column * (width + gap)
        row = pygame.Rect(left, inner.y + line * row_height, width, row_height)
        number = pygame.Rect(row.x, row.y, number_width, row.height)
        colour = PLACE_COLOURS.get(place, theme.MUTED)
        paint.line(surface, str(place), number, px, colour, "right", px // 2)
        swatch = pygame.Rect(number.right + s(10), row.centery - chip // 2, chip, chip)
        paint.swatch(surface, swatch, colours)
        name_box = pygame.Rect(swatch.right + s(10), row.y, name_width, row.height)
        paint.line(surface, name, name_box, name_px, theme.TEXT, "left", name_px)
        points = pygame.Rect(row.right - total_width, row.y, total_width, row.height)
        paint.line(surface, str(total), points, px, theme.TEXT, "right", px // 2)
