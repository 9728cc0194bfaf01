"""The README stays a short front door that points at every guide, and the pictures the
guides draw from the code are what the code says now."""

import importlib.util
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
README_LIMIT = 10_000
"""Bytes: what it is, a picture, the two commands, where to go next."""


def nav_pages() -> list[str]:
    """The pages of the site's navigation, as paths under docs/."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["docs_dir"] == "docs"
    return [page for entry in config["nav"] for page in entry.values()]


def test_the_readme_is_short_and_points_at_every_guide() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < README_LIMIT
    for command in ("./scripts/demo", "./scripts/test"):
        assert f"\n{command} " in text, command
    assert "](docs/screens/proposal.png)" in text
    for page in nav_pages():
        assert (ROOT / "docs" / page).is_file(), page
        if page != "index.md":
            assert f"](docs/{page})" in text, f"the README does not link to docs/{page}"


def test_the_layers_picture_is_the_layers_contract() -> None:
    script_path = ROOT / "docs" / "make_layers_diagram.py"
    spec = importlib.util.spec_from_file_location("make_layers_diagram", script_path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    drawn = (ROOT / "docs" / "layers.svg").read_text(encoding="utf-8")
    assert drawn == script.svg(script.layers()), (
        "docs/layers.svg is not the contract in pyproject.toml: run "
        ".venv/bin/python docs/make_layers_diagram.py"
    )
