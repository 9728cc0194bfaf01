"""A real browser against a real table: Debian's chromium driven by Playwright, and
`companion demo` in a subprocess serving its phone page.

No browser is ever downloaded: Playwright drives the chromium Debian installs
(./scripts/test installs it), and a machine without it fails the tests that need it,
saying so, rather than skipping them. The demo listens on a port the system picks and
says where on stderr; it is stopped as Ctrl-C stops it, and must exit cleanly.
Every wait has a deadline: the table is followed by its own live stream, not polled.
"""

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright

from tests.web.desk import PIN

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium, the only browser the tests use."""
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
"""Headless, and quiet: it asks nothing of the network but the demo's page."""
PHONE_WIDTH = 390
"""A phone's viewport in CSS pixels (an iPhone 12 to 15)."""
PHONE_HEIGHT = 844
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
"""The phone's own language for each table language."""
START_SECONDS = 120.0
"""How long the demo may take to serve its page (2 busy cores, a calibration first)."""
STOP_SECONDS = 60.0
"""How long the demo may take to stop once interrupted."""
WAIT_SECONDS = 90.0
"""How long a test waits for the table to get somewhere by default."""
HTTP_SECONDS = 60.0
"""How long a request to the demo's page may take to be answered."""
EXPECT_MS = 90_000
"""How long the browser waits for a page to load, to act on it, or to show something.

Each of these waits only bounds a failure: they are generous for a loaded machine,
where the demo, the browser and the test share two busy cores."""
_PAGE_AT = re.compile(r"companion demo: phone page at (http://\S+)")
_UNSERVICED = ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")
"""The service manager's variables: the demo runs as if started by hand."""


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's chromium, headless; the test fails, saying how to install it, where
    it is missing."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"Debian's chromium is not installed ({CHROMIUM} is missing): run ./scripts/test, "
            "which installs it (the browser tests never download a browser)",
            pytrace=False,
        )
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS), headless=True
    )


def phone(browser: Browser, language: str = "en", scale: float = 2) -> BrowserContext:
    """A fresh phone (no cookies: not staff) with a phone's viewport, touch, and the
    language of the table's players."""
    context = browser.new_context(
        viewport={"width": PHONE_WIDTH, "height": PHONE_HEIGHT},
        device_scale_factor=scale,
        is_mobile=True,
        has_touch=True,
        locale=LOCALES.get(language, language),
    )
    context.set_default_timeout(EXPECT_MS)
    return context


@dataclass
class Demo:
    """A `companion demo` running in a subprocess, its phone page at `url`."""

    process: "subprocess.Popen[str]"
    url: str
    """The page's address, ending in a slash."""
    folder: Path
    """Where its journal, screens and output are."""
    said: list[str] = field(default_factory=list)
    """Its stderr so far (a reader thread keeps it drained)."""
    stdout: IO[str] | None = None

    @property
    def journal(self) -> Path:
        return self.folder / "journal.sqlite"

    @property
    def out(self) -> Path:
        """The folder the demo saves the table's screens to."""
        return self.folder / "screens"

    def address(self, path: str) -> str:
        return self.url + path.lstrip("/")

    def get(self, path: str) -> httpx.Response:
        answer = httpx.get(self.address(path), timeout=HTTP_SECONDS)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
        return answer

    def json(self, path: str) -> Any:
        return self.get(path).json()

    def state(self) -> dict[str, Any]:
        """`GET /api/state`: the table now."""
        state: dict[str, Any] = self.json("/api/state")
        return state

    def wait_for(
        self,
        holds: Callable[[Mapping[str, Any]], bool],
        what: str,
        seconds: float = WAIT_SECONDS,
    ) -> dict[str, Any]:
        """The first state of the table for which `holds` is true, followed on the live
        stream the page follows; fails saying `what` was waited for, and the last
        state seen, after `seconds` (at once if the demo stops serving)."""
        deadline = time.monotonic() + seconds
        last: dict[str, Any] | None = None
        timeout = httpx.Timeout(HTTP_SECONDS, read=seconds)
        try:
            with httpx.stream("GET", self.address("/events"), timeout=timeout) as stream:
                for line in stream.iter_lines():
                    if line.startswith("data: "):
                        last = json.loads(line.removeprefix("data: "))["state"]
                        if holds(last):
                            return last
                    if time.monotonic() > deadline:
                        break
        except httpx.TransportError as error:
            last = last or {"no stream": repr(error)}
        raise AssertionError(
            f"the table did not get to {what} (waited up to {seconds:.0f} s); "
            f"last state: {last}\n" + self.output()
        )

    def output(self) -> str:
        """What the demo said (and how it ended, if it did), for a failure's message."""
        status = self.process.poll()
        ended = "" if status is None else f"the demo exited {status}; "
        tail = "\n".join(self.said[-60:])
        return f"{ended}its stderr (last lines):\n{tail}"

    def stop(self) -> int:
        """Interrupt the demo as Ctrl-C does and wait for it; its exit status."""
        try:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
            try:
                return self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.send_signal(signal.SIGABRT)  # its threads' stacks, to stderr
                try:
                    self.process.wait(STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(STOP_SECONDS)
                raise AssertionError(
                    f"the demo did not stop within {STOP_SECONDS:.0f} s of Ctrl-C\n" + self.output()
                ) from None
        finally:
            if self.stdout is not None:
                self.stdout.close()


def start_demo(
    folder: Path,
    *options: str,
    language: str = "en",
    pin: str | None = PIN,
    environ: Mapping[str, str] = os.environ,
) -> Demo:
    """`companion demo` headless in a subprocess, its page on a port of 127.0.0.1 the
    system picks, its journal and screens in `folder`, the staff PIN `pin` in its
    environment; back once its page is served (fails, with what it said, if it is not
    within `START_SECONDS`)."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in environ.items() if k not in _UNSERVICED}
    env.pop("COMPANION_STAFF_PIN", None)
    env["PYTHONFAULTHANDLER"] = "1"  # a demo that hangs tells where, when aborted
    if pin is not None:
        env["COMPANION_STAFF_PIN"] = pin
    command = [
        sys.executable,
        "-m",
        "companion",
        "demo",
        "--headless",
        "--web",
        "127.0.0.1:0",
        "--journal",
        str(folder / "journal.sqlite"),
        "--out",
        str(folder / "screens"),
        "--language",
        language,
        *options,
    ]
    stdout = (folder / "stdout.txt").open("w", encoding="utf-8")
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        preexec_fn=_ctrl_c_heard,
    )
    said: list[str] = []
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_drain, args=(process, said, lines), daemon=True).start()
    demo = Demo(process, "", folder, said, stdout)
    deadline = time.monotonic() + START_SECONDS
    while True:
        left = deadline - time.monotonic()
        try:
            line = lines.get(timeout=max(left, 0.0)) if left > 0 else None
        except queue.Empty:
            line = None
        found = _PAGE_AT.search(line) if line else None
        if found:
            demo.url = found.group(1).rstrip("/") + "/"
            return demo
        if line is None:
            process.kill()
            process.wait(STOP_SECONDS)
            stdout.close()
            raise AssertionError(
                f"the demo served no phone page within {START_SECONDS:.0f} s "
                f"(exit status {process.returncode})\n" + demo.output()
            )


def _ctrl_c_heard() -> None:
    """In the demo's process before it starts: Ctrl-C (SIGINT) is heard, even where the
    tests run as a background job, whose children inherit it ignored (Python then never
    turns it into KeyboardInterrupt, and `Demo.stop` would wait in vain)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _drain(
    process: "subprocess.Popen[str]", said: list[str], lines: "queue.Queue[str | None]"
) -> None:
    """Keep the demo's stderr read (a full pipe would stop it), each line kept and
    handed on; None once it closes."""
    assert process.stderr is not None
    for line in process.stderr:
        said.append(line.rstrip("\n"))
        lines.put(line)
    lines.put(None)
