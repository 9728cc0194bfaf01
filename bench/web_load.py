"""Benchmark of the phone page under load: does the game loop wait on thirty phones
following the live stream, does memory stay flat, and does every phone end on the
game's final totals?

    .venv/bin/python bench/web_load.py [--phones N] [--rounds N] [--speed TIMES]

It plays the headless demo (simulated table, simulated players, real reader,
stabiliser, session, journal and screen; Dixit Odyssey for six, seed 1, a game of
`--rounds` rounds, default 20, each in a temporary journal) two or three times in
this one process, the same game each time:

- (a) without the phone page;
- (b) with the page served on 127.0.0.1 (a free port) and N phones (default 30)
  following `GET /events` from another process (`bench/phones.py`), flat out: the
  game changes, and the stream sends updates, as fast as the machine reads frames;
- (c) the same at `--speed` times real time (default 4; 0 leaves it out), closer
  to a real table.

It prints, for each, the loop's step times (median with the 10th to 90th
percentile, 99th percentile, max, steps over twice the median of (a)), split into
the loop thread's CPU time and the rest, its waiting (for the CPU, which the web
thread, the phones and any other program on the machine share with it, or for the
disk), and the ratios to (a); the resident memory of the companion (as it is, and once glibc's
`malloc_trim` has handed back what the allocator kept) and of the phones' process
at rounds 0 (the game set up), 5, 10, 15 and 20; with the page, the companion's
threads and open file descriptors, the web thread's CPU time, and how many phones
ended on the journal's final totals, with the events and snapshot versions each
received.

The phones' process is another program, as phones are other devices, but on this
machine it shares the cores with the companion: its CPU time is printed beside the
web thread's. Frames the simulator had to draw (a new layout of the table) are left
out of the step times, as in bench/loop.py: drawing them is the simulation's cost.
With the page the table's screen also shows its QR code, as `companion demo`'s does:
its drawing is in (b)'s steps. The game is played with a round limit, so that it
ends on its winner screen (shown for `WINNER_FRAMES` frames) and the phones hear of
its end. Nothing here fails on time: it prints what it measured.
"""

import argparse
import ctypes
import gc
import itertools
import json
import logging
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from companion.closing import Closing
from companion.demo.demo import WINNER_FRAMES, DemoGame, demo_config, run_demo
from companion.errors import CompanionError
from companion.journal import Journal
from companion.rules import find_ruleset
from companion.runtime.camera import Watching
from companion.runtime.loop import Loop
from companion.sources.simulated import SimulatedTable
from companion.web.address import Listen
from companion.web.server import Listener, WebServer

PIN = "582914"
"""The staff PIN the page is served with (as at a café; no staff tool is used)."""
PHONES_SCRIPT = Path(__file__).with_name("phones.py")
FOLLOW_SECONDS = 60.0
"""How long the phones' process may take to start and have every phone follow."""
REPORT_SECONDS = 30.0
"""How long the phones' process may take to report once told to stop."""
LIBC = ctypes.CDLL("libc.so.6")
"""glibc, for `malloc_trim`."""
MEMORY_EVERY = 5
"""Memory is taken at the game's setup (round 0) and after every 5th round."""


def resident_mb(pid: int | str = "self") -> float:
    """A process's resident memory, in MB (Linux)."""
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def trimmed_mb() -> float:
    """The resident memory once the C allocator has handed back what it keeps free
    (glibc's `malloc_trim`): what the process holds, not what the allocator kept of
    the frames it freed."""
    LIBC.malloc_trim(0)
    return resident_mb()


def open_files() -> int:
    """The companion process's open file descriptors."""
    return len(os.listdir("/proc/self/fd"))


def thread_cpu_seconds(name: str) -> float | None:
    """CPU seconds of this process's thread called `name`, if it runs."""
    thread = next((t for t in threading.enumerate() if t.name == name), None)
    if thread is None or thread.native_id is None:
        return None
    fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text().rpartition(")")[2]
    utime, stime = fields.split()[11:13]
    return (int(utime) + int(stime)) / os.sysconf("SC_CLK_TCK")


def spread(values: list[float]) -> str:
    """Median with the 10th to 90th percentile, 99th percentile and max."""
    cuts = statistics.quantiles(values, n=100)
    return (
        f"{statistics.median(values):6.1f} ms ({cuts[9]:.1f} to {cuts[89]:.1f}), "
        f"p99 {cuts[98]:.1f}, max {max(values):.1f}"
    )


def p99(values: list[float]) -> float:
    """The 99th percentile."""
    return statistics.quantiles(values, n=100)[98]


class Phones(Closing):
    """The phones' process: started with this Python, following the page's stream."""

    def __init__(self, url: str, count: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(PHONES_SCRIPT), url, "--phones", str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        assert self.process.stdout is not None
        self._reader = threading.Thread(
            target=_read_lines, args=(self.process.stdout, self._lines), daemon=True
        )
        self._reader.start()

    def next_report(self, seconds: float) -> dict[str, Any]:
        """The process's next JSON line, waited for at most `seconds`."""
        try:
            return dict(json.loads(self._lines.get(timeout=seconds)))
        except queue.Empty:
            raise CompanionError(f"the phones said nothing in {seconds:.0f} s") from None

    def resident_mb(self) -> float:
        """The phones' process's resident memory, in MB."""
        return resident_mb(self.process.pid)

    def stop(self) -> dict[str, Any]:
        """Tell the phones to stop; what they received."""
        assert self.process.stdin is not None
        self.process.stdin.write("stop\n")
        self.process.stdin.close()
        report = self.next_report(REPORT_SECONDS)
        self.process.wait(REPORT_SECONDS)
        return report

    def close(self) -> None:
        """End the process if it still runs."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._reader.join(REPORT_SECONDS)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


class TimedClose(Closing):
    """The page's server, its closing timed (its open streams end first)."""

    def __init__(self, server: WebServer, run: "Run") -> None:
        self.server = server
        self.run = run

    def close(self) -> None:
        started = time.perf_counter()
        self.server.close()
        self.run.closing = time.perf_counter() - started


class ServerErrors(logging.Filter):
    """Counts, and keeps out of the output, what the web server logs as errors (a
    stream it has to cancel when it closes logs a traceback)."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            return True
        self.messages.append(record.getMessage().splitlines()[0])
        return False


def _read_lines(stream: IO[str], lines: "queue.Queue[str]") -> None:
    for line in stream:
        lines.put(line)


@dataclass
class Run:
    """What one game measured."""

    label: str
    steps: list[float] = field(default_factory=list)
    """Each loop step, in ms (frames the simulator drew left out)."""
    working: list[float] = field(default_factory=list)
    """The CPU time of the loop's thread in each of those steps, in ms: the rest of
    the step it waited (for the CPU, held by the web thread, the phones or other
    programs, or for the disk)."""
    memory: list[tuple[int, float, float, float | None]] = field(default_factory=list)
    """Round, the companion's resident MB, the same after `malloc_trim`, the phones'
    resident MB."""
    handles: list[tuple[str, int, int]] = field(default_factory=list)
    """When, the companion's threads, its open file descriptors."""
    web_cpu: float | None = None
    """CPU seconds of the web thread, at the game's end."""
    cpu: float = 0.0
    """CPU seconds of the companion process over the game."""
    seconds: float = 0.0
    """Wall-clock seconds of the game."""
    final_totals: dict[str, int] = field(default_factory=dict)
    """The game's final totals, from the journal."""
    final_version: int = 0
    """The loop's snapshot version at the end."""
    phones: dict[str, Any] | None = None
    """The phones' report."""
    server_errors: list[str] = field(default_factory=list)
    """What the web server logged as errors (at its close)."""
    closing: float = 0.0
    """Seconds the page took to close (its streams ended)."""
    following: dict[str, Any] | None = None
    """The phones' first report: how many followed."""


def play(
    label: str, folder: Path, args: argparse.Namespace, *, web: bool, speed: float | None
) -> Run:
    """Play the demo game once, timing every loop step, with or without the page. The
    games before are collected first: their garbage is neither this game's memory nor
    its collector's work."""
    gc.collect()
    run = Run(label)
    ruleset = find_ruleset("odyssey").with_options({"target": None, "round_limit": args.rounds})
    listener = Listener(Listen("127.0.0.1", 0)) if web else None
    phones: Phones | None = None
    loops: list[Loop] = []
    path = folder / f"{label}.sqlite"
    errors = ServerErrors()
    run.server_errors = errors.messages
    logged = logging.getLogger("uvicorn.error")

    def timed_step(loop: Loop) -> None:
        camera = loop.camera
        if camera is None:
            loop.step()
            return
        before = camera.state.status
        table = before.source if isinstance(before, Watching) else None
        drawn = table.last if isinstance(table, SimulatedTable) else None
        started, working = time.perf_counter(), time.thread_time()
        loop.step()
        elapsed = (time.perf_counter() - started) * 1000
        worked = (time.thread_time() - working) * 1000
        status = camera.state.status
        if not isinstance(status, Watching) or status.latest is None:
            return
        if isinstance(table, SimulatedTable) and table.last is not drawn:
            return
        run.steps.append(elapsed)
        run.working.append(worked)

    def take(number: int, when: str | None = None) -> None:
        held = resident_mb()
        phone_mb = phones.resident_mb() if phones else None
        run.memory.append((number, held, trimmed_mb(), phone_mb))
        if when is not None:
            run.handles.append((when, threading.active_count(), open_files()))

    def said(line: str) -> None:
        if line.startswith("demo: game ") and " set up " in line:
            take(0, "game set up" + (", phones following" if phones else ""))
            return
        number = line.split()[1] if line.startswith("round ") else ""
        if not number.isdigit():
            return
        last = int(number) == args.rounds
        if last or int(number) % MEMORY_EVERY == 0:
            take(int(number), "last round scored" if last else None)
        if last:
            run.web_cpu = thread_cpu_seconds("web")

    def serve(loop: Loop) -> Closing:
        nonlocal phones
        assert listener is not None
        loops.append(loop)
        server = WebServer(listener, loop, path, PIN, loop.session.settings.slots)
        server.start()
        phones = Phones(f"http://127.0.0.1:{listener.address.port}", args.phones)
        run.following = phones.next_report(FOLLOW_SECONDS)
        return TimedClose(server, run)

    logged.addFilter(errors)
    try:
        run.handles.append(("before the game", threading.active_count(), open_files()))
        cpu, wall = time.process_time(), time.perf_counter()
        result = run_demo(
            demo_config(path, auto_confirm=0.5),
            DemoGame(ruleset, 6, seed=1, speed=speed),
            say=said,
            step=timed_step,
            page=listener.address if listener is not None else None,
            serve=serve if web else None,
        )
        run.cpu, run.seconds = time.process_time() - cpu, time.perf_counter() - wall
        run.handles.append(("page closed", threading.active_count(), open_files()))
        with Journal(path) as journal:
            run.final_totals = dict(journal.load(result.game_id).game.totals)
            if not result.finished or result.rounds != args.rounds:
                print(f"({label}: the game ended after {result.rounds} rounds)")
        if loops:
            run.final_version = loops[0].snapshot().version
        if phones is not None:
            run.phones = phones.stop()
    finally:
        logged.removeFilter(errors)
        if phones is not None:
            phones.close()
        if listener is not None:
            listener.close()
    run.handles.append(("phones gone, socket closed", threading.active_count(), open_files()))
    return run


def report_steps(run: Run, baseline: Run) -> None:
    """The step times of `run`, against those of the game without the page."""
    base = statistics.median(baseline.steps)
    slow = sum(1 for s in run.steps if s > 2 * base)
    print(f"({run.label}) loop step  {spread(run.steps)}")
    print(
        f"    {len(run.steps)} steps timed in {run.seconds:.0f} s, {slow} over 2x the "
        f"median of (a) ({2 * base:.1f} ms); companion CPU {run.cpu:.0f} s"
    )
    waits = [max(0.0, s - w) for s, w in zip(run.steps, run.working, strict=True)]
    print(f"    its CPU     {spread(run.working)}")
    print(f"    its waiting {spread(waits)}")
    if run is not baseline:
        ratio = statistics.median(run.steps) / base
        tail = p99(run.steps) / p99(baseline.steps)
        work = statistics.median(run.working) / statistics.median(baseline.working)
        print(f"    ratio to (a): median {ratio:.2f}, p99 {tail:.2f}; median CPU {work:.2f}")


def report_memory(run: Run) -> None:
    """The resident memory of the companion (and of the phones' process) by round."""
    phones = run.memory[0][3] is not None if run.memory else False
    print(
        f"({run.label}) resident memory, companion (after malloc_trim)"
        + (" / phones' process:" if phones else ":")
    )
    print(
        "    "
        + ", ".join(
            f"round {n}: {mb:.0f} ({trim:.0f})"
            + (f" / {other:.0f}" if other is not None else "")
            + " MB"
            for n, mb, trim, other in run.memory
        )
    )


def report_page(run: Run) -> None:
    """Threads and descriptors of a game served to phones, and what the phones got."""
    print(f"({run.label}) the page:")
    for when, threads, files in run.handles:
        print(f"    {when}: {threads} threads, {files} open file descriptors")
    print(
        "    (threads: the loop's, the server's and the bench's reader of the phones' pipe; "
        "descriptors: the screen's fonts stay open)"
    )
    following, report = run.following or {}, run.phones or {}
    phones = report.get("phones", [])
    print(
        f"    {following.get('following', 0)} phones following at the start"
        + (f"; failed: {following['failed']}" if following.get("failed") else "")
    )
    web = f"{run.web_cpu:.1f} s" if run.web_cpu is not None else "?"
    print(
        f"    CPU: web thread {web}; phones' process {report.get('cpu_seconds', 0):.1f} s "
        f"(it shares this machine's {os.cpu_count()} cores with the companion)"
    )
    if not phones:
        return
    final = run.final_totals
    ended = sum(1 for p in phones if p["totals"] == final)
    events = [len(p["versions"]) for p in phones]
    seen = [len(set(p["versions"])) for p in phones]
    rising = sum(1 for p in phones if all(a < b for a, b in itertools.pairwise(p["versions"])))
    every = set().union(*(set(p["versions"]) for p in phones))
    last = sorted({p["versions"][-1] for p in phones if p["versions"]})
    kb = statistics.median(p["received_bytes"] for p in phones) / 1000
    print(f"    final totals (journal): {final}")
    print(f"    phones that ended on the final totals: {ended} of {len(phones)}")
    print(
        f"    events per phone: min {min(events)}, median {statistics.median(events):.0f}, "
        f"max {max(events)} ({kb:.0f} kB median); versions always rising on {rising}"
    )
    print(
        f"    snapshot versions: the loop published {run.final_version}, phones saw "
        f"{len(every)} distinct (each {min(seen)} to {max(seen)}), last seen {last}"
    )
    print(f"    streams ended: {sorted({p['ended'] for p in phones})}")
    errors = run.server_errors
    print(
        f"    the page took {run.closing:.1f} s to close; the server logged {len(errors)} errors"
        + (f": {sorted(set(errors))}" if errors else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument(
        "--speed", type=float, default=4.0, help="times real time for (c); 0 leaves (c) out"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        alone = play("a", folder, args, web=False, speed=None)
        served = play("b", folder, args, web=True, speed=None)
        paced = play("c", folder, args, web=True, speed=args.speed) if args.speed else None
    command = " ".join(["bench/web_load.py", *sys.argv[1:]])
    print(
        f"{command}: {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average "
        f"{load:.1f} before, {os.getloadavg()[0]:.1f} after (other work shares the machine)"
    )
    print(
        f"Dixit Odyssey, 6 players, seed 1, {args.rounds} rounds to the winner screen "
        f"({WINNER_FRAMES} frames); {args.phones} phones in (b)"
        + (f" and (c) at {args.speed:g}x real time" if paced else "")
    )
    runs = [run for run in (alone, served, paced) if run is not None]
    for run in runs:
        report_steps(run, alone)
    for run in runs:
        report_memory(run)
    report_page(served)
    if paced is not None:
        report_page(paced)


if __name__ == "__main__":
    main()
