"""Benchmark of the phone page under a stranger's flood: does the game loop keep its
pace, and do the phones and the staff still get through?

    .venv/bin/python bench/web_flood.py [--phase-seconds 15] [--speed 1]

It plays the headless demo (Dixit Odyssey for six, seed 1: simulated table and
players, real reader, stabiliser, session, journal and screen) at `--speed` times
real time (a table's own pace: a frame every 1/30 s), with the page served on
127.0.0.1. Once the game is set up, another process (this script with `--attack`,
phones are other devices) runs five phases of `--phase-seconds` each:

- (a) quiet: a phone asks for the table (`GET /api/state`) five times a second, and
  the staff log in with the right PIN every 5 seconds, both from 127.0.0.1;
- (b) idle connections: the same, while 1,100 connections from ten other addresses
  (127.0.0.2 to .11) send nothing, each opened again as soon as the page closes it;
- (c) half-sent requests: 310 connections send the start of a `GET` and never
  finish it, opened again as soon as closed;
- (d) PIN guessing: one address posts `{}` and wrong PINs five times a second;
- (e) quiet again.

It prints, per phase, the loop's steps (count, steps a second, median with the 10th
to 90th percentile, 99th percentile, maximum) and the ratio of the median and the
99th percentile to (a); the loop thread's CPU per step; the phone's answers (how
many 200, other statuses and failures, the median and 90th percentile time to an
answer); the staff's logins let in; the page's connections pushed out to make room,
turned away and cut off;
what the companion's log would have written; its file descriptors and memory.
Everything goes to 127.0.0.1, every count and time is bounded, and nothing here
fails on time: it prints what it measured. Frames the simulator had to draw (a new
layout of the table) are left out of the step times, as in bench/loop.py.
"""

import argparse
import asyncio
import contextlib
import json
import logging
import os
import queue
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from web_load import open_files, p99, resident_mb, thread_cpu_seconds

from companion.closing import Closing
from companion.demo.demo import DemoGame, demo_config, run_demo
from companion.rules import find_ruleset
from companion.runtime.camera import Watching
from companion.runtime.loop import Loop
from companion.sources.simulated import SimulatedTable
from companion.web.address import Listen
from companion.web.logs import LOGGERS
from companion.web.server import Listener, WebServer

PIN = "582914"
PHASES = ("a quiet", "b idle connections", "c half-sent requests", "d PIN guessing", "e quiet")
STRANGERS = tuple(f"127.0.0.{n}" for n in range(2, 12))
IDLE, HALF_SENT = 1_100, 310
"""Connections held open in phases (b) and (c), as the hostile test had them."""
HALF_REQUEST = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
REOPEN_PER_SECOND = 400
"""The most connections a flood opens again a second (each waits its turn)."""
ANSWER_SECONDS = 5.0
"""How long the phone and the staff wait for an answer before counting a failure."""
REPORT_SECONDS = 120.0


# The stranger's process


@dataclass
class Tally:
    """What one phase saw from outside."""

    phone: list[float] = field(default_factory=list)
    """Seconds to each 200 the phone got."""
    phone_other: dict[str, int] = field(default_factory=dict)
    staff: list[int] = field(default_factory=list)
    guesses: dict[str, int] = field(default_factory=dict)
    flood_opened: int = 0

    def count(self, counts: dict[str, int], what: object) -> None:
        counts[str(what)] = counts.get(str(what), 0) + 1


async def _request(source: str, port: int, raw: bytes) -> tuple[int, float]:
    """One request on a connection of its own; its status and seconds to answer."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(raw)
        line = await reader.readline()
        status = int(line.split()[1]) if line.startswith(b"HTTP/1.1 ") else 0
        if status == 200:
            await reader.read()
        return status, time.monotonic() - started
    finally:
        writer.close()


def _post(path: str, body: str, csrf: str) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"x-csrf-token: {csrf}\r\nCookie: companion_csrf={csrf}\r\nConnection: close\r\n"
        f"Content-Length: {len(body)}\r\n\r\n{body}"
    ).encode()


async def _every(seconds: float, stop: asyncio.Event, work: Any) -> None:
    while not stop.is_set():
        started = time.monotonic()
        with contextlib.suppress(Exception):
            await work()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max(0.0, seconds - (time.monotonic() - started)))


async def _held(port: int, count: int, first: bytes, tally: Tally, stop: asyncio.Event) -> None:
    """`count` connections held open from the strangers' addresses, each opened again
    once the page closes it."""
    pace = asyncio.Semaphore(1)

    async def one(source: str) -> None:
        while not stop.is_set():
            async with pace:
                await asyncio.sleep(1 / REOPEN_PER_SECOND)
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
            except OSError:
                continue
            tally.flood_opened += 1
            try:
                writer.write(first)
                read = asyncio.ensure_future(reader.read())
                stopped = asyncio.ensure_future(stop.wait())
                await asyncio.wait((read, stopped), return_when=asyncio.FIRST_COMPLETED)
                read.cancel()
                stopped.cancel()
            except OSError:
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one(STRANGERS[n % len(STRANGERS)]) for n in range(count)))


async def attack(port: int, seconds: float) -> None:
    """The five phases, a JSON line at the start of each and the tallies at the end."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    csrf = await _page_token(port)
    tallies: dict[str, Tally] = {}
    for phase in PHASES:
        tally = tallies[phase] = Tally()
        stop = asyncio.Event()
        print(json.dumps({"phase": phase}), flush=True)

        async def phone(tally: Tally = tally) -> None:
            try:
                raw = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                status, took = await asyncio.wait_for(
                    _request("127.0.0.1", port, raw), ANSWER_SECONDS
                )
            except (OSError, TimeoutError) as error:
                tally.count(tally.phone_other, type(error).__name__)
                return
            if status == 200:
                tally.phone.append(took)
            else:
                tally.count(tally.phone_other, status)

        async def staff(tally: Tally = tally) -> None:
            raw = _post("/staff/login", json.dumps({"pin": PIN}), csrf)
            try:
                status, _ = await asyncio.wait_for(_request("127.0.0.1", port, raw), ANSWER_SECONDS)
            except (OSError, TimeoutError):
                status = 0
            tally.staff.append(status)

        guess_number = 0

        async def guess(tally: Tally = tally) -> None:
            nonlocal guess_number
            guess_number += 1
            body = "{}" if guess_number % 2 else json.dumps({"pin": f"{guess_number:06d}"})
            try:
                status, _ = await asyncio.wait_for(
                    _request("127.0.0.2", port, _post("/staff/login", body, csrf)), ANSWER_SECONDS
                )
            except (OSError, TimeoutError) as error:
                tally.count(tally.guesses, type(error).__name__)
                return
            tally.count(tally.guesses, status)

        tasks = [_every(0.2, stop, phone), _every(5.0, stop, staff)]
        if phase.startswith("b"):
            tasks.append(_held(port, IDLE, b"", tally, stop))
        elif phase.startswith("c"):
            tasks.append(_held(port, HALF_SENT, HALF_REQUEST, tally, stop))
        elif phase.startswith("d"):
            tasks.append(_every(0.2, stop, guess))
        running = asyncio.gather(*tasks)
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait_for(running, ANSWER_SECONDS * 4)
    print(json.dumps({"tallies": {p: vars(t) for p, t in tallies.items()}}), flush=True)


async def _page_token(port: int) -> str:
    """The page's CSRF token, as a phone opening it gets it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    page = (await reader.read()).decode()
    writer.close()
    return page.partition('name="csrf-token" content="')[2].partition('"')[0]


# The companion's side


class LogCount(logging.Handler):
    """What the page's loggers would have written (after their own filters)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[str, str]] = []
        self.phase = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((self.phase, self.format(record).partition("\n")[0]))


@dataclass
class Run:
    phase: str = ""
    steps: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    """Each phase's timed steps: milliseconds, and the loop thread's CPU milliseconds."""
    stepped: dict[str, int] = field(default_factory=dict)
    """Each phase's steps, frames the simulator drew included: the loop's pace."""
    marks: dict[str, dict[str, Any]] = field(default_factory=dict)
    report: dict[str, Any] = field(default_factory=dict)


def flood(args: argparse.Namespace) -> tuple[Run, LogCount, WebServer | None]:
    """Play the demo with its page served, the stranger's process flooding it."""
    run, logs, served = Run(), LogCount(), []
    lines: queue.Queue[str] = queue.Queue()
    loggers = [logging.getLogger(name) for name in LOGGERS]
    for logger in loggers:
        logger.addHandler(logs)
    attacker: subprocess.Popen[str] | None = None
    listener = Listener(Listen("127.0.0.1", 0))

    def mark(when: str) -> None:
        server = served[0] if served else None
        run.marks[when] = {
            "files": open_files(),
            "mb": resident_mb(),
            "web_cpu": thread_cpu_seconds("web"),
            "turned_away": server.doors.turned_away if server else 0,
            "cut_off": server.doors.cut_off if server else 0,
            "pushed_out": server.doors.pushed_out if server else 0,
            "at": time.monotonic(),
        }

    def timed_step(loop: Loop) -> None:
        nonlocal attacker
        camera = loop.camera
        before = camera.state.status if camera is not None else None
        table = before.source if isinstance(before, Watching) else None
        drawn = table.last if isinstance(table, SimulatedTable) else None
        started, working = time.perf_counter(), time.thread_time()
        loop.step()
        elapsed = (time.perf_counter() - started) * 1000
        worked = (time.thread_time() - working) * 1000
        if attacker is None and not loop.session.state.setting_up:
            port, phase = str(listener.address.port), str(args.phase_seconds)
            attacker = subprocess.Popen(
                [sys.executable, __file__, "--attack", port, "--phase-seconds", phase],
                stdout=subprocess.PIPE,
                text=True,
            )
            threading.Thread(target=_lines, args=(attacker, lines), daemon=True).start()
        while not lines.empty():
            said = json.loads(lines.get_nowait())
            if "phase" in said:
                run.phase = logs.phase = said["phase"]
                mark(run.phase)
            else:
                mark("end")
                run.report = said["tallies"]
                loop.stop()
        if not run.phase:
            return
        run.stepped[run.phase] = run.stepped.get(run.phase, 0) + 1
        if not (isinstance(table, SimulatedTable) and table.last is not drawn):
            run.steps.setdefault(run.phase, []).append((elapsed, worked))

    def serve(loop: Loop) -> Closing:
        server = WebServer(listener, loop, journal, PIN, loop.session.settings.slots)
        server.start()
        served.append(server)
        return server

    ruleset = find_ruleset("odyssey")
    try:
        with tempfile.TemporaryDirectory() as folder:
            journal = Path(folder) / "j.sqlite"
            run_demo(
                demo_config(journal, auto_confirm=0.5),
                DemoGame(ruleset, 6, seed=1, speed=args.speed, stay=True),
                say=lambda _: None,
                step=timed_step,
                page=listener.address,
                serve=serve,
            )
    finally:
        for logger in loggers:
            logger.removeHandler(logs)
        if attacker is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                attacker.wait(REPORT_SECONDS)
            if attacker.poll() is None:
                attacker.kill()
                attacker.wait()
        listener.close()
    return run, logs, served[0] if served else None


def _lines(process: "subprocess.Popen[str]", lines: "queue.Queue[str]") -> None:
    assert process.stdout is not None
    for line in process.stdout:
        lines.put(line)


def report(run: Run, logs: LogCount, args: argparse.Namespace) -> None:
    base = [s for s, _ in run.steps.get(PHASES[0], [])]
    if not base:
        print("no steps timed: the stranger's process said nothing")
        return
    for phase, after in zip(PHASES, [*PHASES[1:], "end"], strict=True):
        timed = run.steps.get(phase, [])
        steps, cpu = [s for s, _ in timed], [w for _, w in timed]
        start, end = run.marks.get(phase, {}), run.marks.get(after, {})
        seconds = end.get("at", 0.0) - start.get("at", 0.0)
        pace = f"{run.stepped.get(phase, 0) / seconds:.1f} steps a second, " if seconds > 0 else ""
        print(f"({phase}) loop: {pace}{len(steps)} steps timed")
        if len(steps) >= 2:
            cuts = statistics.quantiles(steps, n=100)
            print(
                f"    step {statistics.median(steps):.1f} ms ({cuts[9]:.1f} to {cuts[89]:.1f}), "
                f"p99 {cuts[98]:.1f}, max {max(steps):.1f}; ratio to (a): median "
                f"{statistics.median(steps) / statistics.median(base):.2f}, "
                f"p99 {p99(steps) / p99(base):.2f}; its CPU {statistics.median(cpu):.1f} ms"
            )
        tally = run.report.get(phase, {})
        phone, other = tally.get("phone", []), tally.get("phone_other", {})
        answered = (
            f"{statistics.median(phone) * 1000:.0f} ms median, "
            f"{statistics.quantiles(phone, n=10)[8] * 1000:.0f} ms p90"
            if len(phone) >= 2
            else "-"
        )
        print(f"    phone: {len(phone)} answered 200 ({answered}); otherwise {other or 'none'}")
        staff = tally.get("staff", [])
        print(f"    staff: {staff.count(200)} of {len(staff)} logins let in")
        if tally.get("guesses"):
            print(f"    guesser's answers: {tally['guesses']}")
        if tally.get("flood_opened"):
            print(f"    flood: {tally['flood_opened']} connections opened")
        if end and start:
            print(
                f"    page: connections {end['pushed_out'] - start['pushed_out']} pushed out, "
                f"{end['turned_away'] - start['turned_away']} turned away, "
                f"{end['cut_off'] - start['cut_off']} cut off; web thread CPU "
                f"{(end['web_cpu'] or 0) - (start['web_cpu'] or 0):.1f} s; companion "
                f"{end['files']} open files, {end['mb']:.0f} MB"
            )
        said = [line for p, line in logs.lines if p == phase]
        print(f"    log: {len(said)} lines" + (f", first: {said[0][:100]!r}" if said else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phase-seconds", type=float, default=15.0)
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--attack", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.phase_seconds = min(max(args.phase_seconds, 2.0), 120.0)
    if args.attack is not None:
        asyncio.run(attack(args.attack, args.phase_seconds))
        return
    load = os.getloadavg()[0]
    run, logs, _ = flood(args)
    print(
        f"bench/web_flood.py --phase-seconds {args.phase_seconds:g} --speed {args.speed:g}: "
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}; load average {load:.1f} "
        f"before, {os.getloadavg()[0]:.1f} after"
    )
    print(
        f"Dixit Odyssey, 6 players, seed 1, at {args.speed:g}x real time; the stranger: "
        f"{IDLE} idle, then {HALF_SENT} half-sent connections from {len(STRANGERS)} "
        "addresses, then PIN guesses five a second"
    )
    report(run, logs, args)


if __name__ == "__main__":
    main()
