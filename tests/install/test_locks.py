"""The locks every environment installs from (requirements/*.lock, written by
scripts/lock): each pins every package with its hashes, fits what pyproject.toml asks
for, and the locks that share packages share their versions, so that the demo, the
tests, a café's Pi and the Pi-like test environment run what the tests passed with."""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from companion.doctor.versions import read_lock
from tests.purity import VERSIONED

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "requirements"
LOCKS = ("runtime.lock", "test.lock", "pi.lock", "pi-test.lock")
FROM_APT_ON_A_PI = {"numpy", "pygame", "spidev"}


def pins(lock: str) -> dict[str, str]:
    return {pin.name: pin.version for pin in read_lock((REQUIREMENTS / lock).read_text())}


def requirements(*extras: str) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(text) for text in project["dependencies"]]
    for extra in extras:
        wanted += [Requirement(text) for text in project["optional-dependencies"][extra]]
    build = (REQUIREMENTS / "build.in").read_text().splitlines()
    wanted += [Requirement(line) for line in build if line and not line.startswith("#")]
    return wanted


def constraints(path: Path) -> list[Requirement]:
    lines = path.read_text().splitlines()
    return [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("lock", LOCKS)
def test_every_package_of_a_lock_is_pinned_with_its_hashes(lock: str) -> None:
    text = (REQUIREMENTS / lock).read_text()
    blocks = re.split(
        r"\n(?=[A-Za-z0-9])", text.split("\n", 1)[1] if text.startswith("#") else text
    )
    pinned = [block for block in blocks if re.match(r"[A-Za-z0-9][\w.-]*==", block)]
    assert len(pinned) >= len(pins(lock)) > 10  # a universal lock may pin one per Python
    for block in pinned:
        assert "--hash=sha256:" in block, block.splitlines()[0]


@pytest.mark.parametrize(
    ("lock", "extras", "left_to_apt"),
    [
        ("runtime.lock", (), set()),
        ("test.lock", ("test",), set()),
        ("pi.lock", ("pi",), FROM_APT_ON_A_PI),
        ("pi-test.lock", ("pi", "test"), FROM_APT_ON_A_PI),
    ],
)
def test_a_lock_holds_what_pyproject_asks_for_at_versions_it_allows(
    lock: str, extras: tuple[str, ...], left_to_apt: set[str]
) -> None:
    locked = pins(lock)
    for wanted in requirements(*extras):
        name = canonicalize_name(wanted.name)
        if name in left_to_apt:
            assert name not in locked, f"{lock} must leave {name} to apt"
            continue
        assert name in locked, f"{lock} lacks {name}: run scripts/lock"
        assert wanted.specifier.contains(locked[name], prereleases=True), (
            f"{lock} has {name} {locked[name]}, but pyproject.toml asks for {wanted}"
        )


@pytest.mark.parametrize(
    ("smaller", "larger"), [("runtime.lock", "test.lock"), ("pi.lock", "pi-test.lock")]
)
def test_the_tests_run_the_versions_the_companion_installs(smaller: str, larger: str) -> None:
    small, large = pins(smaller), pins(larger)
    assert {name: large.get(name) for name in small} == small


def test_the_pis_locks_keep_its_constraints_and_apts_versions() -> None:
    for lock in ("pi.lock", "pi-test.lock"):
        locked = pins(lock)
        for rule in constraints(ROOT / "hardware" / "pi-constraints.txt"):
            name = canonicalize_name(rule.name)
            if name in locked:
                assert rule.specifier.contains(locked[name]), f"{lock}: {name} {locked[name]}"
    apt = {canonicalize_name(r.name) for r in constraints(REQUIREMENTS / "apt-pi.txt")}
    assert apt == FROM_APT_ON_A_PI
    assert pins("pi.lock")["opencv-python-headless"].startswith("4.")


def test_every_environment_installs_from_a_lock_with_hashes() -> None:
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "requirements/runtime.lock" in setup and "requirements/test.lock" in setup
    assert "--require-hashes --no-deps" in setup
    install = (ROOT / "hardware" / "install").read_text()
    assert 'lock="$repo/requirements/pi.lock"' in install
    assert "--require-hashes --no-deps" in install
    assert "requirements/pi-test.lock" in (ROOT / "scripts" / "pi-env").read_text()


PI_PYTHON = {"python_full_version": "3.11.2", "python_version": "3.11"}
"""Debian bookworm's python3, which `.venv-pi` runs."""
DIFFER_ON_THE_PI = {"numpy", "opencv-python-headless", "pygame"}
"""What the Pi-like environment runs at other versions: what `tests/purity.py` calls
versioned (`cv2` is OpenCV's module)."""
DOCS_ONLY = {"pymdown-extensions"}
"""Locked per Python patch release, and imported by the guides' build alone."""


def test_the_two_test_environments_differ_only_in_numpy_opencv_and_pygame() -> None:
    here = {pin.name: pin.version for pin in read_lock((REQUIREMENTS / "test.lock").read_text())}
    pi_text = (REQUIREMENTS / "pi-test.lock").read_text()
    environment = default_environment() | PI_PYTHON
    on_the_pi = {pin.name: pin.version for pin in read_lock(pi_text, environment)}
    differ = {name for name in here.keys() & on_the_pi.keys() if here[name] != on_the_pi[name]}
    assert differ - DOCS_ONLY == DIFFER_ON_THE_PI - FROM_APT_ON_A_PI
    assert set(here) - set(on_the_pi) - DOCS_ONLY == FROM_APT_ON_A_PI - {"spidev"}
    assert set(on_the_pi) - set(here) == set()
    assert {"cv2", "numpy", "pygame"} == VERSIONED
