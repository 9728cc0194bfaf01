"""The Pi install script as the install tests run it, and the systemd unit it prints."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "hardware" / "install"


def install(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(INSTALL), *arguments], capture_output=True, text=True, check=False, timeout=60
    )


def unit_text() -> str:
    result = install("--print-unit", "--user", "root")
    assert result.returncode == 0, result.stderr
    return result.stdout


def unit_settings(text: str) -> dict[str, list[str]]:
    """Each key of the unit to its values, in order."""
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings
