"""Every error through the shared exit is one line on stderr, whatever it quotes.

A file name or an argument may hold a newline, an escape sequence or a line
separator; the message names it escaped and quoted, so that it stays one line and
says unambiguously which file was meant.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The stderr of a run that must fail with exit status 2 and print nothing else."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err


def test_a_file_name_with_a_newline_is_quoted_on_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = one_line_error(capsys, ["score", "game\n2.json"])
    assert err == "companion score: 'game\\n2.json': No such file or directory\n"


@pytest.mark.parametrize("name", ["a\x1b[31mred", "a\u2028b", "a\rb", "a\x85b"])
def test_a_layout_name_with_a_control_character_is_escaped(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    err = one_line_error(capsys, ["layout", "show", name])
    assert err.startswith("companion layout: ")
    assert name not in err and repr(name)[1:-1] in err


def test_a_missing_argument_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_line_error(capsys, ["score"])
    assert err.startswith("companion score: the following arguments are required: FILE")


def test_an_unknown_argument_with_a_newline_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = one_line_error(capsys, ["layout", "list", "a\nb"])
    assert "a\\nb" in err


def test_a_real_run_names_a_file_with_a_newline_on_one_line(tmp_path: Path) -> None:
    name = str(tmp_path / "x\ny.json")
    run = subprocess.run(
        [sys.executable, "-m", "companion", "score", name],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr == f"companion score: {name!r}: No such file or directory\n"
