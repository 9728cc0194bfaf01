"""The software check: are the installed Python packages the ones the tests passed with?

Every environment the project makes installs from a lock of exact versions with their
hashes (`requirements/*.lock`): `scripts/setup` for a development machine and
`hardware/install` for a café's Pi. Each keeps a copy of the lock it installed from in
the environment itself (`LOCK_NAME` under `sys.prefix`), so the doctor compares what
is installed with what was meant to be, wherever the package lives. A package that
differs (an upgrade by hand, a `pip install` of something else that pulled a newer
numpy) is the first suspect when a table that worked starts to fail, so it is a
warning with the command that puts it right. Packages the lock leaves to apt (numpy
and pygame on a Pi, which picamera2 and the console's SDL need from Debian) are not
in it, and so not compared.
"""

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from companion.doctor.findings import SOFTWARE, Finding, Status
from companion.wording import count

LOCK_NAME = "requirements.lock"
"""The copy of the lock an environment was installed from, in its prefix."""
SHOWN = 4
"""How many differing packages the report names before it counts the rest."""
_PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*==")
"""A lock's line that pins a package: `name==version`, perhaps a marker, then hashes."""


def installed_lock() -> Path:
    """Where this environment keeps the lock it was installed from."""
    return Path(sys.prefix) / LOCK_NAME


@dataclass(frozen=True)
class Pin:
    """One package as the lock gives it."""

    name: str
    """The package's name, normalised as PyPI compares names."""
    version: str
    """The exact version locked."""


@dataclass(frozen=True)
class Drift:
    """A locked package installed at another version, or not installed at all."""

    name: str
    """The package's name."""
    locked: str
    """The version the lock gives."""
    installed: str | None
    """The version installed, or None when it is missing."""

    def __str__(self) -> str:
        found = self.installed or "missing"
        return f"{self.name} {found} (locked {self.locked})"


def normalised(name: str) -> str:
    """A package name as PyPI compares names: lower case, runs of -_. as one -."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(text: str, environment: dict[str, str] | None = None) -> tuple[Pin, ...]:
    """The pins of a lock file's text (requirements format, as `uv pip compile` or
    `pip-compile` write it) that apply to `environment` (this Python on this machine
    unless given; a universal lock pins numpy once per Python, colorama for Windows
    only); lines that pin nothing are passed over."""
    pins = []
    for line in text.splitlines():
        if not _PIN.match(line.strip()):
            continue
        try:
            requirement = Requirement(line.split(" \\")[0].strip())
        except InvalidRequirement:
            continue
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        version = next(iter(requirement.specifier)).version
        pins.append(Pin(normalised(requirement.name), version))
    return tuple(pins)


def installed_version(name: str) -> str | None:
    """The installed version of the package `name`, or None."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def drifts(
    pins: tuple[Pin, ...], version_of: Callable[[str], str | None] = installed_version
) -> Iterator[Drift]:
    """Every locked package whose installed version is not the locked one."""
    for pin in pins:
        version = version_of(pin.name)
        if version is None or version.strip().lower() != pin.version.lower():
            yield Drift(pin.name, pin.version, version)


def software_check(
    lock: Path, version_of: Callable[[str], str | None] = installed_version
) -> Finding:
    """Compare the installed packages with the lock this environment was installed from."""
    fix = "install again from the lock: `hardware/install` on the Pi, `scripts/setup` elsewhere"
    try:
        text = lock.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Finding(
            Status.SKIP,
            SOFTWARE,
            f"this environment ({sys.prefix}) was not installed from a lock: no {LOCK_NAME}",
        )
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        return Finding(Status.WARN, SOFTWARE, f"{lock} cannot be read ({reason})", fix)
    pins = read_lock(text)
    if not pins:
        return Finding(Status.WARN, SOFTWARE, f"{lock} pins no package", fix)
    found = list(drifts(pins, version_of))
    python = f"Python {sys.version.split()[0]}"
    if not found:
        return Finding(
            Status.OK,
            SOFTWARE,
            f"{python}; {count(len(pins), 'package')} as locked in {lock}",
        )
    named = ", ".join(str(d) for d in found[:SHOWN])
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return Finding(
        Status.WARN,
        SOFTWARE,
        f"{python}; {count(len(found), 'package')} of {len(pins)} differ from {lock}: "
        f"{named}{more}",
        fix,
    )
