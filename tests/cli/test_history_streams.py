"""`companion history --out` aimed at a stream: standard output, a FIFO, a device.

A temporary file renamed over the target makes a regular file whole, but a stream
cannot be renamed over: the picture would land in a stray file, and a device such as
`/dev/null` would be replaced by a regular file when run as root. Streams are
written straight through.
"""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal
from tests.journal.helpers import example, frame_of, play_into


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    """A journal holding the classic example game with its frames."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"))
    return path


def test_a_frame_written_to_dev_stdout_is_the_jpeg_alone_on_stdout(
    journal_path: Path, tmp_path: Path
) -> None:
    command = ["history", "--journal", str(journal_path), "1", "--frame", "1"]
    run = subprocess.run(
        [sys.executable, "-m", "companion", *command, "--out", "/dev/stdout"],
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == frame_of(1)
    assert run.stderr == b"wrote the frame of round 1 of game 1 to /dev/stdout\n"
    assert all(p.name.startswith("journal.sqlite") for p in tmp_path.iterdir()), "no stray file"


def test_a_frame_written_to_a_fifo_reaches_its_reader(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE) as reader:
        try:
            command = ["history", "--journal", str(journal_path), "1", "--frame", "2"]
            status = main([*command, "--out", str(fifo)])
            got, _ = reader.communicate(timeout=10)
        finally:
            if reader.poll() is None:
                reader.kill()
    assert status == 0
    assert got == frame_of(2)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert capsys.readouterr().out == f"wrote the frame of round 2 of game 1 to {fifo}\n"


def test_a_character_device_stays_a_device(
    journal_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device needs root")
    status = main(
        ["history", "--journal", str(journal_path), "1", "--frame", "3", "--out", str(null)]
    )
    assert status == 0
    assert stat.S_ISCHR(null.stat().st_mode)
    assert capsys.readouterr().out == f"wrote the frame of round 3 of game 1 to {null}\n"
