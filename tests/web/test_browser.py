"""The phone page in a real browser (Debian's chromium, driven by Playwright) against a
real `companion demo` serving it: what a player's phone shows, names typed on a phone
reaching the table, the table's rounds reaching the phone without a reload, and the
staff's corrections with the PIN (and refused without it).

One demo serves the whole module: its group sits down and waits at the names step for
the names typed on a phone, then plays `ROUNDS` rounds and stays up. Each test leaves
a screenshot of its last page in its tmp_path, to look at when it fails.
"""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from companion.actions import Action, Press
from companion.gamefile import parse_game
from companion.journal import Journal
from companion.language import Language
from companion.runtime.effects import JournalEffects
from companion.session.draft import KIT_COLOURS
from companion.session.session import Session, Settings
from companion.session.setup import EDITIONS, LANGUAGES
from companion.session.states import Phase
from companion.view.present import present
from companion.web.address import Listen
from companion.web.server import Listener, WebServer
from companion.web.staff import CSRF_HEADER
from companion.web.style import signed
from tests.web.browser import EXPECT_MS, PHONE_WIDTH, Demo, launch_chromium, phone, start_demo
from tests.web.desk import PIN, SLOTS, Desk

ROUNDS = 2
"""Rounds the demo's group plays once named; then the table stays up, waiting."""
SPEED = "4"
"""Times faster than real time: a round every second or two, slow enough to watch."""
NAMES = ("Margot", "Lucien", "Zoé", "Bastien", "Inès", "Théo", "Agathe", "Hugo")
"""The names typed on the phone, in seat order."""


@dataclass(frozen=True)
class Table:
    """The module's demo, and a phone that opened the table page before any round."""

    demo: Demo
    watcher: Page
    """The table page, opened during the setup and never reloaded; `window.__marker`
    set on it."""
    start_totals: dict[str, str]
    """The totals it showed when opened (none: the game was not set up)."""


def shot(page: Page, tmp_path: Path, name: str = "final") -> None:
    """The page as the test left it, for looking at when the test fails (from the top:
    scrolled down, its sticky tabs would be drawn halfway down the picture)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def shown_totals(page: Page) -> dict[str, str]:
    """Each scorer's total as the page shows it."""
    totals: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-total]')]
            .map((e) => [e.dataset.total, e.textContent.trim()]))"""
    )
    return totals


def showing(totals: dict[str, int]) -> dict[str, str]:
    return {scorer: str(total) for scorer, total in totals.items()}


def wait_for_totals(page: Page, totals: dict[str, int]) -> None:
    """Wait until the page shows exactly `totals`."""
    page.wait_for_function(
        """(wanted) => {
            const shown = Object.fromEntries([...document.querySelectorAll('[data-total]')]
                .map((e) => [e.dataset.total, e.textContent.trim()]));
            return JSON.stringify(Object.entries(shown).sort())
                === JSON.stringify(Object.entries(wanted).sort());
        }""",
        arg=showing(totals),
        timeout=EXPECT_MS,
    )


def no_side_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"{page.url} scrolls sideways: {width} px wide"


def rescored(export: str) -> dict[str, int]:
    """The totals `companion score` gives for an exported game."""
    return dict(parse_game(export, stored=True).play().totals)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def table(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    folder = tmp_path_factory.mktemp("demo")
    options = ("--phone-names", "--stay", "--rounds", str(ROUNDS), "--speed", SPEED)
    demo = start_demo(folder, *options)
    context = phone(browser)
    try:
        watcher = context.new_page()
        watcher.goto(demo.url)
        expect(watcher.locator("#headline")).not_to_be_empty(timeout=EXPECT_MS)
        watcher.evaluate("window.__marker = 1")
        yield Table(demo, watcher, shown_totals(watcher))
    finally:
        context.close()
        status = demo.stop()
    assert status == 0, f"the demo exited {status} when interrupted\n{demo.output()}"


@pytest.fixture(scope="module")
def named(table: Table, browser: Browser) -> Iterator[tuple[tuple[str, ...], Page]]:
    """The names typed on a phone's setup page for every seat it shows, and sent; the
    page, left open."""
    demo = table.demo
    state = demo.wait_for(lambda s: s["phase"] == "names", "the names step")
    seats = len(state["setup"]["seats"])
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(demo.address("/setup"))
        inputs = page.locator("#seats input[data-colour]")
        expect(inputs).to_have_count(seats, timeout=EXPECT_MS)
        for index in range(seats):
            inputs.nth(index).fill(NAMES[index])
        page.locator("#setup-send").click()
        yield NAMES[:seats], page
    finally:
        context.close()


def game_id(table: Table) -> int:
    state = table.demo.wait_for(lambda s: s["game"] is not None, "a game set up")
    number: int = state["game"]
    return number


def played(table: Table) -> dict[str, Any]:
    """The table once its group played all its rounds, waiting for the next."""
    return table.demo.wait_for(
        lambda s: s["round"] == ROUNDS + 1 and s["proposal"] is None, f"{ROUNDS} rounds played"
    )


def test_the_table_page_fits_a_phone_and_shows_the_headline(table: Table, tmp_path: Path) -> None:
    page = table.watcher
    expect(page.locator("#headline")).to_be_visible(timeout=EXPECT_MS)
    assert page.locator("#headline").inner_text().strip()
    no_side_scroll(page)
    for path in ("/setup", "/games", "/staff"):
        other = page.context.new_page()
        other.goto(table.demo.address(path))
        expect(other.locator("h1").first).to_be_visible(timeout=EXPECT_MS)
        no_side_scroll(other)
        other.close()
    shot(page, tmp_path)


def test_names_typed_on_a_phone_reach_the_table(
    table: Table, named: tuple[tuple[str, ...], Page], tmp_path: Path
) -> None:
    names, page = named
    state = table.demo.wait_for(lambda s: bool(s["players"]), "the game set up with the names")
    assert [p["name"] for p in state["players"]] == list(names)
    shot(page, tmp_path)
    # the demo saves the names step's screen as it leaves it, names and all
    done = sorted(table.demo.out.glob("*-names-done.png"))
    assert len(done) == 1, sorted(p.name for p in table.demo.out.iterdir())


def test_names_typed_on_a_phone_are_what_the_table_screen_draws(
    browser: Browser, tmp_path: Path
) -> None:
    def at_names(journal: Journal) -> Session:
        session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
        touches = [
            LANGUAGES.index(Language.ENGLISH),
            EDITIONS.index("odyssey"),
            *(KIT_COLOURS.index(c) for c in ("red", "blue", "green", "yellow")),
            len(KIT_COLOURS),
        ]
        for index in touches:
            session.press(Press(Action.PICK, index), 0.0)
        return session

    with Desk(tmp_path / "journal.sqlite", at_names) as desk:
        assert desk.session.state.phase is Phase.NAMES
        listener = Listener(Listen("127.0.0.1", 0))
        server = WebServer(listener, desk, desk.path, PIN, SLOTS)
        context = phone(browser)
        try:
            server.start()
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{server.port}/setup")
            inputs = page.locator("#seats input[data-colour]")
            expect(inputs).to_have_count(4, timeout=EXPECT_MS)
            for index in range(4):
                inputs.nth(index).fill(NAMES[index])
            page.locator("#setup-send").click()
            expect(page.locator("#setup-sent")).to_be_visible(timeout=EXPECT_MS)
            shot(page, tmp_path)
            view = present(desk.session.state, desk.clock, None)
        finally:
            context.close()
            server.close()
            listener.close()
    assert view.setup is not None
    labels = [choice.label for choice in view.setup.choices]
    assert labels[:4] == list(NAMES[:4])


def test_the_totals_follow_the_table_without_a_reload(
    table: Table, named: tuple[tuple[str, ...], Page], tmp_path: Path
) -> None:
    page = table.watcher
    origin = page.evaluate("performance.timeOrigin")
    page.wait_for_function(
        """(start) => {
            const shown = [...document.querySelectorAll('[data-total]')];
            return shown.some((e) => e.textContent.trim() !== (start[e.dataset.total] ?? '0'));
        }""",
        arg=table.start_totals,
        timeout=EXPECT_MS,
    )
    assert page.evaluate("window.__marker") == 1, "the page was loaded again"
    state = played(table)
    wait_for_totals(page, state["totals"])
    assert page.evaluate("window.__marker") == 1, "the page was loaded again"
    assert page.evaluate("performance.timeOrigin") == origin
    shot(page, tmp_path)


def test_a_rounds_photo_and_overlay_show(
    table: Table, named: tuple[tuple[str, ...], Page], browser: Browser, tmp_path: Path
) -> None:
    number = game_id(table)
    table.demo.wait_for(lambda s: s["round"] >= 2, "round 1 played")
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(table.demo.address(f"/games/{number}"))
        round_1 = page.locator("#round-1")
        for picture in ("img.frame", "img.overlay"):
            image = round_1.locator(picture)
            image.scroll_into_view_if_needed(timeout=EXPECT_MS)
            image.evaluate(
                """(img) => new Promise((done, failed) => {
                    if (img.complete) { done(); return; }
                    img.addEventListener('load', done);
                    img.addEventListener('error', failed);
                })"""
            )
            loaded = image.evaluate("(img) => [img.complete, img.naturalWidth]")
            assert loaded[0] and loaded[1] > 0, (picture, loaded)
        no_side_scroll(page)
        round_1.screenshot(path=str(tmp_path / "final.png"))
    finally:
        context.close()


def test_a_correction_with_the_pin_rescores_on_the_phone_and_on_the_table(
    table: Table, named: tuple[tuple[str, ...], Page], browser: Browser, tmp_path: Path
) -> None:
    demo, number = table.demo, game_id(table)
    before = played(table)["totals"]
    first = demo.json(f"/api/games/{number}")["rounds"][0]
    voter, slot = moved_vote(first)
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(demo.address("/staff"))
        page.locator("#pin").fill(PIN)
        page.locator("#staff-enter").click()
        expect(page.locator("#staff-table")).to_be_visible(timeout=EXPECT_MS)
        page.goto(demo.address(f"/games/{number}"))
        form = page.locator("#round-1 form.correction")
        page.locator("#round-1 details.correct summary").click()
        form.locator(f'select[data-voter="{voter}"]').first.select_option(str(slot))
        form.locator("button[type=submit]").click()
        expect(page.locator("#round-1 [data-corrected]")).to_be_visible(timeout=EXPECT_MS)
        export = demo.get(f"/api/games/{number}/export").text
        game = parse_game(export, stored=True).play()
        assert slot in json.loads(export)["rounds"][0]["votes"][voter]
        after = rescored(export)
        assert after != before, "the correction changed no total"
        deltas = game.played[0].score.deltas
        for scorer, points in deltas.items():
            shown = page.locator(f'#round-1 [data-points="{scorer}"]')
            expect(shown).to_have_text(signed(points), timeout=EXPECT_MS)
        shot(page, tmp_path)
    finally:
        context.close()
    assert demo.wait_for(lambda s: s["totals"] == after, "the rescored totals")["totals"] == after
    wait_for_totals(table.watcher, after)
    shot(table.watcher, tmp_path, "table")


def moved_vote(first: dict[str, Any]) -> tuple[str, int]:
    """A voter of round 1 and another slot for their vote that changes their points:
    off the storyteller's card if they found it, onto it if they did not."""
    owner = {int(slot): player for slot, player in first["cards"].items()}
    told = next(slot for slot, player in owner.items() if player == first["storyteller"])
    for voter, slots in sorted(first["votes"].items()):
        own = next(slot for slot, player in owner.items() if player == voter)
        if slots[0] != told:
            return voter, told
        others = [slot for slot in sorted(owner) if slot not in (told, own, *slots)]
        if others:
            return voter, others[0]
    raise AssertionError(f"round 1 has no vote to move: {first}")


def test_a_correction_without_the_pin_is_refused(
    table: Table, named: tuple[tuple[str, ...], Page], browser: Browser, tmp_path: Path
) -> None:
    demo, number = table.demo, game_id(table)
    before = played(table)["totals"]
    export = demo.get(f"/api/games/{number}/export").text
    first = demo.json(f"/api/games/{number}")["rounds"][0]
    voter, slot = moved_vote(first)
    changed = {"cards": first["cards"], "votes": {**first["votes"], voter: [slot]}}
    context = phone(browser)
    try:
        page = context.new_page()
        page.goto(demo.address(f"/games/{number}"))
        assert page.locator("form.correction").count() == 0, "a correction form without the PIN"
        status = page.evaluate(
            """async ([url, header, body]) => {
                const token = document.querySelector('meta[name="csrf-token"]').content;
                const answer = await fetch(url, {
                    method: 'POST',
                    credentials: 'same-origin',
                    headers: {'Content-Type': 'application/json', [header]: token},
                    body: JSON.stringify(body),
                });
                return answer.status;
            }""",
            [f"/api/games/{number}/rounds/1", CSRF_HEADER, changed],
        )
        shot(page, tmp_path)
    finally:
        context.close()
    assert status == 401
    assert demo.state()["totals"] == before
    assert demo.get(f"/api/games/{number}/export").text == export


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """A second demo whose group picks French, waiting at the names step."""
    folder = tmp_path_factory.mktemp("demo-fr")
    demo = start_demo(folder, "--phone-names", "--stay", "--speed", SPEED, language="fr")
    try:
        yield demo
    finally:
        status = demo.stop()
    assert status == 0, f"the French demo exited {status} when interrupted\n{demo.output()}"


def test_the_page_speaks_the_tables_french(french: Demo, browser: Browser, tmp_path: Path) -> None:
    french.wait_for(lambda s: s["phase"] == "names", "the names step")
    context = phone(browser, "fr")
    try:
        page = context.new_page()
        page.goto(french.url)
        assert page.locator("html").get_attribute("lang") == "fr"
        step = page.locator("#setup-step li[aria-current=step]")
        expect(step).to_have_text("Noms", timeout=EXPECT_MS)
        tabs = ("#nav-table", "#nav-games", "#nav-setup", "#nav-staff")
        expect(page.locator(", ".join(tabs))).to_have_text(
            ["Table", "Parties", "Préparer", "Personnel"], timeout=EXPECT_MS
        )
        no_side_scroll(page)
        shot(page, tmp_path, "table")
        page.goto(french.address("/setup"))
        expect(page.locator("h1")).to_have_text("Nouvelle partie", timeout=EXPECT_MS)
        legends = page.locator("#setup-form legend")
        expect(legends.first).to_have_text("Noms des joueurs", timeout=EXPECT_MS)
        expect(legends.nth(1)).to_have_text("Édition", timeout=EXPECT_MS)
        no_side_scroll(page)
        shot(page, tmp_path)
    finally:
        context.close()
