"""Draw the developers' guide's picture of the layers from the layers contract itself.

    .venv/bin/python docs/make_layers_diagram.py

Reads the "layers" contract of pyproject.toml (the one `lint-imports` checks) and
writes docs/layers.svg: one band per layer, top to bottom, the packages side by side in
a band. Run it again after changing the contract; tests/docs/test_guides.py checks that
the picture is what this script draws.
"""

import sys
import tomllib
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).with_name("layers.svg")
WIDTH = 800
BAND = 34
GAP = 10
TOP = 44
LEFT = 20
NOTES = {
    "cli": "the command",
    "web": "the phone page",
    "demo": "the demo",
    "doctor": "the table check",
    "runtime": "the loop, the camera, the service",
    "view": "what the screen and the page say",
    "session": "the table's state machine",
    "imaging": "a round's pictures",
    "display": "screen",
    "controls": "buttons, lights, strip",
    "sources": "cameras",
    "journal": "journal",
    "sim": "the simulated table",
    "vision": "frames to readings",
    "kit": "the printed kit and layouts",
    "gamefile": "game files",
    "rules": "the rules engine: pure",
    "errors": "one exception tree",
    "phrases": "words kept until shown",
}
"""A few words on each package, beside its layer; a package without any gets none."""


def layers() -> list[list[str]]:
    """The layers contract's layers, top first, each as its packages' short names."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for contract in pyproject["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "layers":
            return [[name.strip() for name in layer.split("|")] for layer in contract["layers"]]
    raise SystemExit("make_layers_diagram: pyproject.toml has no layers contract")


def short(name: str) -> str:
    return name.removeprefix("companion.")


def svg(bands: list[list[str]]) -> str:
    """The picture, as SVG text ending in a newline."""
    height = TOP + len(bands) * (BAND + GAP) + 30
    note_x = LEFT + 400
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="14">',
        "<title>The layers of the companion: each imports only from the layers below it</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="{LEFT}" y="26" font-size="15" font-weight="bold">'
        "Each layer imports only from the layers below it</text>",
    ]
    for row, packages in enumerate(bands):
        y = TOP + row * (BAND + GAP)
        if row:
            arrow_x = LEFT + 190
            parts.append(
                f'<path d="M {arrow_x} {y - GAP + 1} L {arrow_x} {y - 2}" stroke="#5c6bc0" '
                'stroke-width="2"/>'
            )
        if len(packages) > 4:
            names = [short(p) for p in packages]
            parts.append(_box(LEFT, y, 380, "#fff3e0", "leaf modules", 14))
            for line, words in enumerate((names[: len(names) // 2], names[len(names) // 2 :])):
                parts.append(
                    f'<text x="{note_x}" y="{y + 14 + line * 16}" fill="#37474f" '
                    f'font-size="12">{escape(", ".join(words))}</text>'
                )
            continue
        width = (380 - (len(packages) - 1) * 8) / len(packages)
        for i, package in enumerate(packages):
            x = LEFT + i * (width + 8)
            parts.append(_box(x, y, width, "#e8eaf6", short(package), 14))
        note = "; ".join(NOTES[short(p)] for p in packages if short(p) in NOTES)
        if note:
            parts.append(
                f'<text x="{note_x}" y="{y + BAND / 2 + 5}" fill="#37474f">{escape(note)}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _box(x: float, y: float, width: float, fill: str, text: str, size: int) -> str:
    return (
        f'<rect x="{x:g}" y="{y}" width="{width:g}" height="{BAND}" rx="6" fill="{fill}" '
        f'stroke="#3949ab"/>'
        f'<text x="{x + width / 2:g}" y="{y + BAND / 2 + 5}" text-anchor="middle" '
        f'font-size="{size}">{escape(text)}</text>'
    )


def main() -> int:
    OUT.write_text(svg(layers()), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
