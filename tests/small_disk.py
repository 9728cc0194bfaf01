"""A real small filesystem for the full-disk tests: a tmpfs of a few MB, mounted for one test.

A full disk must be tested on a disk that is really full, where SQLite's writes fail
as they would on a café's SD card, not on a mock. Mounting needs root (CI runs as
root); elsewhere the test is skipped and says why. These are not hardware tests.
"""

import errno
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class SmallDisk:
    """A tmpfs mounted for one test."""

    root: Path
    """Where it is mounted."""

    @property
    def filler(self) -> Path:
        """The file that takes the room."""
        return self.root / "filler"

    def free(self) -> int:
        """Bytes free on it."""
        stat = os.statvfs(self.root)
        return stat.f_bavail * stat.f_frsize

    def fill(self, leave: int = 0) -> None:
        """Grow the filler file until `leave` bytes are free (none: until the disk says
        it is full)."""
        with self.filler.open("ab", buffering=0) as filler:
            filler.write(bytes(max(0, self.free() - leave)))
            if leave:
                return
            try:
                while True:
                    filler.write(bytes(512))
            except OSError as err:
                assert err.errno == errno.ENOSPC
        assert self.free() == 0


@contextmanager
def small_disk(root: Path, size: str) -> Iterator[SmallDisk]:
    """A tmpfs of `size` (as `mount -o size=` says it: "3m") mounted at `root` (made if
    need be) until the block ends."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root (CI runs these tests as root)")
    root.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(root)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        yield SmallDisk(root)
    finally:
        if subprocess.run(["umount", str(root)], capture_output=True, timeout=30).returncode:
            subprocess.run(["umount", "--lazy", str(root)], check=True, timeout=30)
