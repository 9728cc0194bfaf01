"""A table for the phone page's tests: a real session over a real journal file,
served by the real web application.

The `Desk` is the `companion.web.site.Table` the routes see, as the loop is: a
snapshot to read, a clock, and a queue whose commands are acted on at once (as the
loop would at its next step). SQLite connections belong to the thread that opened
them, so the journal is opened and the session driven on one thread of the desk's
own, whichever thread (a test, the test client's, uvicorn's) asks.
"""

import re
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
from starlette.testclient import TestClient

from companion.actions import Action, Press
from companion.errors import CompanionError
from companion.journal import History, Journal, RoundImages
from companion.language import Language
from companion.rules import Reveal, RoundScore, find_ruleset
from companion.runtime.effects import JournalEffects, Pictures
from companion.session.commands import Command, Verdict
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.states import Snapshot
from companion.vision.records import TableObservation
from companion.web.app import make_app
from companion.web.pages import Pages
from companion.web.reader import JournalReader
from companion.web.site import Site
from companion.web.staff import CSRF_COOKIE, CSRF_HEADER, StaffGate
from tests.session.observations import table_of

T = TypeVar("T")

PIN = "246810"
"""The table's staff PIN in these tests."""
BASE_URL = "http://127.0.0.1"
"""The door lets in only hosts that are IP addresses or localhost."""
SLOTS = tuple(range(1, 13))
"""The board's slots."""
LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
"""The players of a game in progress, in seating order; Ann tells first."""
ODYSSEY = find_ruleset("odyssey")
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8
"""A round's frame as the camera keeps it."""
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(255, -1, -1)) * 8
"""A round's overlay."""
EMPTY = TableObservation()
WORK_SECONDS = 30.0
"""The longest any work on the desk's thread may take."""
HOP_SECONDS = 2.0
"""How far the desk's clock moves between the steps of a round: past the rabbits' hop
and the winner screen's grace, so every press counts."""

_CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]*)">')


def round_of(number: int, names: tuple[str, ...] = LINEUP.names) -> Reveal:
    """A legal round `number` (storytellers in seating order from the first): each
    player's card on the slot of their seat; the first after the storyteller and the
    third find the storyteller's card, the second votes for the first's.

    With four players: the storyteller 3, the two finders 3, the first 1 more."""
    turn = (number - 1) % len(names)
    teller, others = names[turn], names[turn + 1 :] + names[:turn]
    slot = {name: at for at, name in enumerate(names, start=1)}
    votes = {others[0]: (slot[teller],), others[1]: (slot[others[0]],), others[2]: (slot[teller],)}
    votes |= dict.fromkeys(others[3:], (slot[teller],))
    return Reveal({at: name for name, at in slot.items()}, votes)


def all_find(number: int, names: tuple[str, ...] = LINEUP.names) -> Reveal:
    """Round `number` with every other player finding the storyteller's card: the
    storyteller scores nothing, the others 2 each."""
    teller = names[(number - 1) % len(names)]
    slot = {name: at for at, name in enumerate(names, start=1)}
    return Reveal(
        {at: name for name, at in slot.items()},
        {voter: (slot[teller],) for voter in names if voter != teller},
    )


class Desk:
    """The game loop as the web server sees it, over a real session and journal."""

    def __init__(self, path: Path, start: Callable[[Journal], Session]) -> None:
        self.path = path
        """The journal file."""
        self.clock = 0.0
        """The loop's clock (`now`), moved by the test."""
        self.submitted: list[Command] = []
        """Every command that reached the table, in order."""
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="desk")
        self.journal: Journal = self.do(lambda: Journal(path))
        try:
            self.session: Session = self.do(lambda: start(self.journal))
        except BaseException:
            self.close()
            raise

    def do(self, work: Callable[[], T]) -> T:
        """Run `work` on the desk's thread (where the journal was opened) and give its result."""
        return self._pool.submit(work).result(WORK_SECONDS)

    def snapshot(self) -> Snapshot:
        return self.session.snapshot

    def now(self) -> float:
        return self.clock

    def submit(self, command: Command) -> "Future[Verdict]":
        """The command acted on at once, its verdict in a finished future (an error is
        the verdict's reason, as the loop gives it)."""
        self.submitted.append(command)
        reply: Future[Verdict] = Future()
        reply.set_running_or_notify_cancel()
        try:
            verdict = self.do(lambda: self.session.command(command, self.clock))
        except CompanionError as error:
            verdict = Verdict(self.session.snapshot.version, error.phrase)
        reply.set_result(verdict)
        return reply

    def later(self, seconds: float = HOP_SECONDS) -> float:
        """Move the clock on; the time now."""
        self.clock += seconds
        return self.clock

    def press(self, action: Action, target: int | None = None) -> None:
        """A button pressed at the table."""
        self.do(lambda: self.session.press(Press(action, target), self.clock))

    def see(self, observation: TableObservation, steady: bool = True) -> None:
        """The camera's settled view of the table."""
        self.do(lambda: self.session.see(observation, steady, self.clock))

    def play(self, reveal: Reveal) -> None:
        """A round laid, proposed, confirmed at the table, and the table cleared."""
        state = self.session.state
        self.see(table_of(reveal, state.lineup))
        assert self.session.state.proposal is not None, self.session.state.phase
        self.press(Action.CONFIRM)
        self.later()
        self.see(EMPTY)
        self.later()

    def export(self, game_id: int) -> str:
        """The game as the journal exports it (read on the desk's thread)."""
        return self.do(lambda: History(self.journal).export(game_id))

    def history(self, work: Callable[[History], T]) -> T:
        """A read of the journal, on the desk's thread."""
        return self.do(lambda: work(History(self.journal)))

    @property
    def game_id(self) -> int:
        game_id = self.session.state.game_id
        assert game_id is not None, "no game in progress"
        return game_id

    def close(self) -> None:
        """Close the journal on its thread, then the thread; safe twice."""
        journal = getattr(self, "journal", None)
        if journal is not None:
            self._pool.submit(journal.close).result(WORK_SECONDS)
        self._pool.shutdown(wait=True)

    def __enter__(self) -> "Desk":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def photos(without: Collection[int] = ()) -> Pictures:
    """Pictures for every round but those numbered in `without`."""

    def pictures(proposal: RoundScore | None) -> RoundImages:
        if proposal is not None and proposal.round.number in without:
            return RoundImages(None, None)
        return RoundImages(JPEG, PNG)

    return pictures


def setting_up_desk(path: Path, language: Language = Language.ENGLISH) -> Desk:
    """A table setting up a new game, at the language step."""
    settings = Settings(SLOTS, language=language)
    return Desk(
        path, lambda journal: Session.setting_up(JournalEffects(journal, photos()), settings)
    )


def playing_desk(
    path: Path,
    rounds: int = 0,
    *,
    target: int | None = 30,
    language: Language = Language.ENGLISH,
    without_photos: Collection[int] = (),
) -> Desk:
    """A game of Odyssey for `LINEUP` (to `target` points) with `rounds` rounds
    (`round_of`) confirmed at the table, each with its photos unless `without_photos`
    names it; the table cleared, waiting for the next round."""
    ruleset = ODYSSEY.with_options({"target": target})
    settings = Settings(SLOTS, language=language)

    def start(journal: Journal) -> Session:
        return Session.new(
            ruleset, LINEUP, JournalEffects(journal, photos(without_photos)), settings
        )

    desk = Desk(path, start)
    desk.press(Action.CONFIRM)
    desk.later()
    desk.see(EMPTY)
    for number in range(1, rounds + 1):
        desk.play(round_of(number))
    return desk


@contextmanager
def served(
    desk: Desk, gate: StaffGate | None = None, journal: Path | None = None
) -> Iterator[TestClient]:
    """The phone page of `desk` in a test client (its lifespan running), reading the
    desk's journal file (or `journal`) as the server does."""
    reader = JournalReader(desk.path if journal is None else journal)
    site = Site(desk, reader, gate if gate is not None else StaffGate(PIN), Pages(), SLOTS)
    try:
        with TestClient(make_app(site), base_url=BASE_URL) as client:
            yield client
    finally:
        reader.close()


def csrf_token(client: TestClient) -> str:
    """The page's CSRF token: a page is asked for, as a phone opens it, and its token
    (which its cookie holds too) read from the page."""
    page = client.get("/")
    assert page.status_code == 200, page.text
    found = _CSRF_META.search(page.text)
    assert found is not None, "the page holds no CSRF token"
    assert client.cookies.get(CSRF_COOKIE) == found.group(1)
    return found.group(1)


def change(
    client: TestClient,
    path: str,
    body: Any,
    *,
    csrf: str | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """A change posted as the page's script posts it: JSON with the CSRF header
    (the page's token unless `csrf` is given)."""
    token = csrf_token(client) if csrf is None else csrf
    sent = {CSRF_HEADER: token, **(headers or {})}
    return client.post(path, json=body, headers=sent)


def log_in(client: TestClient, pin: str = PIN) -> httpx.Response:
    """Type the staff PIN on the page."""
    return change(client, "/staff/login", {"pin": pin})


def staff_client(client: TestClient) -> TestClient:
    """The client logged in as staff."""
    answer = log_in(client)
    assert answer.status_code == 200, answer.text
    return client
