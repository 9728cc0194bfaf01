"""Reference pictures of the main screens: each is drawn headless, at the television's
1280x720 and the 7" touch screen's 800x480, and compared with a PNG kept in
`tests/display/references/` (named like `proposal-1280x720.png`).

After a change to the screen that is meant, refresh the pictures on purpose, look at
them, and commit them with the change:

    COMPANION_REFRESH_PICTURES=1 .venv/bin/python -m pytest tests/display/test_reference_pictures.py

A missing reference fails like a changed one: pictures are never created silently.

What could make a picture differ between machines or runs, and why it does not here:
- fonts: `companion.display.fonts` draws with the Atkinson Hyperlegible file shipped
  inside the package, never a system font, so the same pygame wheel draws the same
  glyphs everywhere; another pygame release (or a distro
  pygame built against another FreeType) may hint glyphs differently and then needs a
  refresh; the failure message names the pygame and SDL_ttf versions to tell;
- clocks and animation: the views are fixed values (`tests/display/sample_views.py`),
  with fixed countdowns and rabbit positions; `render` reads nothing but the view and
  the surface size;
- the camera: a fixed synthetic picture, or none;
- SIMD: the camera thumbnail's smoothscale differs by at most 1 per channel between
  pygame's SSE and generic code (as on the Pi's ARM), which the tolerance absorbs.

The references are drawn with the pygame of `requirements/test.lock`. Another pygame
(the Pi's Debian pygame 2.1.2, in the Pi-like environment of the test command) lays
glyphs a pixel or two apart, which moves some 5 to 12% of the pixels of every screen;
there the pictures are compared by layout instead: the mean colour of each block of
`BLOCK` x `BLOCK` pixels, which text drawn a little narrower hardly moves but a panel,
a colour or a line of text that moved or went missing does.
"""

import dataclasses
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from companion.display.screen import DisplayMode, Screen
from companion.display.view import ScreenView
from companion.doctor.versions import read_lock
from tests.display import sample_views
from tests.display.reference_screens import REFERENCES, SCREENS, SIZES

REFRESH_VARIABLE = "COMPANION_REFRESH_PICTURES"
REFRESH_HINT = (
    f"to accept a meant change (or make a missing picture), refresh the references with "
    f"{REFRESH_VARIABLE}=1 .venv/bin/python -m pytest tests/display/test_reference_pictures.py"
    f" and look at them before committing"
)
LOCK = Path(__file__).parents[2] / "requirements" / "test.lock"
REFERENCE_PYGAME = next(pin.version for pin in read_lock(LOCK.read_text()) if pin.name == "pygame")
"""The pygame the references are drawn with."""
BLOCK = 16
"""The side of the blocks compared under another pygame, in pixels."""
BLOCK_SHARE_TOLERANCE = 0.05
"""Under another pygame, at most this share of blocks may have changed (by more than
`CHANNEL_TOLERANCE` in a channel of their mean colour). Measured with Debian's pygame
2.1.2 against the references: at most 3.5% (the setup screens at 1280x720, whose large
type moves most), and 0 to 1% for most screens."""

CHANNEL_TOLERANCE = 40
"""A pixel has changed when one of its channels differs by more than this (of 255).

Anti-aliasing differences (glyph edge coverage, smoothscale rounding: measured at
most 1) move a pixel by a few levels; any real change of text, colour or position
moves the pixels it touches by far more (text on the panels: 140 to 230)."""
SHARE_TOLERANCE = 0.00001
"""At most this share of pixels may have changed: 9 pixels at 1280x720, 3 at 800x480,
room for a few stray edge pixels and nothing more.

It is this strict because real changes are small: measured on the sample views, one
digit of a reason in the smallest text ("+3" to "+2") changes 9 pixels at 800x480 and
39 at 1280x720, a score digit 150 to 250, one more "!" in a notice 26 to 69. The 0.2%
one might first think of (1843 pixels at 1280x720) would let all of them through."""


@dataclass(frozen=True)
class Difference:
    """How a rendered picture differs from its reference."""

    changed: npt.NDArray[np.bool_]
    """Per pixel (width x height): whether it changed by more than CHANNEL_TOLERANCE."""

    @property
    def share(self) -> float:
        """The share of pixels changed."""
        return float(self.changed.mean())

    @property
    def within_tolerance(self) -> bool:
        """Whether the pictures are the same but for anti-aliasing."""
        return self.share <= SHARE_TOLERANCE


def pixels(surface: pygame.Surface) -> npt.NDArray[np.int16]:
    """The RGB pixels of `surface`, indexed [x, y, channel], signed for subtracting."""
    return pygame.surfarray.array3d(surface).astype(np.int16)


def compare(rendered: npt.NDArray[np.int16], reference: npt.NDArray[np.int16]) -> Difference:
    """Which pixels of two pictures of one size differ beyond anti-aliasing."""
    return Difference(np.abs(rendered - reference).max(axis=2) > CHANNEL_TOLERANCE)


def same_glyphs() -> bool:
    """Whether this pygame is the one the references were drawn with."""
    return pygame.version.ver == REFERENCE_PYGAME


def block_means(picture: npt.NDArray[np.int16]) -> npt.NDArray[np.float64]:
    """The mean colour of each whole BLOCK x BLOCK block of `picture`."""
    width, height = picture.shape[0] // BLOCK * BLOCK, picture.shape[1] // BLOCK * BLOCK
    cut = picture[:width, :height].reshape(width // BLOCK, BLOCK, height // BLOCK, BLOCK, 3)
    return cut.mean(axis=(1, 3))


def layout_changed(rendered: npt.NDArray[np.int16], reference: npt.NDArray[np.int16]) -> float:
    """The share of blocks whose mean colour changed beyond what glyphs drawn by another
    pygame move."""
    moved = np.abs(block_means(rendered) - block_means(reference)).max(axis=2)
    return float((moved > CHANNEL_TOLERANCE).mean())


def diff_picture(reference: npt.NDArray[np.int16], difference: Difference) -> pygame.Surface:
    """The reference dimmed to grey with the changed pixels in bright magenta."""
    grey = reference.mean(axis=2, keepdims=True) * 0.35
    out = np.repeat(grey, 3, axis=2).astype(np.uint8)
    out[difference.changed] = (255, 0, 255)
    return pygame.surfarray.make_surface(out)


@contextmanager
def drawn(view: ScreenView, size: tuple[int, int]) -> Iterator[Screen]:
    """A headless screen of `size` showing `view`."""
    with Screen(size, DisplayMode.HEADLESS) as screen:
        screen.show(view)
        yield screen


def versions() -> str:
    """What draws the glyphs, for telling a real change from another pygame."""
    sdl_ttf = getattr(pygame.font, "get_sdl_ttf_version", None)  # pygame 2.1.3 and later
    ttf = ".".join(map(str, sdl_ttf())) if sdl_ttf else "unknown"
    return f"pygame {pygame.version.ver}, SDL_ttf {ttf}"


def refreshing() -> bool:
    """Whether the references are being refreshed on purpose."""
    return os.environ.get(REFRESH_VARIABLE) == "1"


def check_reference(
    screen: Screen, reference: Path, out: Path, *, strict: bool | None = None
) -> str:
    """Compare what `screen` shows with the PNG `reference`; fails the test on a
    difference, writing the rendered and diff pictures into `out`. When refreshing,
    writes `reference` instead (only if its pixels changed) and says what it did.
    Pixel by pixel when `strict` (by default, when this is the references' pygame),
    else by layout."""
    if strict is None:
        strict = same_glyphs()
    stored = pixels(pygame.image.load(reference)) if reference.exists() else None
    now = pixels(screen.surface)
    if refreshing():
        if stored is not None and stored.shape == now.shape and np.array_equal(stored, now):
            return f"{reference.name} unchanged"
        reference.parent.mkdir(parents=True, exist_ok=True)
        screen.save_png(reference)
        return f"wrote {reference}"
    if stored is None:
        pytest.fail(f"no reference picture {reference}; {REFRESH_HINT}", pytrace=False)
    rendered_path = out / f"{reference.stem}.rendered.png"
    if stored.shape != now.shape:
        screen.save_png(rendered_path)
        pytest.fail(
            f"{reference.name} is {stored.shape[0]}x{stored.shape[1]} but the screen is "
            f"{now.shape[0]}x{now.shape[1]}; rendered: {rendered_path}; {REFRESH_HINT}",
            pytrace=False,
        )
    if not strict:
        share = layout_changed(now, stored)
        if share > BLOCK_SHARE_TOLERANCE:
            screen.save_png(rendered_path)
            pytest.fail(
                f"{reference.name}'s layout changed: {share:.2%} of {BLOCK}-pixel blocks "
                f"differ, allowed {BLOCK_SHARE_TOLERANCE:.0%} under {versions()} (the "
                f"references are drawn with pygame {REFERENCE_PYGAME}); rendered: "
                f"{rendered_path}",
                pytrace=False,
            )
        return f"{reference.name} has the reference's layout"
    difference = compare(now, stored)
    if not difference.within_tolerance:
        diff_path = out / f"{reference.stem}.diff.png"
        screen.save_png(rendered_path)
        pygame.image.save(diff_picture(stored, difference), str(diff_path))
        pytest.fail(
            f"{reference.name} changed: {difference.share:.4%} of pixels "
            f"({int(difference.changed.sum())}) differ by more than {CHANNEL_TOLERANCE}, "
            f"allowed {SHARE_TOLERANCE:.4%}; rendered: {rendered_path}; "
            f"diff (changes in magenta): {diff_path}; drawn with {versions()}; {REFRESH_HINT}",
            pytrace=False,
        )
    return f"{reference.name} matches"


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SCREENS))
def test_each_main_screen_looks_like_its_reference_picture(
    name: str, size: tuple[int, int], tmp_path: Path
) -> None:
    with drawn(SCREENS[name](), size) as screen:
        outcome = check_reference(screen, REFERENCES / f"{name}-{size_id(size)}.png", tmp_path)
    if refreshing() and outcome.startswith("wrote"):
        warnings.warn(outcome, stacklevel=1)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(SCREENS))
def test_a_screen_drawn_twice_is_the_same_to_the_pixel(name: str, size: tuple[int, int]) -> None:
    """Drawn from a freshly built view on a fresh screen, after another screen was drawn
    in between (so kept parts and text are reused, not redrawn), nothing moves."""
    with drawn(SCREENS[name](), size) as screen:
        first = pixels(screen.surface)
    other = "winner" if name != "winner" else "setup"
    with drawn(SCREENS[other](), size):
        pass
    with drawn(SCREENS[name](), size) as screen:
        assert np.array_equal(pixels(screen.surface), first)


def test_the_tolerance_absorbs_antialiasing_noise() -> None:
    """Every pixel moved by up to CHANNEL_TOLERANCE, and a few stray edge pixels more,
    is still the same picture."""
    with drawn(sample_views.twelve_players(), (800, 480)) as screen:
        reference = pixels(screen.surface)
    noise = np.random.default_rng(7).integers(
        -CHANNEL_TOLERANCE, CHANNEL_TOLERANCE + 1, reference.shape
    )
    noisy = np.clip(reference + noise, 0, 255)
    noisy[100:103, 200] = 255 - noisy[100:103, 200]
    assert compare(noisy, reference).within_tolerance


def test_the_tolerance_catches_one_changed_digit_in_the_smallest_text() -> None:
    view = sample_views.teams()  # its last round's reasons are drawn on both screens
    assert view.last_round is not None
    first, *rest = view.last_round.lines
    reasons = tuple(r.replace("+3", "+2") for r in first.reasons)
    assert reasons != first.reasons
    changed = dataclasses.replace(
        view,
        last_round=dataclasses.replace(
            view.last_round, lines=(dataclasses.replace(first, reasons=reasons), *rest)
        ),
    )
    with drawn(view, (800, 480)) as screen:
        reference = pixels(screen.surface)
    with drawn(changed, (800, 480)) as screen:
        difference = compare(pixels(screen.surface), reference)
    assert difference.changed.any()
    assert not difference.within_tolerance


def test_a_missing_reference_fails_with_the_refresh_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REFRESH_VARIABLE, raising=False)
    missing = tmp_path / "references" / "setup-800x480.png"
    with (
        drawn(sample_views.setup(), (800, 480)) as screen,
        pytest.raises(pytest.fail.Exception, match=REFRESH_VARIABLE),
    ):
        check_reference(screen, missing, tmp_path)
    assert not missing.exists()


def test_a_changed_screen_fails_naming_the_rendered_and_diff_pictures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REFRESH_VARIABLE, raising=False)
    reference = tmp_path / "waiting-800x480.png"
    with drawn(sample_views.three_players(), (800, 480)) as screen:
        screen.save_png(reference)
    moved = dataclasses.replace(sample_views.three_players(), headline="Waiting for Cleo to vote")
    with (
        drawn(moved, (800, 480)) as screen,
        pytest.raises(pytest.fail.Exception) as failure,
    ):
        check_reference(screen, reference, tmp_path, strict=True)
    message = str(failure.value)
    rendered, diff = (
        tmp_path / "waiting-800x480.rendered.png",
        tmp_path / "waiting-800x480.diff.png",
    )
    assert str(rendered) in message and str(diff) in message
    assert "% of pixels" in message and REFRESH_VARIABLE in message
    assert rendered.exists() and diff.exists()


def test_refreshing_writes_the_reference_and_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REFRESH_VARIABLE, "1")
    reference = tmp_path / "references" / "winner-800x480.png"
    with drawn(sample_views.winner(), (800, 480)) as screen:
        assert check_reference(screen, reference, tmp_path) == f"wrote {reference}"
        assert check_reference(screen, reference, tmp_path) == f"{reference.name} unchanged"
        monkeypatch.delenv(REFRESH_VARIABLE)
        assert (
            check_reference(screen, reference, tmp_path, strict=True) == f"{reference.name} matches"
        )


def test_under_another_pygame_a_screen_laid_out_otherwise_still_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REFRESH_VARIABLE, raising=False)
    reference = tmp_path / "problems-800x480.png"
    with drawn(sample_views.many_notices(), (800, 480)) as screen:
        screen.save_png(reference)
        assert check_reference(screen, reference, tmp_path, strict=False).endswith("layout")
    with (
        drawn(sample_views.three_players(), (800, 480)) as screen,
        pytest.raises(pytest.fail.Exception, match="layout changed"),
    ):
        check_reference(screen, reference, tmp_path, strict=False)
