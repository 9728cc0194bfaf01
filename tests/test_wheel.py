"""The package works installed from its wheel, not only from the checkout.

The test suite and `scripts/setup` use an editable install, where a file read from the
source tree (an example, a board, a font beside the code) is found by accident. A café
installs a wheel. So this builds the wheel from the checkout, installs it with its
dependencies into a fresh virtual environment, and runs the commands a café runs from
that environment's `bin/companion`, far from the source tree: anything the program reads
that the wheel does not ship fails here.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Mapping, Sequence
from importlib import metadata, util
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from companion.statedir import STATE_DIR_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "companion"
SOURCES = ("pyproject.toml", "README.md", PACKAGE)
"""What the build reads from the checkout: the metadata, its readme and the package."""
NOT_SHIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
"""Build leftovers a checkout may hold; a stale one could slip files into the wheel."""
SHIPPED_LAYOUTS = ["classic-8", "mat-a1-12", "odyssey-12"]
EXAMPLE = ROOT / "examples" / "classic-1e-4-players.json"
EXAMPLE_RESULT = ROOT / "tests" / "golden" / f"{EXAMPLE.stem}.expected.json"
BUILT_IN_BDIST_WHEEL = Version("70.1")
"""The setuptools that builds wheels without the separate `wheel` package."""
WITHOUT = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV")
"""Variables that could let the new environment import from elsewhere than itself."""

BUILD_SECONDS = 300.0
INSTALL_SECONDS = 480.0
"""Installing the dependencies: quick from pip's cache, minutes from the network."""
COMMAND_SECONDS = 120.0
DEMO_SUMMARY = re.compile(
    r"demo: game \d+ stopped after 1 round; 1 of the 1 round scored in this run read "
    r"exactly as laid"
)


def build_flags() -> list[str]:
    """`--no-build-isolation` when this environment can build the wheel itself (quick,
    offline); else pip builds it in isolation, fetching the build requirements. An
    older setuptools here (one the build system does not accept, or one without
    `bdist_wheel`) would fail or build another wheel than a café's pip does."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for text in pyproject["build-system"]["requires"]:
        requirement = Requirement(text)
        try:
            version = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            return []
        if not requirement.specifier.contains(version, prereleases=True):
            return []
    setuptools = Version(metadata.version("setuptools"))
    if setuptools < BUILT_IN_BDIST_WHEEL and util.find_spec("wheel") is None:
        return []
    return ["--no-build-isolation"]


def clean_environment(state: Path) -> dict[str, str]:
    """This process's environment without what points Python at other code, and with
    the companion's state in `state` rather than wherever the test runs."""
    env = {key: value for key, value in os.environ.items() if key not in WITHOUT}
    env[STATE_DIR_VARIABLE] = str(state)
    return env


def run(
    command: Sequence[str | Path], cwd: Path, env: Mapping[str, str], seconds: float
) -> subprocess.CompletedProcess[str]:
    """Run `command` to its end (within `seconds`) and insist it succeeded; a failure
    shows what it printed, its stderr above all."""
    words = [str(word) for word in command]
    result = subprocess.run(
        words, cwd=cwd, env=env, capture_output=True, text=True, timeout=seconds, check=False
    )
    assert result.returncode == 0, (
        f"`{' '.join(words)}` exited {result.returncode}\n"
        f"stderr:\n{result.stderr}\nstdout:\n{result.stdout}"
    )
    return result


def package_files(source: Path) -> set[str]:
    """Every file of the package in the copied checkout, as the wheel names it."""
    return {
        path.relative_to(source).as_posix()
        for path in (source / PACKAGE).rglob("*")
        if path.is_file()
    }


def build_wheel(out: Path, env: Mapping[str, str]) -> Path:
    """The wheel of the checkout, built from a copy of it so that the build leaves
    nothing in the working tree and stale build leftovers there cannot get in."""
    source = out / "source"
    source.mkdir(parents=True)
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=NOT_SHIPPED)
        else:
            shutil.copy2(ROOT / name, source / name)
    dist = out / "dist"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", *build_flags()]
    run([*pip_wheel, "--wheel-dir", dist, source], out, env, BUILD_SECONDS)
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = package_files(source) - names
    assert not missing, f"files of the package the wheel leaves out: {sorted(missing)}"
    return wheel


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_installed_wheel_runs_the_cafe_commands(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    env = clean_environment(work / "state")
    wheel = build_wheel(tmp_path / "build", env)

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], work, env, COMMAND_SECONDS)
    python = venv / "bin" / "python"
    run([python, "-m", "pip", "install", wheel], work, env, INSTALL_SECONDS)
    found = run([python, "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"], work, env, 60)
    where = Path(found.stdout.strip())
    assert where.resolve().is_relative_to(venv.resolve()), f"{PACKAGE} imported from {where}"

    companion = venv / "bin" / "companion"

    listed = run([companion, "layout", "list"], work, env, COMMAND_SECONDS)
    assert json.loads(listed.stdout) == SHIPPED_LAYOUTS

    tags = work / "tags"
    command: list[str | Path] = [companion, "tags", "--kit", "WHEEL1", "--players", "3"]
    command += ["--out", tags, "--mat"]
    made = run(command, work, env, COMMAND_SECONDS)
    manifest = json.loads((tags / "manifest.json").read_text(encoding="utf-8"))
    pngs = sorted(p.name for p in tags.glob("*.png"))
    assert f"wrote {len(pngs)} tag PNGs, kit.pdf, manifest.json, mat.pdf" in made.stdout
    assert len(pngs) == len(manifest) > 0
    assert {"corner-1.png", "slot-01.png", "vote-red-1.png", "owner-red-1.png"} <= set(pngs)
    assert all((tags / p).read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)
    assert (tags / "kit.pdf").read_bytes().startswith(b"%PDF-")
    assert (tags / "mat.pdf").read_bytes().startswith(b"%PDF-")

    game = work / EXAMPLE.name
    shutil.copy(EXAMPLE, game)
    scored = run([companion, "score", game], work, env, COMMAND_SECONDS)
    editable = run([sys.executable, "-m", PACKAGE, "score", game], work, env, COMMAND_SECONDS)
    assert scored.stdout == editable.stdout
    assert json.loads(scored.stdout) == json.loads(EXAMPLE_RESULT.read_text(encoding="utf-8"))
    french = run([companion, "score", "--language", "fr", game], work, env, COMMAND_SECONDS)
    translated = json.loads(french.stdout)["rounds"][0]["translated_reasons"]
    assert any("carte du conteur" in r for reasons in translated.values() for r in reasons)

    page = (
        "from companion.web.pages import Pages; from companion.language import Language; "
        "from companion.phrases import phrase; pages = Pages(); "
        "assert pages.static('page.js') and pages.static('page.css'); "
        "print(pages.message(phrase('Sorry'), phrase('there is no such page'), "
        "Language.FRENCH, 404))"
    )
    shown = run([python, "-c", page], work, env, COMMAND_SECONDS)
    assert "existe pas" in shown.stdout and 'lang="fr"' in shown.stdout, shown.stdout

    screens = work / "screens"
    command = [companion, "demo", "--headless", "--rounds", "1", "--ruleset", "classic-1e"]
    command += ["--players", "3", "--layout", "classic-8", "--seed", "1"]
    command += ["--journal", work / "demo.sqlite", "--out", screens]
    demo = run(command, work, env, COMMAND_SECONDS * 2)
    assert re.search(r"^round 1 \(.*\): .* - read as laid$", demo.stdout, re.MULTILINE), demo.stdout
    assert DEMO_SUMMARY.search(demo.stdout), demo.stdout
    shots = sorted(p.name for p in screens.glob("*.png"))
    assert shots and shots[0].endswith("-language.png"), shots
    assert (work / "demo.sqlite").is_file()
