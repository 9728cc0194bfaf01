"""The live stream: every phone hears of each new snapshot, a few times a second at most.

One task polls the loop's published snapshot (a plain read: the loop never waits on
it) and, when its version has moved, renders the page's live part once for every
phone following; each phone keeps only the newest update, so a slow phone skips
to the latest state instead of queueing the whole evening.
"""

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable

from companion.session.states import Snapshot

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25
"""How often the snapshot is looked at: updates at most four times a second."""
KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps idle connections (and café Wi-Fi) open."""
MAX_FOLLOWERS = 200
"""Phones following at once; more are refused (a table has a dozen players)."""
STREAM_SECONDS = 300.0
"""The longest one stream lasts: the phone's browser opens the next by itself, and a
connection whose phone went away unnoticed (it sent more bytes, then vanished) frees
its place within this time."""


class Live:
    """The newest update of the page's live part, handed to every phone following."""

    def __init__(self, snapshot: Callable[[], Snapshot], render: Callable[[Snapshot], str]) -> None:
        self.snapshot = snapshot
        """The loop's published snapshot now."""
        self.render = render
        """The update a snapshot makes (the JSON of an event's data)."""
        self._followers: set[asyncio.Queue[str]] = set()
        self._latest: tuple[int, str] | None = None
        self._stopping = False

    def stop(self) -> None:
        """End every stream within `POLL_SECONDS` (the server is stopping); safe from
        any thread."""
        self._stopping = True

    def full(self) -> bool:
        """Whether no more phones may follow."""
        return len(self._followers) >= MAX_FOLLOWERS

    async def run(self) -> None:
        """Watch the snapshot until cancelled, handing each new update out."""
        while True:
            if self._followers:
                try:
                    self._publish(self.latest())
                except Exception:  # a page that cannot be drawn must not end the stream
                    log.exception("the live page could not be drawn")
            await asyncio.sleep(POLL_SECONDS)

    def latest(self) -> str:
        """The update for the snapshot now (rendered again only when it moved on)."""
        snapshot = self.snapshot()
        if self._latest is None or self._latest[0] != snapshot.version:
            self._latest = (snapshot.version, self.render(snapshot))
        return self._latest[1]

    def _publish(self, update: str) -> None:
        for queue in self._followers:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(update)

    async def follow(self) -> AsyncIterator[str]:
        """The stream of one phone, as server-sent event lines: the state now, then
        every change, with a keep-alive comment when nothing happens."""
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        self._followers.add(queue)
        sent = self.latest()
        clock = asyncio.get_running_loop().time
        ends = clock() + STREAM_SECONDS
        quiet = 0.0
        try:
            yield _event(sent)
            while not self._stopping and clock() < ends:
                try:
                    update = await asyncio.wait_for(queue.get(), POLL_SECONDS)
                except TimeoutError:
                    quiet += POLL_SECONDS
                    if quiet >= KEEPALIVE_SECONDS:
                        quiet = 0.0
                        yield ": still here\n\n"
                    continue
                quiet = 0.0
                if update != sent:
                    sent = update
                    yield _event(update)
        finally:
            self._followers.discard(queue)


def _event(data: str) -> str:
    """One server-sent event; `data` is JSON, so it holds no line break."""
    return f"data: {data}\n\n"


def update(version: int, html: str, state: dict[str, object], staff: str = "") -> str:
    """An update's data: the version, the live part's HTML, the state's JSON, and the
    staff page's panel (what waits for the staff, with the buttons that apply)."""
    data = {"version": version, "html": html, "state": state, "staff": staff}
    return json.dumps(data, ensure_ascii=False)
