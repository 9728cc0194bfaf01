"""Facts about the machine the doctor runs on, for fixes that name the right thing to do."""

import importlib
import os
import pwd
from pathlib import Path

DEVICE_MODEL = Path("/proc/device-tree/model")
"""Where the Linux kernel names the board it runs on ("Raspberry Pi 5 Model B ...")."""


def on_a_pi() -> bool:
    """Whether this machine is a Raspberry Pi (so a missing GPIO is a missing library)."""
    try:
        return "Raspberry Pi" in DEVICE_MODEL.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def user_name() -> str:
    """The user the doctor runs as, as a fix names it."""
    return _name_of(os.geteuid())


def owner_of(path: Path) -> str:
    """The user who owns `path`, by name where the system knows it."""
    return _name_of(path.stat().st_uid)


def _name_of(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user {uid}"


def nearest_folder(path: Path) -> Path:
    """The folder that holds `path`, or the nearest one above it that exists (a state
    folder not yet made is made by `companion play` inside that one)."""
    for folder in (path.parent, *path.parent.parents):
        if folder.is_dir():
            return folder
    return Path(".")


def library_missing(name: str) -> bool:
    """Whether the Python library `name` cannot be imported here (so the fix is to
    install it); a library that is there but fails in other ways is not missing."""
    try:
        importlib.import_module(name)
    except ImportError:
        return True
    except Exception:  # there, but broken: another fix than installing it
        return False
    return False
