"""The staff page in a real browser (Debian's chromium, driven by Playwright) against a
real web server over a real session and journal: a proposal appears on it without a
reload, and its Confirm, pressed while the table is cleared, from a page showing an
older proposal, or with nothing proposed, is refused with 409 and changes nothing.
Each test leaves a screenshot of its page in its tmp_path, to look at when it fails."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.actions import Action
from companion.rules import Reveal
from companion.web.address import Listen
from companion.web.server import Listener, WebServer
from companion.web.staff import CSRF_HEADER
from tests.session.observations import table_of
from tests.web.browser import EXPECT_MS, launch_chromium, phone
from tests.web.desk import LINEUP, PIN, SLOTS, Desk, playing_desk, round_of

POST = """async ([header, body]) => {
    const token = document.querySelector('meta[name="csrf-token"]').content;
    const answer = await fetch('/api/actions', {
        method: 'POST',
        credentials: 'same-origin',
        headers: {'Content-Type': 'application/json', [header]: token},
        body: JSON.stringify(body),
    });
    return [answer.status, await answer.json()];
}"""
"""The staff page's own post of a button, with the version the test names."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    with playing_desk(tmp_path / "journal.sqlite", rounds=1) as desk:
        yield desk


@pytest.fixture
def staff_page(desk: Desk, browser: Browser, tmp_path: Path) -> Iterator[Page]:
    """The staff page, logged in, on a phone; a marker set on it shows it never reloads."""
    listener = Listener(Listen("127.0.0.1", 0))
    server = WebServer(listener, desk, desk.path, PIN, SLOTS)
    context = phone(browser)
    try:
        server.start()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/staff")
        page.locator("#pin").fill(PIN)
        page.locator("#staff-enter").click()
        expect(page.locator("#staff-pending .pending")).to_be_visible(timeout=EXPECT_MS)
        page.evaluate("window.__marker = 1")
        yield page
        page.screenshot(path=str(tmp_path / "staff.png"), full_page=True)
        assert page.evaluate("window.__marker") == 1, "the staff page was reloaded"
    finally:
        context.close()
        server.close()
        listener.close()


def shown_version(page: Page) -> int:
    return int(page.locator("#staff-pending .pending").get_attribute("data-version") or "-1")


def shows(page: Page, desk: Desk, pending: str) -> int:
    """Wait for the panel to show the desk's snapshot now, of kind `pending`; its version."""
    version = desk.snapshot().version
    panel = page.locator("#staff-pending .pending")
    expect(panel).to_have_attribute("data-version", str(version), timeout=EXPECT_MS)
    expect(panel).to_have_attribute("data-pending", pending, timeout=EXPECT_MS)
    return version


def refused_confirm(page: Page, desk: Desk, version: int, words: str) -> None:
    """Confirm posted as the page posts it, from `version`: a 409 with `words`, and
    neither the snapshot nor the journal changed."""
    before, export = desk.snapshot(), desk.export(desk.game_id)
    status, answer = page.evaluate(POST, [CSRF_HEADER, {"action": "confirm", "version": version}])
    assert status == 409, answer
    assert answer == {"error": words, "version": before.version}
    assert desk.snapshot() == before, "a refused Confirm changed the table"
    assert desk.export(desk.game_id) == export, "a refused Confirm changed the journal"


def moved(reveal: Reveal) -> Reveal:
    """The round with Dan's vote moved to Ann's card."""
    return Reveal(reveal.cards, {**reveal.votes, "Dan": (1,)}, reveal.trap)


def test_a_proposal_appears_on_the_staff_page_without_a_reload(
    desk: Desk, staff_page: Page
) -> None:
    page = staff_page
    shows(page, desk, "nothing")
    expect(page.locator("#staff-confirm")).to_have_count(0)
    desk.see(table_of(round_of(2), LINEUP))
    shows(page, desk, "proposal")
    expect(page.locator("#staff-headline")).to_have_text("Round 2: a score is proposed")
    expect(page.locator("#staff-confirm")).to_be_visible()
    for name, points in desk.session.state.proposal.deltas.items():  # type: ignore[union-attr]
        line = page.locator("#staff-points .line", has_text=name)
        expect(line.locator(".points")).to_have_text(f"+{points}" if points else "0")
    page.locator("#staff-confirm").click()
    expect(page.locator("#staff-done")).to_be_visible(timeout=EXPECT_MS)
    shows(page, desk, "clearing")
    assert len(desk.session.state.game.played) == 2


def test_the_staff_confirm_with_nothing_proposed_is_refused(desk: Desk, staff_page: Page) -> None:
    version = shows(staff_page, desk, "nothing")
    refused_confirm(staff_page, desk, version, "nothing to confirm now: no score is proposed")


def test_the_staff_confirm_while_the_table_is_cleared_is_refused(
    desk: Desk, staff_page: Page
) -> None:
    desk.see(table_of(round_of(2), LINEUP))
    desk.press(Action.CONFIRM)
    version = shows(staff_page, desk, "clearing")
    expect(staff_page.locator("#staff-confirm")).to_have_count(0)
    expect(staff_page.locator("#staff-next")).to_be_visible()
    words = "nothing to confirm now: the table is being cleared"
    refused_confirm(staff_page, desk, version, words)
    assert len(desk.session.state.game.played) == 2


def test_the_staff_confirm_from_an_older_proposal_is_refused_and_the_page_redrawn(
    desk: Desk, staff_page: Page
) -> None:
    page = staff_page
    desk.see(table_of(round_of(2), LINEUP))
    old = shows(page, desk, "proposal")
    desk.see(table_of(moved(round_of(2)), LINEUP))
    shows(page, desk, "proposal")
    words = "the table has changed since this page was drawn: look again"
    refused_confirm(page, desk, old, words)
    # the button itself, on a panel still showing the older proposal
    page.evaluate(
        "(v) => { document.querySelector('#staff-pending .pending').dataset.version = v; }", old
    )
    before: Any = desk.snapshot()
    page.locator("#staff-confirm").click()
    expect(page.locator("#staff-error")).to_have_text(words, timeout=EXPECT_MS)
    expect(page.locator("#staff-pending .pending")).to_have_attribute(
        "data-version", str(before.version), timeout=EXPECT_MS
    )
    assert desk.snapshot() == before and desk.session.state.game.played[-1:] != ()
    assert len(desk.session.state.game.played) == 1
