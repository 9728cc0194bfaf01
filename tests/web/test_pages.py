"""The phone page's HTML: each page rendered from real states and journal games, its
names escaped, its words in the table's language, its static files a fixed pair.

The French test reads the French catalogue shipped in the package, so it passes once
the page's translations are merged into it.
"""

import math
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from companion.actions import Action, Press
from companion.colours import COLOURS
from companion.display.view import ScreenView
from companion.journal import GameSummary, History, Journal, archive_path
from companion.journal.archive import archive_games
from companion.journal.file import JournalFile
from companion.language import Language
from companion.phrases import phrase
from companion.rules import Reveal, find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.draft import KIT_COLOURS
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.setup import EDITIONS, LANGUAGES
from companion.session.states import Phase, SessionState, Snapshot
from companion.view.present import present
from companion.vision.records import TableObservation
from companion.web.documents import state_document
from companion.web.pages import Pages
from companion.web.pending import pending
from tests.journal.helpers import example, play_into, spoil_party_round_5
from tests.session.observations import table_of

SCRIPT = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
LINEUP = Lineup(("Ann", "Ben", SCRIPT, "Dan"), ("red", "blue", "green", "yellow"))
ODYSSEY = find_ruleset("odyssey")
SLOTS = tuple(range(1, 9))
ROUND_1 = Reveal(
    {1: "Ann", 2: "Ben", 3: SCRIPT, 4: "Dan"}, {"Ben": (1,), SCRIPT: (2,), "Dan": (1,)}
)
BGSTATS = "bgstats://app.bgstatsapp.com/addPlay.html?x=1&y=2"


@dataclass(eq=False)
class Element:
    tag: str
    attrs: dict[str, str]
    parents: tuple["Element", ...]
    text: list[str] = field(default_factory=list)

    @property
    def words(self) -> str:
        """The text inside, each run of spaces and line breaks made one space (a no-break
        space is kept)."""
        return re.sub(r"[ \t\r\n]+", " ", "".join(self.text)).strip()


class Parsed(HTMLParser):
    """The elements of a page with their attributes and the text inside each; those
    inside a <template> (which the browser does not show) are kept apart."""

    VOID = frozenset({"meta", "link", "input", "img", "br", "hr", "source"})

    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: list[Element] = []
        self.templates: list[Element] = []
        self._open: list[Element] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs}, tuple(self._open))
        inside = any(e.tag == "template" for e in self._open)
        (self.templates if inside else self.elements).append(element)
        if tag not in self.VOID:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element.text.append(data)

    def find(
        self, tag: str | None = None, within: Element | None = None, **attrs: str | None
    ) -> list[Element]:
        """Elements of `tag` (inside `within`) whose attributes match: `class_` for
        class, `data_x` for data-x, None for any value."""
        wanted = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
        return [
            e
            for e in self.elements
            if (tag is None or e.tag == tag)
            and (within is None or within in e.parents)
            and all(k in e.attrs and (v is None or e.attrs[k] == v) for k, v in wanted.items())
        ]

    def one(
        self, tag: str | None = None, within: Element | None = None, **attrs: str | None
    ) -> Element:
        found = self.find(tag, within, **attrs)
        assert len(found) == 1, (tag, attrs, found)
        return found[0]


@pytest.fixture(scope="module")
def pages() -> Pages:
    return Pages()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j


def started(journal: Journal, target: int | None = None, auto: float | None = None) -> Session:
    """A game of Odyssey between Ann, Ben, the script and Dan, waiting for round 1."""
    rules = ODYSSEY if target is None else ODYSSEY.with_options({"target": target})
    session = Session.new(
        rules, LINEUP, JournalEffects(journal), Settings(SLOTS, auto_confirm=auto)
    )
    session.press(Press(Action.CONFIRM), 0.0)
    session.see(TableObservation(), True, 0.0)
    assert session.state.phase is Phase.WAITING
    return session


def proposing(journal: Journal, auto: float | None = None) -> Session:
    """Round 1 laid out, still, and proposed."""
    session = started(journal, auto=auto)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    assert session.state.phase is Phase.PROPOSAL
    return session


def at_names(journal: Journal) -> Session:
    """A group of four seated in Odyssey, at the names step (all by touch)."""
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
    touches = [
        LANGUAGES.index(Language.ENGLISH),
        EDITIONS.index("odyssey"),
        *(KIT_COLOURS.index(c) for c in ("red", "blue", "green", "yellow")),
        len(KIT_COLOURS),  # done
    ]
    for index in touches:
        session.press(Press(Action.PICK, index), 0.0)
    assert session.state.phase is Phase.NAMES
    return session


def speaking(state: SessionState, language: Language) -> SessionState:
    return replace(state, draft=replace(state.draft, language=language))


def seen(state: SessionState, now: float = 1.0) -> tuple[ScreenView, dict[str, Any]]:
    """What the table's screen shows and what `GET /api/state` says."""
    return present(state, now, None), state_document(Snapshot(7, state), now)


def table_page(pages: Pages, state: SessionState) -> str:
    view, doc = seen(state)
    return pages.table(view, doc, state.language, csrf="token-1", staff=False)


@dataclass(frozen=True)
class Played:
    journal: Journal
    id: int

    @property
    def history(self) -> History:
        return History(self.journal)


def played(journal: Journal, stem: str, rounds: int | None = None, images: bool = True) -> Played:
    """An example game played into the journal, with stand-in pictures."""
    game_id, _ = play_into(journal, example(stem), rounds, images=images)
    return Played(journal, game_id)


def game_page(
    pages: Pages,
    game: Played,
    *,
    staff: bool = False,
    bgstats: str | None = None,
    language: Language = Language.ENGLISH,
) -> str:
    summary = game.history.game(game.id)
    assert isinstance(summary, GameSummary)
    return pages.game(
        game.journal.load(game.id),
        summary,
        game.history.rounds(game.id),
        language,
        csrf="token-1",
        staff=staff,
        slots=SLOTS,
        bgstats=bgstats,
    )


def test_the_live_part_holds_the_headline_and_every_total(pages: Pages, journal: Journal) -> None:
    session = proposing(journal)
    session.press(Press(Action.CONFIRM), 2.0)
    view, doc = seen(session.state, 2.0)
    page = Parsed(pages.live(view, doc, Language.ENGLISH))
    assert page.find("html") == []
    assert (
        page.one(id="headline").words
        == view.headline
        == "Round 1 scored. Clear the table for round 2"
    )
    totals = {e.attrs["data-total"]: int(e.words) for e in page.find(data_total=None)}
    assert totals == doc["totals"] == {"Ann": 3, "Ben": 4, SCRIPT: 0, "Dan": 3}
    assert page.one(class_="now").attrs["data-version"] == "7"
    assert page.one(id="last-round").words.startswith("Round 1")


def test_the_table_page_wraps_the_live_part_with_its_token_and_navigation(
    pages: Pages, journal: Journal
) -> None:
    page = Parsed(table_page(pages, proposing(journal).state))
    assert page.one("html").attrs["lang"] == "en"
    assert page.one("meta", name="csrf-token").attrs["content"] == "token-1"
    body = page.one("body")
    assert body.attrs["data-page"] == "table" and "data-live" in body.attrs
    live = page.one("div", id="live")
    assert page.one(id="proposal", within=live).words.startswith("Proposed score: round 1")
    assert page.one(data_points="Ben").words == "+4"
    assert page.one(data_points=SCRIPT).words == "0"
    nav = page.one("nav")
    links = {e.attrs["id"]: e.attrs["href"] for e in page.find("a", nav)}
    assert links == {
        "nav-table": "/",
        "nav-games": "/games",
        "nav-setup": "/setup",
        "nav-staff": "/staff",
    }
    assert "hidden" in page.one(id="nav-setup").attrs
    assert page.one(id="reconnecting").attrs.get("hidden") == ""
    assert page.one("link").attrs["href"] == "/static/page.css"


def test_a_player_named_like_a_script_is_shown_as_text_on_every_page(
    pages: Pages, journal: Journal
) -> None:
    session = proposing(journal)
    table = table_page(pages, session.state)
    session.press(Press(Action.CONFIRM), 2.0)
    game = Played(journal, 1)
    for html in (
        table,
        game_page(pages, game, staff=True),
        pages.games(game.history.games(), Language.ENGLISH),
        pages.message(phrase("Round {number}", number=1), SCRIPT, Language.ENGLISH, 400),
    ):
        assert SCRIPT not in html
        assert ESCAPED in html
        scripts = [e.attrs for e in Parsed(html).find("script")]
        assert scripts == [{"src": "/static/page.js", "defer": ""}]


def test_a_name_typed_on_a_phone_is_escaped_on_the_setup_page(
    pages: Pages, journal: Journal
) -> None:
    session = at_names(journal)
    session.name("red", SCRIPT, 0.0)
    html = pages.setup(seen(session.state)[1], Language.ENGLISH, csrf="token-1")
    assert SCRIPT not in html
    assert Parsed(html).one("input", name="name-red").attrs["value"] == SCRIPT


def test_the_static_files_are_the_style_sheet_and_the_script_and_nothing_else(
    pages: Pages,
) -> None:
    css, js = pages.static("page.css"), pages.static("page.js")
    assert css is not None and css[1] == "text/css; charset=utf-8" and b".kit-red" in css[0]
    assert js is not None and js[1] == "text/javascript; charset=utf-8"
    assert b"EventSource" in js[0]
    for name in (
        "",
        "PAGE.CSS",
        "../pages.py",
        "static/page.css",
        "./page.css",
        "/etc/passwd",
        "page.css/",
        "base.html",
        "pages.py",
        "page.css\x00",
    ):
        assert pages.static(name) is None, name


def test_the_style_sheet_has_every_kit_colour_as_the_screen_draws_it(pages: Pages) -> None:
    static = pages.static("page.css")
    assert static is not None
    css = static[0].decode()
    for colour in COLOURS:
        red, green, blue = colour.rgb
        assert f".kit-{colour.name} {{ --kit: rgb({red} {green} {blue}); }}" in css


def test_a_french_table_page_speaks_french(pages: Pages, journal: Journal) -> None:
    state = speaking(proposing(journal).state, Language.FRENCH)
    page = Parsed(table_page(pages, state))
    assert page.one("html").attrs["lang"] == "fr"
    assert page.one(id="headline").words == present(state, 1.0, None).headline
    assert page.one(id="headline").words.startswith("Manche 1")
    navigation = [page.one(id=f"nav-{name}").words for name in ("table", "games", "staff")]
    assert navigation == ["Table", "Parties", "Personnel"]
    assert page.one(id="reconnecting").words == "Reconnexion…"
    assert page.one("span", class_="target").words == "en 30 points"
    assert page.one("span", class_="badge").words == "raconte"
    assert page.one("body").attrs["data-unreachable"] == "La table ne répond pas\u00a0; réessayez"


def test_a_french_game_page_gives_reasons_and_words_in_french(
    pages: Pages, journal: Journal
) -> None:
    game = played(journal, "classic-1e-4-players", rounds=1)
    html = game_page(pages, game, language=Language.FRENCH)
    page = Parsed(html)
    round_1 = page.one("section", data_round="1")
    assert page.one("h2", within=round_1).words == "Manche 1"
    assert page.one(class_="storyteller", within=round_1).words == "Conteur\u00a0: red"
    lists = page.find("ul", round_1, class_="reasons")
    reasons = [e.words for reasons in lists for e in page.find("li", reasons)]
    assert len(lists) == 4 and len(reasons) >= 4
    assert all("storyteller" not in r and "card" not in r for r in reasons)
    assert "0 n'a pas trouvé la carte du conteur" in reasons
    assert page.one(id="export-json").words == "Fichier de partie (JSON)"


def test_the_game_page_shows_every_round_its_photos_and_its_downloads(
    pages: Pages, journal: Journal
) -> None:
    game = played(journal, "odyssey-8-players")
    page = Parsed(game_page(pages, game, bgstats=BGSTATS))
    numbers = [e.attrs["data-round"] for e in page.find("section", data_round=None)]
    assert numbers == [str(n) for n in range(9, 0, -1)]
    assert page.one("section", data_round="3").words.startswith("Round 3")
    base = f"/api/games/{game.id}/rounds/3"
    assert page.one("img", class_="frame", src=f"{base}/frame.jpg")
    assert page.one("img", class_="overlay", src=f"{base}/overlay.jpg")
    downloads = {e.attrs["id"]: e.attrs["href"] for e in page.find("a", page.one(id="downloads"))}
    assert downloads == {
        "export-json": f"/api/games/{game.id}/export",
        "export-csv": f"/api/games/{game.id}/export.csv",
        "export-zip": f"/api/games/{game.id}/export.zip",
        "bgstats": BGSTATS,
    }
    assert page.find("form") == []
    summary = game.history.game(game.id)
    assert isinstance(summary, GameSummary)
    standings = {e.attrs["data-total"]: int(e.words) for e in page.find(data_total=None)}
    assert standings == dict(summary.totals)
    assert page.one(id="winners").words == f"Won by {', '.join(summary.winners)}"


def test_a_game_without_a_bgstats_link_offers_none(pages: Pages, journal: Journal) -> None:
    page = Parsed(game_page(pages, played(journal, "odyssey-8-players", rounds=2)))
    assert page.find(id="bgstats") == []
    assert page.find(id="winners") == []


def test_each_round_says_who_told_who_scored_what_and_why_and_who_voted_where(
    pages: Pages, journal: Journal
) -> None:
    game = played(journal, "odyssey-8-players", rounds=1)
    page = Parsed(game_page(pages, game))
    score = journal.load(game.id).game.played[0].score
    round_1 = page.one("section", data_round="1")
    assert page.one(class_="storyteller", within=round_1).words == "green told"
    lines = {e.attrs["data-scorer"]: e for e in page.find("li", round_1, class_="line")}
    assert list(lines) == list(score.deltas)
    for scorer, line in lines.items():
        reasons = [e.words for e in page.find("li", line)]
        assert reasons == list(score.reasons[scorer])
        points = score.deltas[scorer]
        assert page.one(data_points=scorer, within=line).words == (f"+{points}" if points else "0")
    slot_5 = page.one("li", round_1, data_slot="5")
    assert "black's card" in slot_5.words
    voters = [e.attrs["data-voter"] for e in page.find("span", slot_5, class_="voter")]
    assert sorted(voters) == sorted(score.round.reveal.votes_on(5)) == ["red", "yellow"]
    storytellers = page.one("li", round_1, class_="slot told")
    assert storytellers.attrs["data-slot"] == "1"


def test_a_round_without_pictures_shows_none(pages: Pages, journal: Journal) -> None:
    page = Parsed(game_page(pages, played(journal, "classic-1e-4-players", 2, images=False)))
    assert page.find("img") == []
    assert len(page.find("section", data_round=None)) == 2


def test_the_staff_get_a_correction_form_per_round_prefilled_from_the_round(
    pages: Pages, journal: Journal
) -> None:
    game = played(journal, "odyssey-8-players", rounds=2)
    page = Parsed(game_page(pages, game, staff=True))
    forms = {f.attrs["data-round"]: f for f in page.find("form", class_="correction")}
    assert sorted(forms) == ["1", "2", "3"], "the played rounds, and the one being played"
    assert {chosen(page, s) for s in page.find("select", forms["3"], data_slot=None)} == {""}
    form = forms["1"]
    assert form.attrs["data-game"] == str(game.id)
    reveal = journal.load(game.id).game.played[0].score.round.reveal
    owners = {
        int(select.attrs["data-slot"]): chosen(page, select)
        for select in page.find("select", form, data_slot=None)
    }
    assert owners == {slot: reveal.cards.get(slot, "") for slot in SLOTS}
    votes: dict[str, list[str]] = {}
    for select in page.find("select", form, data_voter=None):
        votes.setdefault(select.attrs["data-voter"], []).append(chosen(page, select))
    assert set(votes) == set(reveal.cards.values()) - {"green"}  # all but the storyteller
    assert all(len(dials) == 2 for dials in votes.values())  # Odyssey: two dials at 8
    assert votes["red"] == ["5", "6"] and votes["blue"] == ["6", ""]
    assert page.find("select", form, data_trap=None) == []


def chosen(page: Parsed, select: Element) -> str:
    """The value of a select's selected option."""
    return page.one("option", select, selected=None).attrs["value"]


def test_a_party_round_correction_has_the_trap(pages: Pages, journal: Journal) -> None:
    game = played(journal, "party-1e-7-players", rounds=1)
    page = Parsed(game_page(pages, game, staff=True))
    reveal = journal.load(game.id).game.played[0].score.round.reveal
    assert reveal.trap is not None
    forms = {f.attrs["data-round"]: f for f in page.find("form", class_="correction")}
    assert chosen(page, page.one("select", forms["1"], data_trap=None)) == str(reveal.trap)


def test_an_abandoned_game_has_no_correction_form(pages: Pages, journal: Journal) -> None:
    first = played(journal, "classic-1e-4-players", rounds=2)
    played(journal, "classic-1e-4-players", rounds=1)  # the first is abandoned
    assert Parsed(game_page(pages, first, staff=True)).find("form") == []


def test_a_corrected_round_wears_a_badge(pages: Pages, journal: Journal) -> None:
    game = played(journal, "classic-1e-4-players", rounds=3)
    reveal = journal.load(game.id).game.played[1].score.round.reveal
    votes = {**reveal.votes, "yellow": (3,)}  # yellow found blue's card after all
    journal.correct_round(game.id, 2, replace(reveal, votes=votes))
    page = Parsed(game_page(pages, game))
    badge = page.one(data_corrected=None)
    assert badge.words == "corrected"
    assert page.one("section", data_round="2") in badge.parents


def test_the_list_of_games_is_newest_first_and_names_a_damaged_game(
    pages: Pages, journal: Journal
) -> None:
    party = played(journal, "party-1e-7-players")
    classic = played(journal, "classic-1e-4-players", rounds=3)
    spoil_party_round_5(journal.path)
    page = Parsed(pages.games(classic.history.games(), Language.ENGLISH))
    lines = page.find("li", class_="game-line")
    assert [line.attrs["data-game"] for line in lines] == [str(classic.id), str(party.id)]
    assert [line.attrs["data-status"] for line in lines] == ["playing", "damaged"]
    assert "round 5" in lines[1].words
    link = page.one("a", href=f"/games/{classic.id}")
    assert link.words.startswith(f"Game {classic.id} in progress Dixit, first edition")
    assert page.find("a", href=f"/games/{party.id}") == []


def test_an_empty_journal_lists_no_game(pages: Pages) -> None:
    page = Parsed(pages.games((), Language.ENGLISH))
    assert page.one(id="no-games").words.startswith("No game")


def test_the_setup_page_has_a_name_field_per_seat_and_the_edition_and_options(
    pages: Pages, journal: Journal
) -> None:
    session = at_names(journal)
    session.name("blue", "Ben", 0.0)
    doc = seen(session.state)[1]
    page = Parsed(pages.setup(doc, Language.ENGLISH, csrf="token-1"))
    form = page.one("form", id="setup-form")
    assert "hidden" not in form.attrs
    assert "hidden" in page.one(id="setup-closed").attrs
    names = [e for e in page.find("input", form) if e.attrs["name"].startswith("name-")]
    assert [e.attrs["name"] for e in names] == [
        "name-red",
        "name-blue",
        "name-green",
        "name-yellow",
    ]
    assert [e.attrs["value"] for e in names] == ["", "Ben", "", ""]
    assert [e.attrs["placeholder"] for e in names] == ["Red", "Blue", "Green", "Yellow"]
    rows = [e.attrs["name"] for e in page.templates if e.tag == "input"]
    assert rows == [f"name-{colour}" for colour in KIT_COLOURS]
    edition = page.one("select", id="ruleset")
    assert edition.attrs["data-value"] == chosen(page, edition) == "odyssey"
    assert len(page.find("option", edition)) == len(EDITIONS)
    target = page.one("select", name="option-target")
    assert target.attrs["data-value"] == chosen(page, target) == "30"
    deck = page.one("option", page.one("select", name="option-deck"), selected=None)
    assert deck.words == "84 cards"
    assert page.one("meta", name="csrf-token").attrs["content"] == "token-1"


def test_the_setup_page_while_a_game_is_played_says_so(pages: Pages, journal: Journal) -> None:
    doc = seen(started(journal).state)[1]
    page = Parsed(pages.setup(doc, Language.ENGLISH, csrf="token-1"))
    assert "hidden" in page.one("form", id="setup-form").attrs
    assert "hidden" not in page.one(id="setup-closed").attrs


def test_the_table_page_leads_to_the_setup_page_while_the_table_sets_up(
    pages: Pages, journal: Journal
) -> None:
    page = Parsed(table_page(pages, at_names(journal).state))
    assert "hidden" not in page.one(id="nav-setup").attrs
    step = page.one(id="setup-step")
    assert page.one("li", step, aria_current="step").words == "Names"
    assert page.one(id="to-setup").attrs["href"] == "/setup"
    assert page.find(id="scores") == []


def test_the_staff_page_asks_for_the_pin_then_offers_the_tables_buttons(
    pages: Pages, journal: Journal
) -> None:
    state = proposing(journal).state
    doc, waiting = seen(state)[1], pending(state, 7, 1.0)
    locked = Parsed(
        pages.staff(doc, Language.ENGLISH, csrf="token-1", staff=False, waiting=waiting)
    )
    assert locked.one("input", id="pin").attrs["type"] == "password"
    assert locked.find(id="staff-confirm") == []
    unlocked = Parsed(
        pages.staff(doc, Language.ENGLISH, csrf="token-1", staff=True, waiting=waiting)
    )
    assert unlocked.find(id="pin") == []
    actions = {e.attrs["id"]: e.attrs["data-action"] for e in unlocked.find(data_action=None)}
    # round 1 is proposed: nothing to undo yet
    assert actions == {"staff-confirm": "confirm", "staff-abandon": "abandon"}
    assert unlocked.one(id="staff-game").attrs["href"] == f"/games/{doc['game']}"
    assert unlocked.one("form", id="staff-logout")


def test_the_winner_is_on_the_live_part(pages: Pages, journal: Journal) -> None:
    session = started(journal, target=3)
    session.see(table_of(ROUND_1, LINEUP), True, 1.0)
    session.press(Press(Action.CONFIRM), 1.0)
    view, doc = seen(session.state, 9.0)
    page = Parsed(pages.live(view, doc, Language.ENGLISH))
    winner = page.one(id="winner")
    assert page.one(class_="winner-heading", within=winner).words == "Winner"
    assert page.one(class_="winner-names", within=winner).words == "Ben"


def test_a_proposal_that_confirms_itself_shows_its_countdown(
    pages: Pages, journal: Journal
) -> None:
    view, doc = seen(proposing(journal, auto=10.0).state, 3.5)
    assert view.countdown is not None
    page = Parsed(pages.live(view, doc, Language.ENGLISH))
    countdown = page.one(id="countdown")
    seconds = str(math.ceil(view.countdown))
    assert countdown.attrs["data-seconds"] == seconds
    assert page.one(class_="seconds", within=countdown).words == seconds
    assert countdown.words == f"Confirms by itself in {seconds} s"


def test_an_error_page_says_what_went_wrong_in_the_tables_language(pages: Pages) -> None:
    page = Parsed(pages.message(phrase("Round {number}", number=4), SCRIPT, Language.FRENCH, 404))
    assert page.one("html").attrs["lang"] == "fr"
    assert page.one(id="message-title").words == "Manche 4"
    assert page.one(id="message-detail").words == SCRIPT
    assert page.one(id="message").attrs["data-status"] == "404"


# A year of service: damaged, pruned and archived pictures and games


def spoil_frame(path: Path, game_id: int, number: int) -> None:
    """Change a kept frame's bytes behind the journal's back, its checksum left as it was."""
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE round_images SET frame = ? WHERE game_id = ? AND number = ?",
        (b"\xff\xd8 not the frame that was kept", game_id, number),
    )
    conn.commit()
    conn.close()


def checked_page(pages: Pages, game: Played, *, staff: bool = False) -> Parsed:
    """The game page as its route makes it, from the game read whole (every kept picture
    checked against its checksum)."""
    summary, stored, rounds = game.history.whole(game.id)
    html = pages.game(
        stored,
        summary,
        rounds,
        Language.ENGLISH,
        csrf="token-1",
        staff=staff,
        slots=SLOTS,
        bgstats=None,
    )
    return Parsed(html)


def test_a_damaged_picture_is_named_damaged_and_never_linked(
    pages: Pages, journal: Journal
) -> None:
    game = played(journal, "odyssey-8-players", rounds=3)
    spoil_frame(journal.path, game.id, 2)
    page = checked_page(pages, game)
    round_2 = page.one("section", data_round="2")
    damaged = page.one("figure", round_2, data_damaged="frame")
    assert page.one("p", damaged).words == "picture damaged"
    assert page.one("figcaption", damaged).words == "Photo"
    assert page.find("img", round_2, class_="frame") == []
    assert page.find("a", round_2, href=f"/api/games/{game.id}/rounds/2/frame.jpg") == []
    assert page.one("img", round_2, class_="overlay")
    round_3 = page.one("section", data_round="3")
    assert page.one("img", round_3, class_="frame")
    assert page.find(data_damaged=None, within=round_3) == []


def test_a_pruned_round_says_its_pictures_are_no_longer_kept(
    pages: Pages, journal: Journal
) -> None:
    game = played(journal, "classic-1e-4-players", rounds=2)
    played(journal, "classic-1e-4-players", rounds=1)  # the first is over: abandoned
    assert journal.prune_pictures(datetime.now(UTC) + timedelta(days=1)) == game.id
    page = checked_page(pages, game)
    assert page.find("img") == []
    notes = page.find("p", data_pruned=None)
    assert [note.words for note in notes] == ["pictures no longer kept"] * 2


def test_archived_games_are_listed_with_a_badge_and_their_page_shows_it(
    pages: Pages, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as writer, Journal(archive_path(path)) as archive:
        old = played(writer, "classic-1e-4-players")
        played(writer, "odyssey-8-players", rounds=1)
        assert archive_games(writer, archive, datetime.now(UTC) + timedelta(days=1)) == 1
        with JournalFile(path) as reader, JournalFile(archive_path(path)) as archived:
            history = History(reader, archived)
            listing = Parsed(pages.games(history.games(), Language.ENGLISH))
            summary, stored, rounds = history.whole(old.id)
            page = Parsed(
                pages.game(
                    stored,
                    summary,
                    rounds,
                    Language.ENGLISH,
                    csrf="token-1",
                    staff=False,
                    slots=SLOTS,
                    bgstats=None,
                )
            )
    newest, line = listing.find("li", class_="game-line")
    assert line.attrs["data-game"] == str(old.id)
    assert listing.one(data_archived=None, within=line).words == "archived"
    assert listing.find(data_archived=None, within=newest) == []
    assert page.one("h1").words.endswith("finished archived")
    assert page.one("img", page.one("section", data_round="1"), class_="frame")
