"""Benchmark of the table reader on simulated frames: accuracy and speed, side by side
with bare zxing-cpp and bare pyzbar on the very same frames.

    .venv/bin/python bench/vision.py [--frames N] [--seed S]

For each frame size (2304x1296 and 4608x2592) and each condition, it renders frames
of a 12-player Dixit Odyssey round with every token on the table, and prints:

- recall: kit tags read / kit tags fully visible in the frame;
- precision: kit tags read that are really there / kit tags read;
- exact: frames in which the reader put every fully visible token in its slot and
  no token in a wrong one (the bare decoders do not place tokens);
- median milliseconds per frame with the spread (10th to 90th percentile), and the
  ratio of the reader's median to each decoder's median, the reader given the same
  input (colour or grey) as that decoder, measured in this run.

"bare zxing" is `zxingcpp.read_barcodes(frame)` with its defaults; "bare zxing,
reader's options" is the same call with the options the reader uses (QR codes only,
no inverted or downscaled search), so the ratio against it is the reader's own
overhead. Rows without "grey" get the colour frame as the simulated camera delivers
it; the "grey" rows get it already converted to grey (as a camera's Y plane is), so
the conversion is out of their time; pyzbar, which takes only grey, gets grey. A
second table gives recall against pixels per module.

The camera hangs 80 cm above the 12-slot board and sees all of it. At 4608x2592 the
shipped kit (24 mm tokens) is at about 4.3 px per module there; at 2304x1296 it would
be about 2.1, so that run prints its tags about twice as large (every tag, in the same
places), as a café using that camera mode would have to; crowded cards then hide some
tokens under others, and those do not count as visible. Nothing here fails on time:
it prints what it measured.
"""

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import cv2
import numpy as np
import zxingcpp

from companion.colours import COLOURS
from companion.errors import ForeignTagError
from companion.kit.layouts import Layout, load_layout
from companion.kit.tags import parse_tag
from companion.rules import Game, find_ruleset
from companion.sim import CameraPose, Conditions, Scene, SimFrame, render, round_scene
from companion.vision.board import BoardFit
from companion.vision.calibration import Calibration, calibrate
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, to_gray

T = TypeVar("T")
Image = np.ndarray[Any, np.dtype[np.uint8]]

KIT = "BENCH"
TARGET_PPM = 4.5
"""Pixels per module the tags are printed up to where the shipped kit falls short..."""
MIN_PPM = 4.0
"""...of this, the least a camera should see."""
GREY_READER = "  reader, on the grey frame"
GREY_ZXING = "  same, on the grey frame"
ROWS = (
    "reader",
    GREY_READER,
    "bare zxing",
    "bare zxing, reader's options",
    GREY_ZXING,
    "bare pyzbar",
)
GREY_INPUT = {GREY_READER, GREY_ZXING, "bare pyzbar"}
"""Rows whose decoder got the grey frame; the others got the colour frame."""
CONDITIONS = {
    "clean": Conditions(blur_sigma_px=0.0, noise_sigma=0.0, gradient=0.0, jpeg_quality=None),
    "mild": Conditions(),
    "hard": Conditions(blur_sigma_px=1.2, noise_sigma=5.0, gradient=0.4, jpeg_quality=75),
    "hands": Conditions(hands=2),
    "glare": Conditions(glare_spots=2),
}
SIZES = ((2304, 1296), (4608, 2592))
PPM_SWEEP = (2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0)


@dataclass
class Tally:
    """Counts and timings of one decoder over a set of frames."""

    visible: int = 0
    found: int = 0
    reported: int = 0
    true_reports: int = 0
    exact: int = 0
    frames: int = 0
    ms: list[float] = dataclasses.field(default_factory=list)

    def add(self, shown: set[str], drawn: set[str], read: set[str], ms: float) -> None:
        self.frames += 1
        self.visible += len(shown)
        self.found += len(read & shown)
        self.reported += len(read)
        self.true_reports += len(read & drawn)
        self.ms.append(ms)


def bigger_tags(layout: Layout, k: float) -> Layout:
    """The same board with every tag printed k times larger, in the same places."""
    return dataclasses.replace(
        layout,
        token_size_mm=layout.token_size_mm * k,
        corners=tuple(dataclasses.replace(c, size_mm=c.size_mm * k) for c in layout.corners),
        slots=tuple(dataclasses.replace(s, tag_size_mm=s.tag_size_mm * k) for s in layout.slots),
    )


def whole_board(frame_px: tuple[int, int]) -> tuple[Layout, CameraPose]:
    """The 12-slot board seen whole from 80 cm, tags printed large enough for about
    TARGET_PPM px per module (the shipped kit where it already is)."""
    base = load_layout("odyssey-12")
    pose = CameraPose(height_mm=800.0, tilt_deg=6.0, frame_px=frame_px)
    centre = (base.board_mm[0] / 2, base.board_mm[1] / 2)
    ppm = pose.px_per_module(base.board_mm, centre, base.token_size_mm)
    return bigger_tags(base, TARGET_PPM / ppm if ppm < MIN_PPM else 1.0), pose


def truth_calibration(layout: Layout, frame: SimFrame) -> Calibration:
    """A calibration from the simulator's own geometry (for poses too poor to calibrate)."""
    px_to_mm = np.linalg.inv(frame.truth.board_to_pinhole)
    px_to_mm /= px_to_mm[2, 2]
    rows = tuple(tuple(float(v) for v in row) for row in px_to_mm)
    ppm = {t.text: t.px_per_module for t in frame.truth.tags if t.tag is not None}
    size = frame.image.shape[1], frame.image.shape[0]
    return Calibration(KIT, layout.name, size, BoardFit(rows, 0.0, 4, 4), ppm)


def timed(work: Callable[[Image], T], frame: Image) -> tuple[T, float]:
    """What `work` returns for the frame, and how many milliseconds it took."""
    started = time.perf_counter()
    result = work(frame)
    return result, (time.perf_counter() - started) * 1000


def kit_texts(texts: Sequence[str]) -> set[str]:
    """The texts that are tags of the bench kit."""
    mine = set()
    for text in texts:
        try:
            if parse_tag(text).kit == KIT:
                mine.add(text)
        except ForeignTagError:
            continue
    return mine


def measure(
    frames: Sequence[SimFrame], layout: Layout, calibration: Calibration
) -> dict[str, Tally]:
    """Run the reader and the bare decoders over the same frames."""
    reader = TableReader(calibration, layout, make_decoder())
    pyzbar = make_decoder("pyzbar")
    qr = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)

    def tuned_zxing(frame: Image) -> list[zxingcpp.Barcode]:
        return zxingcpp.read_barcodes(frame, formats=qr, try_invert=False, try_downscale=False)

    tallies = {name: Tally() for name in ROWS}
    for frame in frames:
        truth = frame.truth
        drawn = {t.text for t in truth.tags if t.tag is not None and t.tag.kit == KIT}
        shown = {t.text for t in truth.visible_tags if t.tag is not None and t.tag.kit == KIT}
        image = frame.image
        gray = to_gray(image)

        reading, ms = timed(reader.read, image)
        tallies["reader"].add(shown, drawn, set(reading.kit_texts), ms)
        grey_reading, ms = timed(reader.read, gray)
        tallies[GREY_READER].add(shown, drawn, set(grey_reading.kit_texts), ms)
        true_slot = {
            t.text: layout.slot_at(t.center_mm)
            for t in truth.tags
            if t.tag is not None and t.tag.is_token and t.tag.kit == KIT
        }
        got = {p.tag.text: p.slot for p in reading.placed}
        if all(got.get(text) == true_slot[text] for text in shown & set(true_slot)) and all(
            true_slot.get(text) == slot for text, slot in got.items()
        ):
            tallies["reader"].exact += 1

        codes, ms = timed(zxingcpp.read_barcodes, image)
        tallies["bare zxing"].add(shown, drawn, kit_texts([c.text for c in codes]), ms)
        codes, ms = timed(tuned_zxing, image)
        tallies["bare zxing, reader's options"].add(
            shown, drawn, kit_texts([c.text for c in codes]), ms
        )
        codes, ms = timed(tuned_zxing, gray)
        tallies["  same, on the grey frame"].add(
            shown, drawn, kit_texts([c.text for c in codes]), ms
        )
        detections, ms = timed(pyzbar.decode, gray)
        tallies["bare pyzbar"].add(shown, drawn, kit_texts([d.text for d in detections]), ms)
    return tallies


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:6.2f}%" if whole else "     -"


def report(title: str, tallies: dict[str, Tally]) -> None:
    colour_ms = statistics.median(tallies["reader"].ms)
    grey_ms = statistics.median(tallies[GREY_READER].ms)
    print(f"\n{title}")
    heads = ("recall", "precision", "exact", "median ms", "p10-p90 ms", "reader/this")
    print(f"  {'decoder':32s} " + " ".join(f"{h:>11s}" for h in heads))
    for name, t in tallies.items():
        median = statistics.median(t.ms)
        q = statistics.quantiles(t.ms, n=10) if len(t.ms) > 1 else [median] * 9
        exact = f"{t.exact}/{t.frames}" if name == "reader" else "-"
        reader_ms = grey_ms if name in GREY_INPUT else colour_ms
        cells = (
            percent(t.found, t.visible),
            percent(t.true_reports, t.reported),
            exact,
            f"{median:.1f}",
            f"{q[0]:.1f}-{q[-1]:.1f}",
            f"{reader_ms / median:.2f}",
        )
        print(f"  {name:32s} " + " ".join(f"{c:>11s}" for c in cells))


def round_frames(
    layout: Layout, pose: CameraPose, conditions: Conditions, count: int, rng: np.random.Generator
) -> list[SimFrame]:
    players = [c.name for c in COLOURS]
    game = Game.start(find_ruleset("odyssey"), players, players[0])
    return [
        render(round_scene(layout, KIT, game, rng), pose, conditions, rng) for _ in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=8, help="frames per condition (default 8)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    cv2.setNumThreads(1)
    print(
        f"table reader benchmark: {args.frames} frames per condition, seed {args.seed}, one thread"
    )

    for size in SIZES:
        layout, pose = whole_board(size)
        empty = render(Scene(layout, KIT), pose, CONDITIONS["mild"], rng)
        calibration = calibrate(to_gray(empty.image), layout, make_decoder(), layout.name)
        ppm = statistics.median(calibration.px_per_module.values())
        print(
            f"\n== {size[0]}x{size[1]}: tokens {layout.token_size_mm:.0f} mm, camera at "
            f"{pose.height_mm / 10:.0f} cm, tags at {ppm:.1f} px per module (median) =="
        )
        for name, conditions in CONDITIONS.items():
            frames = round_frames(layout, pose, conditions, args.frames, rng)
            tags = statistics.median(len(f.truth.visible_tags) for f in frames)
            report(
                f"{name}: {tags:.0f} codes in view per frame (median)",
                measure(frames, layout, calibration),
            )

    print("\n== recall against pixels per module (2304x1296, mild conditions, shipped kit) ==")
    print(f"  {'px/module':>9s} {'reader':>8s} {'bare zxing':>10s} {'bare pyzbar':>11s}")
    base = load_layout("odyssey-12")
    for target in PPM_SWEEP:
        pose = CameraPose(tilt_deg=6.0).with_px_per_module(
            base.board_mm, target, base.token_size_mm
        )
        frames = round_frames(base, pose, CONDITIONS["mild"], max(2, args.frames // 2), rng)
        tallies = measure(frames, base, truth_calibration(base, frames[0]))
        row = [
            percent(tallies[n].found, tallies[n].visible)
            for n in ("reader", "bare zxing", "bare pyzbar")
        ]
        print(f"  {target:9.1f} {row[0]:>8s} {row[1]:>10s} {row[2]:>11s}")


if __name__ == "__main__":
    main()
