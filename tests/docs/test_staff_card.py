"""The staff card prints on one A4 page, and the PDF a café prints is the card's page
as it is now: docs/make_staff_card.py builds the guides and prints the card with
Debian's Chromium, as a café would print it."""

import importlib.util
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "make_staff_card.py"
COMMITTED = ROOT / "docs" / "staff-card.pdf"
A4_POINTS = (595, 842)
"""An A4 page in PDF points, as pdfinfo rounds it."""


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_staff_card", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def text(pdf: Path) -> str:
    """The PDF's words in reading order, one space between each."""
    out = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True, timeout=60
    )
    return " ".join(out.stdout.split())


def page_size(pdf: Path) -> tuple[int, int]:
    info = subprocess.run(
        ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True, timeout=60
    )
    found = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info.stdout)
    assert found is not None, info.stdout
    return round(float(found[1])), round(float(found[2]))


@pytest.mark.timeout(300)
def test_the_staff_card_is_one_a4_page_and_the_committed_pdf_is_up_to_date(
    tmp_path: Path,
) -> None:
    script = load_script()
    card = tmp_path / "staff-card.pdf"
    script.make_card(card)
    assert script.pages(card) == 1, "the staff card no longer fits one page"
    assert page_size(card) == A4_POINTS
    words = text(card)
    for needed in (
        "Setting up a game",
        "Putting a round right",
        "The phone's staff tools",
        "What the screen says",
        "staff PIN",
        "Rescore the game",
    ):
        assert needed in words, needed
    assert "Material for MkDocs" not in words and "Table of contents" not in words
    assert script.pages(COMMITTED) == 1
    assert text(COMMITTED) == words, (
        "docs/staff-card.pdf is not the card's page as it is now: run "
        ".venv/bin/python docs/make_staff_card.py"
    )
