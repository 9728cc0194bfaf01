"""Camera height per layout and lens, checked against the simulated camera, and the
hardware guide checked against the code it describes."""

import dataclasses
import importlib.util
import math
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from companion.controls.buttons import ButtonPins
from companion.controls.light import LightPins
from companion.errors import CompanionError, SettingError
from companion.kit.layouts import Layout, layout_names, load_layout
from companion.kit.mounting import (
    DEFAULT_MARGIN,
    HEIGHT_STEP_MM,
    LENSES,
    Lens,
    TagGroup,
    find_lens,
    fit_height_mm,
    mounting,
    px_per_module,
    smallest_tag,
)
from companion.kit.tags import MIN_PX_PER_MODULE, parse_tag
from companion.sim import CameraPose, Conditions, Scene, render
from companion.sim.camera import project
from companion.vision.calibration import calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import to_gray

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
SCRIPT = HARDWARE / "make_camera_table.py"
GUIDE = ROOT / "docs" / "hardware.md"
"""The hardware guide, whose camera and wiring tables are checked here."""
SMALL_BOARD = load_layout(str(ROOT / "tests" / "vision" / "small-4.json"))
"""The compact board the reader's tests render quickly."""
SIM_FRAME = (2304, 1296)


def sim_lens(frame_px: tuple[int, int] = SIM_FRAME, hfov_deg: float = 66.0) -> Lens:
    """The simulator's camera as a `Lens`: square pixels, so its vertical field follows
    from the horizontal one and the frame's shape."""
    width, height = frame_px
    half = math.tan(math.radians(hfov_deg) / 2) * height / width
    return Lens("simulated", frame_px, hfov_deg, 2 * math.degrees(math.atan(half)))


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_camera_table", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


# ---- the geometry ----


@given(
    height=st.floats(150, 3000),
    size=st.floats(10, 150),
    where=st.tuples(st.floats(0.1, 0.9), st.floats(0.1, 0.9)),
    hfov=st.floats(40, 110),
)
def test_pixels_per_module_agree_with_the_simulated_camera_anywhere_on_the_board(
    height: float, size: float, where: tuple[float, float], hfov: float
) -> None:
    board = (800.0, 500.0)
    pose = CameraPose(height_mm=height, tilt_deg=0.0, hfov_deg=hfov, frame_px=SIM_FRAME)
    point = (board[0] * where[0], board[1] * where[1])
    seen = pose.px_per_module(board, point, size)
    assert px_per_module(sim_lens(hfov_deg=hfov), height, size) == pytest.approx(seen, rel=1e-6)


@given(low=st.floats(100, 3000), rise=st.floats(1, 2000), size=st.floats(10, 150))
def test_pixels_per_module_fall_as_the_camera_rises(low: float, rise: float, size: float) -> None:
    for lens in LENSES.values():
        assert px_per_module(lens, low + rise, size) < px_per_module(lens, low, size)


@given(
    board=st.tuples(st.floats(100, 2000), st.floats(100, 2000)),
    grow=st.tuples(st.floats(1, 3), st.floats(1, 3)),
    margin=st.floats(0, 0.3),
)
def test_a_bigger_board_never_lets_the_camera_hang_lower(
    board: tuple[float, float], grow: tuple[float, float], margin: float
) -> None:
    bigger = (board[0] * grow[0], board[1] * grow[1])
    for lens in LENSES.values():
        assert fit_height_mm(bigger, lens, margin) >= fit_height_mm(board, lens, margin)
        assert fit_height_mm(board[::-1], lens, margin) == fit_height_mm(board, lens, margin)


@given(board=st.tuples(st.floats(100, 2000), st.floats(100, 2000)), margin=st.floats(0, 0.3))
def test_from_the_fit_height_the_board_and_its_margin_just_fill_the_view(
    board: tuple[float, float], margin: float
) -> None:
    lens = LENSES["cm3"]
    needed = (board[0] * (1 + 2 * margin), board[1] * (1 + 2 * margin))

    def fits(height: float) -> bool:
        width, depth = lens.field_mm(height)
        return any(
            width >= across * (1 - 1e-9) and depth >= down * (1 - 1e-9)
            for across, down in (needed, needed[::-1])
        )

    fit = fit_height_mm(board, lens, margin)
    assert fits(fit)
    assert not fits(fit * 0.99)


def margin_in_frame(layout: Layout, height_mm: float) -> bool:
    """Whether the corners of the board's margin land inside a simulated frame taken
    straight down from `height_mm` (pixel centres at whole numbers, so edges at -0.5)."""
    bw, bh = layout.board_mm
    mx, my = bw * DEFAULT_MARGIN, bh * DEFAULT_MARGIN
    corners = [(-mx, -my), (bw + mx, -my), (bw + mx, bh + my), (-mx, bh + my)]
    pose = CameraPose(height_mm=height_mm, tilt_deg=0.0, frame_px=SIM_FRAME)
    px = project(pose.homography(layout.board_mm), corners)
    low, edge = -0.5 - 1e-6, 0.5 + 1e-6
    return bool(
        (px >= low).all()
        and (px[:, 0] <= SIM_FRAME[0] - 1 + edge).all()
        and (px[:, 1] <= SIM_FRAME[1] - 1 + edge).all()
    )


def test_at_the_fit_height_the_simulated_frame_holds_the_board_and_its_margin() -> None:
    """The simulator's own projection: the margin's corners land inside the frame from
    the fit height, and some fall outside a little lower."""
    for layout in [SMALL_BOARD, *map(load_layout, layout_names())]:
        fit = mounting(layout, sim_lens()).fit_height_mm
        assert margin_in_frame(layout, fit), layout.name
        assert not margin_in_frame(layout, fit * 0.98), layout.name


@pytest.mark.parametrize("height_mm", ["fit", 440.0, 650.0])
def test_tags_in_a_simulated_frame_span_the_predicted_pixels_per_module(
    height_mm: float | str,
) -> None:
    """Render the empty small board straight down with the Camera Module 3 preset's field,
    calibrate on it, and compare what the reader measured with the prediction."""
    lens = LENSES["cm3"].in_mode(SIM_FRAME)
    plan = mounting(SMALL_BOARD, lens)
    height = plan.fit_height_mm if height_mm == "fit" else float(height_mm)
    pose = CameraPose(height_mm=height, tilt_deg=0.0, hfov_deg=lens.hfov_deg, frame_px=SIM_FRAME)
    frame = render(
        Scene(SMALL_BOARD, "CAFE1"), pose, Conditions(jpeg_quality=None), np.random.default_rng(3)
    )
    calibration = calibrate(to_gray(frame.image), SMALL_BOARD, make_decoder(), "small-4")
    sizes = {("corner", c.corner): c.size_mm for c in SMALL_BOARD.corners}
    sizes |= {("slot", s.slot): s.tag_size_mm for s in SMALL_BOARD.slots}
    assert len(calibration.px_per_module) == len(sizes)
    for text, measured in calibration.px_per_module.items():
        tag = parse_tag(text)
        number = tag.corner if tag.corner is not None else tag.slot
        assert number is not None
        predicted = px_per_module(lens, height, sizes[(tag.role.value, number)])
        assert measured == pytest.approx(predicted, rel=0.10), text


# ---- the plan for a layout ----


@pytest.mark.parametrize("layout_name", layout_names())
@pytest.mark.parametrize("lens_name", list(LENSES))
def test_the_plan_keeps_the_smallest_tag_readable_and_the_board_in_view(
    layout_name: str, lens_name: str
) -> None:
    layout, lens = load_layout(layout_name), find_lens(lens_name)
    plan = mounting(layout, lens)
    smallest = plan.smallest.size_mm
    assert px_per_module(lens, plan.max_height_mm, smallest) == pytest.approx(MIN_PX_PER_MODULE)
    assert plan.feasible == (plan.fit_height_mm <= plan.max_height_mm)
    if plan.recommended_height_mm is None:
        assert plan.px_per_module is None
        assert "cannot" in plan.summary()
        return
    assert plan.fit_height_mm <= plan.recommended_height_mm <= plan.max_height_mm
    assert plan.recommended_height_mm < plan.fit_height_mm + HEIGHT_STEP_MM
    assert plan.px_per_module is not None and plan.px_per_module >= MIN_PX_PER_MODULE
    assert f"{plan.recommended_height_mm:.0f} mm" in plan.summary()


@given(size=st.floats(10, 100))
def test_the_height_limit_grows_in_step_with_the_smallest_tag(size: float) -> None:
    layout = dataclasses.replace(SMALL_BOARD, token_size_mm=size)
    base = dataclasses.replace(SMALL_BOARD, token_size_mm=10.0)
    lens = LENSES["cm3"]
    assert mounting(layout, lens).max_height_mm == pytest.approx(
        mounting(base, lens).max_height_mm * min(size, 26.0) / 10.0
    )


def test_the_smallest_of_tokens_corner_and_slot_tags_sets_the_reach() -> None:
    layout = SMALL_BOARD
    assert smallest_tag(layout).group is TagGroup.TOKENS
    corner = dataclasses.replace(layout.corners[2], size_mm=12.0)
    with_corner = dataclasses.replace(
        layout, corners=(*layout.corners[:2], corner, *layout.corners[3:])
    )
    assert smallest_tag(with_corner).group is TagGroup.CORNERS
    assert smallest_tag(with_corner).size_mm == 12.0
    slot = dataclasses.replace(layout.slots[0], tag_size_mm=11.0)
    with_slot = dataclasses.replace(with_corner, slots=(slot, *layout.slots[1:]))
    assert smallest_tag(with_slot).group is TagGroup.SLOTS
    assert (
        mounting(with_slot, LENSES["cm3"]).max_height_mm
        < mounting(with_corner, LENSES["cm3"]).max_height_mm
    )


def test_a_lens_that_cannot_read_a_board_says_so_and_what_would_do() -> None:
    layout, lens = load_layout("odyssey-12"), LENSES["usb-1080p"]
    plan = mounting(layout, lens)
    assert not plan.feasible
    assert plan.recommended_height_mm is None and plan.px_per_module is None
    assert "cannot read odyssey-12" in plan.summary()
    needed = math.ceil(plan.tag_needed_mm)
    grown = dataclasses.replace(
        layout,
        token_size_mm=needed,
        corners=tuple(dataclasses.replace(c, size_mm=needed) for c in layout.corners),
        slots=tuple(dataclasses.replace(s, tag_size_mm=needed) for s in layout.slots),
    )
    assert mounting(grown, lens).feasible
    shrunk = dataclasses.replace(grown, token_size_mm=needed - 1)
    assert not mounting(shrunk, lens).feasible


def test_a_binned_mode_halves_the_pixels_per_module() -> None:
    full = LENSES["cm3"]
    half = full.in_mode((2304, 1296))
    assert px_per_module(half, 700, 24) == pytest.approx(px_per_module(full, 700, 24) / 2)
    assert half.field_mm(700) == full.field_mm(700)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Lens("no frame", (0, 1080), 70, 43),
        lambda: Lens("flat", (1920, 1080), 0, 43),
        lambda: Lens("past the horizon", (1920, 1080), 70, 180),
        lambda: mounting(SMALL_BOARD, LENSES["cm3"], margin=-0.1),
        lambda: mounting(SMALL_BOARD, LENSES["cm3"], margin=1.0),
        lambda: px_per_module(LENSES["cm3"], 0, 24),
        lambda: px_per_module(LENSES["cm3"], 700, 0),
        lambda: LENSES["cm3"].field_mm(math.nan),
        lambda: find_lens("cm4"),
    ],
)
def test_settings_that_cannot_be_are_refused(make: Callable[[], object]) -> None:
    with pytest.raises(SettingError) as caught:
        make()
    assert isinstance(caught.value, CompanionError) and isinstance(caught.value, ValueError)


# ---- the hardware guide ----


def guide_table(text: str) -> str:
    script = load_script()
    start, end = text.index(script.START), text.index(script.END)
    return text[text.index("\n", start) + 1 : end]


def test_the_guide_camera_table_is_what_the_script_prints() -> None:
    printed = run_script()
    assert printed.returncode == 0, printed.stderr
    assert guide_table(GUIDE.read_text(encoding="utf-8")) == printed.stdout
    rows = [line for line in printed.stdout.splitlines() if line.startswith("| `")]
    assert len(rows) == len(layout_names()) * len(LENSES)


def test_the_script_rewrites_a_stale_table_and_refuses_a_file_without_markers(
    tmp_path: Path,
) -> None:
    script = load_script()
    stale = tmp_path / "hardware.md"
    stale.write_text(
        f"# Title\n\n{script.START}\n| old |\n{script.END}\n\nafter\n", encoding="utf-8"
    )
    written = run_script("--write", "--guide", str(stale))
    assert written.returncode == 0, written.stderr
    text = stale.read_text(encoding="utf-8")
    assert guide_table(text) == run_script().stdout
    assert text.startswith("# Title\n") and text.endswith("\nafter\n") and "| old |" not in text
    bare = tmp_path / "bare.md"
    bare.write_text("# no markers\n", encoding="utf-8")
    refused = run_script("--write", "--guide", str(bare))
    assert refused.returncode == 2 and "markers" in refused.stderr
    assert bare.read_text(encoding="utf-8") == "# no markers\n"


def test_the_script_plans_a_board_of_ones_own(tmp_path: Path) -> None:
    own = tmp_path / "my-board.json"
    own.write_text(
        (ROOT / "tests" / "vision" / "small-4.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    printed = run_script("--layout", str(own))
    assert printed.returncode == 0, printed.stderr
    height = mounting(SMALL_BOARD, LENSES["cm3"]).recommended_height_mm
    assert height is not None
    assert f"**{height / 10:g} cm**" in printed.stdout
    assert run_script("--layout", "no-such-board").returncode == 2


def wiring_rows() -> list[tuple[str, list[int], str]]:
    """(part, physical pins, signal) for each row of the guide's wiring table."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## Wiring") : text.index("## The camera")]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"\d+.*", cells[2]):
            rows.append((cells[0], [int(n) for n in re.findall(r"\d+", cells[2])], cells[3]))
    return rows


def test_the_wiring_table_matches_the_code_defaults_and_the_pin_header() -> None:
    rows = wiring_rows()
    factory = MockFactory()
    try:
        header = factory.board_info.headers["J8"].pins
        for part, pins, signal in rows:
            for pin in pins:
                assert header[pin].name == signal, f"{part}: pin {pin} is {header[pin].name}"
    finally:
        factory.close()
    by_part = {part: signal for part, _, signal in rows}
    buttons, light = ButtonPins(), LightPins()
    assert by_part["Confirm button"] == f"GPIO{buttons.confirm}"
    assert by_part["Undo button"] == f"GPIO{buttons.undo}"
    assert by_part["Next button"] == f"GPIO{buttons.next}"
    assert by_part["status light, red"] == f"GPIO{light.red}"
    assert by_part["status light, green"] == f"GPIO{light.green}"
    assert by_part["status light, blue"] == f"GPIO{light.blue}"
    assert light.common_cathode and by_part["status light, common leg"] == "GND"
