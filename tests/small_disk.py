"""A real small filesystem for the full-disk tests: a tmpfs of a few MB, mounted for one test.

A full disk must be tested on a disk that is really full, where SQLite's writes fail
as they would on a café's SD card, not on a mock. Mounting needs root (CI runs as
root); elsewhere the test is skipped and says why.
"""

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_disk(where: Path, megabytes: int) -> Iterator[Path]:
    """A tmpfs of `megabytes` MB mounted at `where` (made if need be) until the block ends."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30, check=False)


def fill(disk: Path, leave: int) -> Path:
    """Fill the disk with a file, leaving about `leave` bytes free; returns the file."""
    filler = disk / "filler"
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    with filler.open("wb") as out:
        out.write(b"\0" * max(0, free - leave))
    return filler


def free_bytes(disk: Path) -> int:
    """Bytes free on the disk."""
    stat = os.statvfs(disk)
    return stat.f_bavail * stat.f_frsize
