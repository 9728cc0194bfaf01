"""Print the staff card (docs/staff.md) to a one-page A4 PDF, as a café prints it.

    .venv/bin/python docs/make_staff_card.py              # writes docs/staff-card.pdf
    .venv/bin/python docs/make_staff_card.py --out card.pdf

Builds the guides with MkDocs into a temporary folder, then prints the staff card's
page with Debian's headless Chromium, through the guides' print stylesheet
(docs/stylesheets/guides.css), which keeps the card alone on one A4 page. Prints the
number of pages; tests/docs/test_staff_card.py checks that it is one.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).with_name("staff-card.pdf")
CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (scripts/apt-packages-test.txt installs it)."""
SECONDS = 120.0
"""How long the build, and then the printing, may take."""


def build_site(site: Path) -> None:
    """The guides, built with --strict into `site`."""
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=os.environ | {"NO_MKDOCS_2_WARNING": "1"},
        check=True,
        timeout=SECONDS,
    )


def print_page(page: Path, out: Path, profile: Path) -> None:
    """`page` printed to the PDF `out`, with no header or footer of the browser's own."""
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--print-to-pdf={out}",
            "--no-pdf-header-footer",
            page.as_uri(),
        ],
        capture_output=True,
        check=True,
        timeout=SECONDS,
    )


def make_card(out: Path) -> None:
    """Build the guides and print the staff card to `out`."""
    with tempfile.TemporaryDirectory() as folder:
        site, profile = Path(folder) / "site", Path(folder) / "profile"
        build_site(site)
        printed = Path(folder) / "staff-card.pdf"
        print_page(site / "staff" / "index.html", printed, profile)
        if not printed.is_file():
            raise SystemExit("make_staff_card: Chromium printed nothing")
        shutil.copyfile(printed, out)


def pages(pdf: Path) -> int:
    """The PDF's number of pages, as poppler's pdfinfo reads it."""
    info = subprocess.run(
        ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True, timeout=SECONDS
    )
    for line in info.stdout.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    raise SystemExit(f"make_staff_card: pdfinfo gave no page count for {pdf}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the PDF to write")
    args = parser.parse_args(argv)
    make_card(args.out)
    count = pages(args.out)
    print(f"wrote {args.out}: {count} page{'s' if count != 1 else ''}")
    return 0 if count == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
