"""Where a table's state lives: the journal and the calibration, in one folder.

On a Pi the service sets `COMPANION_STATE_DIR` to its systemd state directory
(`/var/lib/dixit-companion`); by hand, state goes to `./state`. Every command finds
the journal and the calibration through here, so `companion calibrate`,
`companion play` and `companion doctor` agree without being told, and
`companion history` finds the games `companion demo` played.
"""

import os
from pathlib import Path

STATE_DIR_VARIABLE = "COMPANION_STATE_DIR"
"""The environment variable naming the folder for the journal and other state."""

JOURNAL_NAME = "journal.sqlite"
"""The journal's file name inside the state folder."""

CALIBRATION_NAME = "calibration.json"
"""The table's calibration file name inside the state folder."""

DEMO_JOURNAL_NAME = "demo.sqlite"
"""The demo's journal file name inside the state folder: beside the table's journal,
so that the demo's games never mix with a table's, nor take its place."""


def state_dir() -> Path:
    """`$COMPANION_STATE_DIR` if that is set, else `./state`."""
    return Path(os.environ.get(STATE_DIR_VARIABLE) or "state")


def default_journal_path() -> Path:
    """The journal in the state folder."""
    return state_dir() / JOURNAL_NAME


def demo_journal_path() -> Path:
    """The demo's journal in the state folder."""
    return state_dir() / DEMO_JOURNAL_NAME


def journal_to_read() -> Path:
    """The journal `companion history` reads when not told: the table's, or the demo's
    while the state folder holds no table's journal (a machine that has only run the
    demo), so that the demo's games can be looked at straight after it."""
    table, demo = default_journal_path(), demo_journal_path()
    return demo if demo.exists() and not table.exists() else table


def default_calibration_path() -> Path:
    """The table's calibration in the state folder."""
    return state_dir() / CALIBRATION_NAME


def camera_profile_path(calibration: Path) -> Path:
    """Where the camera settings that go with a calibration are kept: beside it."""
    return calibration.with_name(calibration.stem + ".camera.json")
