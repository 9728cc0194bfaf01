"""The phone page's QR code on the table's screen: it reads back as the page's address
at both screen sizes, large where players have time to scan it (setting up, the
winner) and small in a corner while playing, dark on white with its quiet zone, over
nothing players need; and there is none when there is no page.

The codes are read from the drawn pictures with the project's own decoder (zxing-cpp),
the one that reads the kit's tags from the camera.
"""

import dataclasses
import functools
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from companion.actions import Action, Press
from companion.display import qr, table, theme
from companion.display.layout import frame
from companion.display.screen import DisplayMode, Screen
from companion.display.view import ScreenView
from companion.journal import Journal
from companion.language import Language, translations
from companion.phrases import phrase
from companion.rules import find_ruleset
from companion.runtime.effects import JournalEffects
from companion.runtime.loop import Loop
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.view.present import present
from companion.vision.decode import make_decoder
from companion.vision.records import Detection
from tests.display import sample_views
from tests.display.sample_views import PAGE, PAGE_SAMPLES, with_page
from tests.screens import RecordingScreen

SIZES = ((1280, 720), (800, 480))
"""A television and the 7" touch screen."""
LONGER_PAGE = "http://192.168.100.123:8080/"
"""An address long enough to need a larger code (29 modules across, not 25)."""
LARGE = ("page-setup-names", "page-setup-names-fr", "page-winner", "page-winner-fr")
SMALL = ("page-waiting", "page-waiting-fr", "page-editor")
PLAYING: dict[str, Callable[[], ScreenView]] = {
    "waiting": sample_views.three_players,
    "proposal": sample_views.twelve_players,
    "problems": sample_views.many_notices,
    "clearing": sample_views.teams,
    "camera-lost": sample_views.camera_failed,
    "crowded": sample_views.crowded,
    "long-reasons": sample_views.long_reasons,
    "no-picture-yet": sample_views.no_picture_yet,
}
"""Playing screens of every arrangement: the code goes in the corner of each."""
WITHOUT_PAGE: dict[str, Callable[[], ScreenView]] = {
    **PLAYING,
    "winner": sample_views.winner,
    "editor": sample_views.editor,
    **{
        f"setup-{step}": functools.partial(build, "en")
        for step, build in sample_views.SETUP_STEPS.items()
    },
}


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def grey(surface: pygame.Surface) -> npt.NDArray[np.uint8]:
    """The picture in grey levels, rows by columns, as the decoder takes frames."""
    rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    return np.ascontiguousarray(rgb.mean(axis=2).astype(np.uint8))


def codes_in(picture: pygame.Surface) -> list[Detection]:
    return make_decoder("zxing").decode(grey(picture))


def saved_and_read(view: ScreenView, size: tuple[int, int], folder: Path) -> pygame.Surface:
    """`view` as the screen shows it, saved as PNG and read back, as a screenshot is."""
    path = folder / "screen.png"
    with Screen(size, DisplayMode.HEADLESS) as screen:
        screen.show(view)
        screen.save_png(path)
    return pygame.image.load(str(path))


def bounds(code: Detection) -> pygame.Rect:
    """The code's modules (without its quiet zone) on the screen."""
    xs = [round(x) for x, _ in code.corners_px]
    ys = [round(y) for _, y in code.corners_px]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def module_px(code: Detection, address: str = PAGE) -> float:
    return bounds(code).width / len(qr.modules(address))


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    with Screen((8, 8), DisplayMode.HEADLESS):
        yield


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(PAGE_SAMPLES))
def test_the_code_on_the_saved_screen_reads_back_as_the_page_address(
    name: str, size: tuple[int, int], tmp_path: Path
) -> None:
    picture = saved_and_read(PAGE_SAMPLES[name](), size, tmp_path)
    assert [code.text for code in codes_in(picture)] == [PAGE]


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(PLAYING))
def test_every_playing_screen_shows_the_code_in_its_corner(
    name: str, size: tuple[int, int], tmp_path: Path
) -> None:
    for address in (PAGE, LONGER_PAGE):
        view = with_page(PLAYING[name](), page=address)
        (code,) = codes_in(saved_and_read(view, size, tmp_path))
        assert code.text == address
        # under the header, which grows with a headline of two or three lines
        assert bounds(code).right > size[0] * 0.85 and bounds(code).top < size[1] * 0.4


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_a_longer_address_reads_back_on_the_large_codes_too(
    size: tuple[int, int], tmp_path: Path
) -> None:
    for view in (sample_views.setup_seats(), sample_views.winner()):
        picture = saved_and_read(with_page(view, page=LONGER_PAGE), size, tmp_path)
        assert [code.text for code in codes_in(picture)] == [LONGER_PAGE]


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_large_codes_have_modules_of_three_pixels_or_more_and_small_ones_of_two(
    size: tuple[int, int], tmp_path: Path
) -> None:
    for name in (*LARGE, *SMALL):
        (code,) = codes_in(saved_and_read(PAGE_SAMPLES[name](), size, tmp_path))
        least = qr.LARGE_LEAST_MODULE if name in LARGE else qr.SMALL_LEAST_MODULE
        assert module_px(code) >= least, name


def test_the_codes_are_as_large_as_a_table_needs_to_scan_them() -> None:
    tv, small_screen = theme.scale_for(720), theme.scale_for(480)
    for address in (PAGE, LONGER_PAGE):
        assert 180 <= qr.large_side(address, tv) <= 220
        assert 130 <= qr.large_side(address, small_screen) <= 150
        assert 96 <= qr.small_side(address, tv) <= 110
        assert 76 <= qr.small_side(address, small_screen) <= 84


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_code_is_dark_on_white_with_a_quiet_zone_of_four_modules(
    size: tuple[int, int], tmp_path: Path
) -> None:
    for name in ("page-setup-names", "page-waiting", "page-winner"):
        picture = saved_and_read(PAGE_SAMPLES[name](), size, tmp_path)
        (code,) = codes_in(picture)
        inside = bounds(code)
        quiet = round(qr.QUIET_MODULES * module_px(code))
        around = inside.inflate(2 * quiet, 2 * quiet)
        pixels = pygame.surfarray.array3d(picture)
        zone = pixels[around.left : around.right, around.top : around.bottom].copy()
        zone[quiet:-quiet, quiet:-quiet] = 255
        assert (zone == 255).all(), name
        assert (pixels[inside.left : inside.right, inside.top : inside.bottom] == 0).any()


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_code_covers_nothing_that_can_be_touched(size: tuple[int, int]) -> None:
    for name, build in PAGE_SAMPLES.items():
        with Screen(size, DisplayMode.HEADLESS) as screen:
            screen.show(build())
            (code,) = codes_in(screen.surface)
            quiet = round(qr.QUIET_MODULES * module_px(code))
            square = bounds(code).inflate(2 * quiet, 2 * quiet)
            for area, press in screen.hits.areas:
                assert not square.colliderect(pygame.Rect(area)), (name, press)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(PLAYING))
def test_while_playing_the_code_takes_room_from_no_other_part(
    name: str, size: tuple[int, int]
) -> None:
    s = theme.scale_for(size[1])
    view = with_page(PLAYING[name]())
    body = frame(size, s, bool(view.buttons)).body
    parts = table.arrange(body, view, s, 10)
    assert parts.page is not None
    corner = pygame.Rect(parts.page)
    assert body.contains(corner)
    assert corner.width == corner.height == qr.small_side(PAGE, s)
    others = (parts.track, parts.scoreboard, parts.points, parts.notices, parts.camera)
    for other in others:
        assert other is None or not corner.colliderect(pygame.Rect(other))


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("name", list(WITHOUT_PAGE))
def test_there_is_no_code_without_a_page(name: str, size: tuple[int, int]) -> None:
    view = WITHOUT_PAGE[name]()
    assert view.page is None
    with Screen(size, DisplayMode.HEADLESS) as screen:
        screen.show(view)
        assert codes_in(screen.surface) == []


def test_a_frame_with_the_code_copies_it_and_draws_it_only_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    painted: list[str] = []
    paint_block = qr._paint_block
    paint_code = qr._paint_code

    def block(*shown: object) -> None:
        painted.append("block")
        paint_block(*shown)  # type: ignore[arg-type]

    def code(*shown: object) -> None:
        painted.append("code")
        paint_code(*shown)  # type: ignore[arg-type]

    monkeypatch.setattr(qr, "_paint_block", block)
    monkeypatch.setattr(qr, "_paint_code", code)
    with Screen((1280, 720), DisplayMode.HEADLESS) as screen:
        screen.show(PAGE_SAMPLES["page-setup-names"]())
        screen.show(PAGE_SAMPLES["page-waiting"]())
        assert "block" in painted and "code" in painted
        first = len(painted)
        for _ in range(3):
            screen.show(PAGE_SAMPLES["page-setup-names"]())
            screen.show(PAGE_SAMPLES["page-waiting"]())
    assert len(painted) == first


def test_touches_on_a_setup_step_with_the_code_pick_what_is_under_the_finger() -> None:
    view = PAGE_SAMPLES["page-setup-names"]()
    assert view.setup is not None
    with Screen((800, 480), DisplayMode.HEADLESS) as screen:
        screen.show(view)
        for i in range(len(view.setup.choices)):
            box = screen.hits.box_of(Press(Action.PICK, i))
            assert box is not None
            x, y, width, height = box
            assert screen.hits.press_at(x + width / 2, y + height / 2) == Press(Action.PICK, i)


# The page's address from the loop to the view

SLOTS = tuple(range(1, 9))
LINEUP = Lineup(("Ann", "Ben", "Cleo"), ("red", "blue", "green"))


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite") as opened:
        yield opened


def test_present_puts_the_page_on_setup_and_game_views(journal: Journal) -> None:
    setting_up = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    assert present(setting_up.state, 0.0, None).page is None
    view = present(setting_up.state, 0.0, None, page=PAGE)
    assert view.setup is not None and view.page == PAGE
    assert view.page_caption == "Follow the game on your phone"
    playing = Session.new(find_ruleset("odyssey"), LINEUP, JournalEffects(journal), Settings(SLOTS))
    assert present(playing.state, 0.0, None).page is None
    assert present(playing.state, 0.0, None, page=PAGE).page == PAGE


def test_the_words_under_the_code_are_in_the_tables_language(journal: Journal) -> None:
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    state = session.state
    french = dataclasses.replace(
        state, draft=dataclasses.replace(state.draft, language=Language.FRENCH)
    )
    view = present(french, 0.0, None, page=PAGE)
    caption = phrase("Follow the game on your phone")
    assert view.page_caption == caption.render(translations(Language.FRENCH))


def test_the_loop_asks_for_the_address_at_every_step(
    journal: Journal, recording_screen: RecordingScreen
) -> None:
    addresses = iter((None, PAGE, LONGER_PAGE))
    session = Session.new(find_ruleset("odyssey"), LINEUP, JournalEffects(journal), Settings(SLOTS))
    loop = Loop(session, recording_screen, lambda: 0.0, page=lambda: next(addresses))
    for _ in range(3):
        loop.step()
    assert [view.page for view in recording_screen.views] == [None, PAGE, LONGER_PAGE]


def test_a_loop_without_a_page_shows_no_code(
    journal: Journal, recording_screen: RecordingScreen
) -> None:
    session = Session.new(find_ruleset("odyssey"), LINEUP, JournalEffects(journal), Settings(SLOTS))
    Loop(session, recording_screen, lambda: 0.0).step()
    (view,) = recording_screen.views
    assert view.page is None
    assert codes_in(recording_screen.surface) == []
