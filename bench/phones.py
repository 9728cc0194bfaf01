"""Phones following the table's live stream, in a process of their own (phones are
other devices: their work must not be counted as the companion's).

    .venv/bin/python bench/phones.py URL [--phones N]

Each phone opens `GET URL/events` on a connection of its own and keeps, for every
event, its snapshot version, and the last event's totals. Once every phone has had
its first event (or failed), one JSON line `{"following": N, "failed": [...]}` is
printed; then, when told to stop (a line on stdin, or SIGTERM), one JSON line with
what each phone received, the process's resident memory and its CPU seconds. A
stream the server closes ends that phone; it does not connect again.
"""

import argparse
import asyncio
import json
import os
import resource
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

FOLLOW_SECONDS = 30.0
"""How long every phone may take to get its first event."""


@dataclass
class Phone:
    """What one phone received."""

    versions: list[int] = field(default_factory=list)
    """The snapshot version of every event, in order."""
    totals: dict[str, int] | None = None
    """The last event's totals."""
    received_bytes: int = 0
    """Bytes of event data received."""
    ended: str = "following"
    """How the stream ended: still following, closed by the server, or the error."""
    first: asyncio.Event = field(default_factory=asyncio.Event)
    """Set at the first event, or when the stream failed before it."""

    def report(self) -> dict[str, Any]:
        """The phone's figures, as JSON."""
        return {
            "versions": self.versions,
            "totals": self.totals,
            "received_bytes": self.received_bytes,
            "ended": self.ended,
        }


def resident_mb() -> float:
    """The process's resident memory, in MB (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


async def follow(url: str, phone: Phone) -> None:
    """Follow the stream until it ends, fails or the phone is cancelled."""
    timeout = httpx.Timeout(None, connect=10.0)
    try:
        async with (
            httpx.AsyncClient(timeout=timeout) as client,
            client.stream("GET", f"{url}/events") as response,
        ):
            response.raise_for_status()
            async for line in response.aiter_lines():
                if not line.startswith("data: "):
                    continue
                data = json.loads(line[len("data: ") :])
                phone.versions.append(int(data["version"]))
                phone.totals = dict(data["state"]["totals"])
                phone.received_bytes += len(line)
                phone.first.set()
        phone.ended = "closed by the server"
    except httpx.HTTPError as err:
        phone.ended = f"{type(err).__name__}: {err}"
    finally:
        phone.first.set()


async def stopped() -> None:
    """Return at a line on stdin (or its end), or at SIGTERM."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    line = asyncio.create_task(reader.readline())
    signalled = asyncio.create_task(stop.wait())
    await asyncio.wait((line, signalled), return_when=asyncio.FIRST_COMPLETED)
    for task in (line, signalled):
        task.cancel()


def say(document: dict[str, Any]) -> None:
    """One JSON line on stdout."""
    print(json.dumps(document), flush=True)


async def main(url: str, count: int) -> None:
    """Follow with `count` phones, say when all follow, report when stopped."""
    phones = [Phone() for _ in range(count)]
    tasks = [asyncio.create_task(follow(url, phone)) for phone in phones]
    firsts = [asyncio.create_task(phone.first.wait()) for phone in phones]
    await asyncio.wait(firsts, timeout=FOLLOW_SECONDS)
    failed = [p.ended for p in phones if not p.versions]
    say({"following": sum(1 for p in phones if p.versions), "failed": failed})
    await stopped()
    for task in [*tasks, *firsts]:
        task.cancel()
    await asyncio.gather(*tasks, *firsts, return_exceptions=True)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    say(
        {
            "phones": [phone.report() for phone in phones],
            "resident_mb": resident_mb(),
            "cpu_seconds": usage.ru_utime + usage.ru_stime,
        }
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the page's address, e.g. http://127.0.0.1:8080")
    parser.add_argument("--phones", type=int, default=30)
    args = parser.parse_args()
    asyncio.run(main(args.url.rstrip("/"), args.phones))
