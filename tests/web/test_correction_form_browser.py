"""The staff's whole-round form in a real browser at a phone's width: each slot says
whose card it holds as it is chosen, a refused round is said beside the field at
fault, and a legal one rescores the game."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.web.address import Listen
from companion.web.server import Listener, WebServer
from tests.web.browser import EXPECT_MS, launch_chromium, phone
from tests.web.desk import PIN, SLOTS, playing_desk


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()


def logged_in(page: Page, address: str) -> None:
    page.goto(f"{address}/staff")
    page.locator("#pin").fill(PIN)
    page.locator("#staff-enter").click()
    expect(page.locator("#staff-table")).to_be_visible(timeout=EXPECT_MS)


@pytest.mark.parametrize("width", [360, 390])
def test_the_form_names_each_slots_card_and_says_errors_beside_their_field(
    browser: Browser, tmp_path: Path, width: int
) -> None:
    with playing_desk(tmp_path / "journal.sqlite", 1) as desk:
        listener = Listener(Listen("127.0.0.1", 0))
        server = WebServer(listener, desk, desk.path, PIN, SLOTS)
        context = phone(browser)
        try:
            server.start()
            page = context.new_page()
            page.set_viewport_size({"width": width, "height": 844})
            address = f"http://127.0.0.1:{server.port}"
            logged_in(page, address)
            page.goto(f"{address}/games/{desk.game_id}")
            page.locator("#round-1 details.correct summary").click()
            form = page.locator("#round-1 form.correction")
            slot_5 = form.locator('[data-field="slot-5"]')
            expect(slot_5.locator(".field-label")).to_have_text("Slot 5 — empty")
            slot_5.locator("select").select_option("Ben")
            expect(slot_5.locator(".field-label")).to_have_text("Slot 5 — Ben's card")
            slot_5.locator("select").select_option("")
            form.locator('select[data-voter="Ben"]').first.select_option("2")
            form.locator("button[type=submit]").click()
            beside = form.locator('[data-error-for="vote-Ben-1"]')
            expect(beside).to_have_text("Ben voted for slot 2, their own card", timeout=EXPECT_MS)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(tmp_path / f"refused-{width}.png"), full_page=True)
            form.locator('select[data-voter="Ben"]').first.select_option("3")
            form.locator("button[type=submit]").click()
            expect(page.locator("#round-1 [data-corrected]")).to_be_visible(timeout=EXPECT_MS)
        finally:
            context.close()
            server.close()
            listener.close()
