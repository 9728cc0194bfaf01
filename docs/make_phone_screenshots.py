"""Take the guides' pictures of the phone page, as a phone shows them.

    .venv/bin/python docs/make_phone_screenshots.py

For English and French in turn, runs `companion demo` with its phone page (as the
browser tests do: headless, on a port of 127.0.0.1) and opens the pages in Debian's
chromium at a phone's size: the setup page while the group waits for its names (two
typed), then a whole game: the table page while a proposal waits, the table page at
the winner, a game's round with its photo and overlay, the staff page logged in
(while the proposal waits, as the staff see it) and the list of games. The pictures
go to docs/phone/, named by page and language.
"""

import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, FloatRect, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the browser tests' helpers run the demo and chromium

from tests.web.browser import PHONE_WIDTH, Demo, launch_chromium, phone, start_demo  # noqa: E402
from tests.web.desk import PIN  # noqa: E402

OUT = Path(__file__).with_name("phone")
LANGUAGES = ("en", "fr")
TYPED = ("Margot", "Lucien")
"""The names typed on the setup page (the rest of the group has not typed yet)."""
PROPOSAL_ROUND = 3
"""The round whose proposal is shown: the track has moved by then."""
SPEED = "3"
"""Times faster than real time: each proposal stays a few real seconds."""
AUTO_CONFIRM = "8"
"""Simulated seconds a proposal waits before it confirms itself."""
GAME_SECONDS = 600.0
"""How long a whole game may take."""
WAIT_MS = 60_000
MARGIN = 12
"""Room kept above the round in its picture."""


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for language in LANGUAGES:
                setting_up(browser, Path(folder) / f"setup-{language}", language)
                playing(browser, Path(folder) / f"play-{language}", language)
        finally:
            browser.close()
    for picture in sorted(OUT.glob("*.png")):
        print(f"{picture.relative_to(ROOT)}: {picture.stat().st_size // 1024} kB")


def setting_up(browser: Browser, folder: Path, language: str) -> None:
    """The setup page while the table waits at the names step, two names typed."""
    demo = start_demo(folder, "--phone-names", "--stay", "--speed", "4", language=language)
    context = phone(browser, language, scale=1)
    try:
        demo.wait_for(lambda s: s["phase"] == "names", "the names step", GAME_SECONDS)
        page = context.new_page()
        page.goto(demo.address("/setup"))
        inputs = page.locator("#seats input[data-colour]")
        for index, name in enumerate(TYPED):
            inputs.nth(index).fill(name)
        page.locator("#setup-send").click()
        page.locator("#setup-sent").wait_for(timeout=WAIT_MS)
        save(page, "setup", language)
        page.goto(demo.url)
        save(page, "table-setup", language)
    finally:
        context.close()
        stopped(demo)


def playing(browser: Browser, folder: Path, language: str) -> None:
    """A whole game: a proposal, the winner, a round's photos, the staff's page."""
    demo = start_demo(
        folder, "--stay", "--speed", SPEED, "--auto-confirm", AUTO_CONFIRM, language=language
    )
    context = phone(browser, language, scale=1)
    staff_context = phone(browser, language, scale=1)
    try:
        # opened once the group has picked the language: a page keeps the language it
        # was opened in around its live part
        demo.wait_for(lambda s: s["game"] is not None, "the game set up", GAME_SECONDS)
        table = context.new_page()
        table.goto(demo.url)
        staff = staff_context.new_page()
        staff.goto(demo.address("/staff"))
        staff.locator("#pin").fill(PIN)
        staff.locator("#staff-enter").click()
        staff.locator("#staff-pending").wait_for(timeout=WAIT_MS)
        demo.wait_for(
            lambda s: s["proposal"] is not None and s["round"] >= PROPOSAL_ROUND,
            f"the proposal of round {PROPOSAL_ROUND}",
            GAME_SECONDS,
        )
        table.locator("#proposal").wait_for(timeout=WAIT_MS)
        save(table, "table", language)
        staff.locator("#staff-confirm").wait_for(timeout=WAIT_MS)  # live, as on the table
        save(staff, "staff", language)
        staff_context.close()
        state = demo.wait_for(lambda s: bool(s["winners"]), "the winner", GAME_SECONDS)
        table.locator("#winner").wait_for(timeout=WAIT_MS)
        save(table, "winner", language)
        game = context.new_page()
        game.goto(demo.address(f"/games/{state['game']}"))
        save_round(game, language)
        games = context.new_page()
        games.goto(demo.address("/games"))
        save(games, "games", language)
    finally:
        context.close()
        staff_context.close()
        stopped(demo)


def save(page: Page, name: str, language: str) -> None:
    """The whole page, from the top (scrolled down, its sticky tabs would be drawn
    halfway down the picture)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / f"{name}-{language}.png"), full_page=True)


def save_round(page: Page, language: str) -> None:
    """Round 1 of the game's page, its photo and overlay loaded."""
    round_1 = page.locator("#round-1")
    for picture in ("img.frame", "img.overlay"):
        image = round_1.locator(picture)
        image.scroll_into_view_if_needed(timeout=WAIT_MS)
        image.evaluate(
            """(img) => new Promise((done, failed) => {
                if (img.complete) { done(); return; }
                img.addEventListener('load', done);
                img.addEventListener('error', failed);
            })"""
        )
    page.evaluate("window.scrollTo(0, 0)")
    box = round_1.bounding_box()  # at the top, where the page's and the view's places agree
    assert box is not None, "round 1 is not shown"
    clip: FloatRect = {
        "x": 0,
        "y": box["y"] - MARGIN,
        "width": PHONE_WIDTH,
        "height": box["height"] + MARGIN,
    }
    page.screenshot(path=str(OUT / f"game-{language}.png"), full_page=True, clip=clip)


def stopped(demo: Demo) -> None:
    status = demo.stop()
    if status != 0:
        raise SystemExit(f"the demo exited {status}\n{demo.output()}")
    shutil.rmtree(demo.folder, ignore_errors=True)


if __name__ == "__main__":
    main()
