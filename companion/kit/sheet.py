"""The printable PDFs, at true size in millimetres.

- The kit sheet: every tag on A4 pages, each a piece to cut out, framed in its
  player's colour, labelled for people, outlined by a cut line.
- The play mat: one page the size of a layout's board, with its corner and slot tags
  in place and the card areas outlined and numbered, for a café to print and play on.

Codes are vector rectangles drawn from `tag_modules`, so they stay sharp on any
printer and match the PNG files module for module. Each page carries a scale bar,
because a printer that "fits to page" shrinks the tags and the camera's reach with them.
"""

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.colours import BY_NAME, RGB
from companion.kit.layouts import Layout
from companion.kit.printing import PrintedTag
from companion.kit.qr import tag_modules
from companion.kit.tags import MODULES_ACROSS, KitTag, Role, check_kit_id

if TYPE_CHECKING:  # imported where a sheet is made: it takes a third of a second
    from fpdf import FPDF

A4_MM = (210.0, 297.0)
"""Width and height of a kit sheet page."""
MARGIN_MM = 10.0
"""Page margin of the kit sheet, wider than any office printer's unprintable edge."""
HEADER_MM = 12.0
"""Height of the kit sheet's page header: title and scale bar."""
GAP_MM = 2.0
"""Space between pieces, so each has its own cut line."""
CLEAR_MM = 1.0
"""White between a tag's quiet zone and its frame or label: more light round the code."""
FRAME_MM = 1.5
"""Width of the coloured frame of a vote dial or owner token."""
LABEL_MM = 6.5
"""Height of the label block under a tag: its name, then the kit id."""
PT_MM = 25.4 / 72
"""Millimetres per typographic point."""
CAP_HEIGHT = 0.72
"""Helvetica's capital height, as a fraction of the font size."""
FONT = "Helvetica"
SCALE_PT = 7.0
"""Caption size of the kit sheet's scale bar."""
MAT_LABEL_PT = 14.0
"""Size of the mat's tag labels and scale caption, read from a seat at the table."""
MAT_TITLE_PT = 24.0
INK = (30, 30, 30)
"""Text and code colour: black, which the camera sees best."""
CUT_GREY = (140, 140, 140)
CUT_LINE_MM = 0.2
CARD_GREY = (120, 120, 120)
NUMBER_GREY = (205, 205, 205)
_EPS = 1e-6

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Piece:
    """A tag as placed on the kit sheet: what is cut out, with its top left corner."""

    printed: PrintedTag
    """The tag and its size."""
    x: float
    """Left edge on the page."""
    y: float
    """Top edge on the page."""
    width: float
    """Width of the piece, frame included."""
    height: float
    """Height of the piece: frame, tag and label."""

    @property
    def box(self) -> Box:
        """The piece's cut line: x0, y0, x1, y1."""
        return (self.x, self.y, self.x + self.width, self.y + self.height)

    @property
    def code_box(self) -> Box:
        """Where the code lies, quiet zone included: centred, at the top inside the frame."""
        size = self.printed.size_mm
        x0 = self.x + (self.width - size) / 2
        y0 = self.y + FRAME_MM + CLEAR_MM
        return (x0, y0, x0 + size, y0 + size)


def plan_sheet(printed: Sequence[PrintedTag]) -> tuple[tuple[Piece, ...], ...]:
    """The pieces of each A4 page, in kit order, left to right then top to bottom.

    A new row starts where corners give way to slots and slots to tokens, so a person
    finds each kind of tag together.
    """
    from fpdf import FPDF

    measure = FPDF(unit="mm")
    left, top = MARGIN_MM, MARGIN_MM + HEADER_MM
    right, bottom = A4_MM[0] - MARGIN_MM, A4_MM[1] - MARGIN_MM
    pages: list[tuple[Piece, ...]] = []
    page: list[Piece] = []
    x, y, row_height, group = left, top, 0.0, None
    for tag in printed:
        width, height = _piece_size(tag, measure)
        kind = "token" if tag.tag.is_token else tag.tag.role
        if x > left and (kind != group or x + width > right + _EPS):
            x, y, row_height = left, y + row_height + GAP_MM, 0.0
        if y + height > bottom + _EPS:
            pages.append(tuple(page))
            page, x, y, row_height = [], left, top, 0.0
        page.append(Piece(tag, x, y, width, height))
        x, row_height, group = x + width + GAP_MM, max(row_height, height), kind
    pages.append(tuple(page))
    return tuple(pages)


def kit_sheet(printed: Sequence[PrintedTag]) -> bytes:
    """The kit sheet PDF: every tag at its size, framed, labelled, with cut lines."""
    kit = printed[0].tag.kit
    pages = plan_sheet(printed)
    pdf = _document(A4_MM, f"Dixit companion kit {kit}")
    for number, pieces in enumerate(pages, start=1):
        pdf.add_page()
        _header(pdf, f"Dixit companion kit {kit}, page {number} of {len(pages)}")
        for piece in pieces:
            _draw_piece(pdf, piece)
    return bytes(pdf.output())


def mat_sheet(layout: Layout, kit: str) -> bytes:
    """The play mat PDF: one page of the board's size with its fixed tags in place."""
    check_kit_id(kit)
    width, height = layout.board_mm
    pdf = _document((width, height), f"Dixit companion play mat {layout.name}, kit {kit}")
    pdf.add_page()
    taken: list[Box] = []
    for slot in layout.slots:
        taken.append(_draw_card_area(pdf, slot.card_mm, slot.slot))
    fixed = [
        (KitTag(kit, Role.CORNER, corner=c.corner), c.center_mm, c.size_mm) for c in layout.corners
    ]
    fixed += [
        (KitTag(kit, Role.SLOT, slot=s.slot), s.tag_center_mm, s.tag_size_mm) for s in layout.slots
    ]
    for tag, (cx, cy), size in fixed:
        _draw_code(pdf, tag, cx - size / 2, cy - size / 2, size)
        taken.append((cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2))
        taken.append(_draw_mat_label(pdf, tag, cx, cy, size, height))
    title = f"Dixit companion play mat {layout.name}, kit {kit}"
    _title_if_free(pdf, title, (width / 2, height / 2), taken)
    return bytes(pdf.output())


def _document(size_mm: tuple[float, float], title: str) -> "FPDF":
    from fpdf import FPDF

    pdf = FPDF(orientation="P", unit="mm", format=size_mm)
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.set_title(title)
    pdf.set_creator("companion tags")
    return pdf


def _piece_size(printed: PrintedTag, measure: "FPDF") -> tuple[float, float]:
    border = FRAME_MM + CLEAR_MM
    label_width = max(
        _text_width(measure, text, pt, bold) for text, pt, bold in _label_lines(printed)
    )
    width = max(printed.size_mm, label_width) + 2 * border
    return width, printed.size_mm + LABEL_MM + 2 * border


def _label_lines(printed: PrintedTag) -> tuple[tuple[str, float, bool], ...]:
    """The label under a tag: text, size in points, bold."""
    return ((printed.label, 8.0, True), (f"kit {printed.tag.kit}", 6.0, False))


def _draw_piece(pdf: "FPDF", piece: Piece) -> None:
    printed = piece.printed
    x0, y0, x1, y1 = piece.box
    if printed.tag.colour is not None:
        _fill(pdf, piece.box, BY_NAME[printed.tag.colour].rgb)
        _fill(pdf, (x0 + FRAME_MM, y0 + FRAME_MM, x1 - FRAME_MM, y1 - FRAME_MM), (255, 255, 255))
    left, top, _, baseline = piece.code_box
    _draw_code(pdf, printed.tag, left, top, printed.size_mm)
    for text, pt, bold in _label_lines(printed):
        baseline += CLEAR_MM + CAP_HEIGHT * pt * PT_MM
        _centred_text(pdf, text, pt, bold, (x0 + x1) / 2, baseline, INK)
    pdf.set_draw_color(*CUT_GREY)
    pdf.set_line_width(CUT_LINE_MM)
    pdf.rect(x0, y0, x1 - x0, y1 - y0, style="D")


def _draw_code(pdf: "FPDF", tag: KitTag, x: float, y: float, size: float) -> None:
    """The tag's dark modules as one filled path of row runs, so neighbouring modules
    join without the hairline seams that separate rectangles show on screen."""
    module = size / MODULES_ACROSS
    with pdf.new_path() as path:
        path.style.fill_color = "#{:02x}{:02x}{:02x}".format(*INK)
        path.style.stroke_color = None
        for row, line in enumerate(tag_modules(tag)):
            col = 0
            for dark, run in itertools.groupby(line.tolist()):
                length = len(list(run))
                if dark:
                    path.rectangle(x + col * module, y + row * module, length * module, module)
                col += length


def _draw_card_area(pdf: "FPDF", card_mm: Box, slot: int) -> Box:
    x0, y0, x1, y1 = card_mm
    pdf.set_draw_color(*CARD_GREY)
    pdf.set_line_width(0.5)
    pdf.rect(x0, y0, x1 - x0, y1 - y0, style="D", round_corners=True, corner_radius=4)
    pt = 96.0
    baseline = (y0 + y1) / 2 + CAP_HEIGHT * pt * PT_MM / 2
    _centred_text(pdf, str(slot), pt, True, (x0 + x1) / 2, baseline, NUMBER_GREY)
    return card_mm


def _draw_mat_label(
    pdf: "FPDF", tag: KitTag, cx: float, cy: float, size: float, board_height: float
) -> Box:
    """The label of a fixed tag, on the side facing the middle of the board, where there
    is room: below a tag in the top half, above one in the bottom half."""
    pt = MAT_LABEL_PT
    cap = CAP_HEIGHT * pt * PT_MM
    gap = 3.0
    below = cy < board_height / 2
    baseline = cy + size / 2 + gap + cap if below else cy - size / 2 - gap
    text = PrintedTag(tag, size).label
    width = _centred_text(pdf, text, pt, True, cx, baseline, INK)
    return (cx - width / 2, baseline - cap, cx + width / 2, baseline)


def _title_if_free(pdf: "FPDF", title: str, centre: tuple[float, float], taken: list[Box]) -> None:
    """The mat's title and a 100 mm scale bar at the centre of the board, unless a card
    area, tag or label lies there (a layout of one's own may use the middle)."""
    cx, cy = centre
    length = 100.0
    width = max(
        _text_width(pdf, title, MAT_TITLE_PT, True),
        _text_width(pdf, _scale_caption(length), MAT_LABEL_PT, False),
    )
    if any(_overlap((cx - width / 2, cy - 15, cx + width / 2, cy + 12), box) for box in taken):
        return
    _centred_text(pdf, title, MAT_TITLE_PT, True, cx, cy - 6, INK)
    _scale_bar(pdf, cx, cy, length, MAT_LABEL_PT)


def _header(pdf: "FPDF", title: str) -> None:
    """The page title at the left, the scale bar at the right of the top margin."""
    pdf.set_font(FONT, "B", 10)
    pdf.set_text_color(*INK)
    pdf.text(MARGIN_MM, MARGIN_MM + 4, title)
    length = 50.0
    caption_width = _text_width(pdf, _scale_caption(length), SCALE_PT, False)
    _scale_bar(pdf, A4_MM[0] - MARGIN_MM - caption_width / 2, MARGIN_MM, length, SCALE_PT)


def _scale_bar(pdf: "FPDF", cx: float, y: float, length_mm: float, pt: float) -> None:
    """A bar of known length with a caption: the check that the print is at true size."""
    _fill(pdf, (cx - length_mm / 2, y, cx + length_mm / 2, y + 1.5), INK)
    baseline = y + 3 + CAP_HEIGHT * pt * PT_MM
    _centred_text(pdf, _scale_caption(length_mm), pt, False, cx, baseline, INK)


def _scale_caption(length_mm: float) -> str:
    return f"print at actual size (100 %): this bar must measure {length_mm:g} mm"


def _fill(pdf: "FPDF", box: Box, colour: RGB) -> None:
    x0, y0, x1, y1 = box
    pdf.set_fill_color(*colour)
    pdf.rect(x0, y0, x1 - x0, y1 - y0, style="F")


def _centred_text(
    pdf: "FPDF", text: str, pt: float, bold: bool, cx: float, baseline: float, colour: RGB
) -> float:
    """Draws text centred on `cx`; returns its width."""
    width = _text_width(pdf, text, pt, bold)
    pdf.set_text_color(*colour)
    pdf.text(cx - width / 2, baseline, text)
    return width


def _text_width(pdf: "FPDF", text: str, pt: float, bold: bool) -> float:
    pdf.set_font(FONT, "B" if bold else "", pt)
    return float(pdf.get_string_width(text))


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
