"""The Pi install script and its systemd unit, as far as a machine without a Pi can
check them: the script passes shellcheck, a dry run shows every step and changes
nothing, and the unit it installs is valid and matches what the code expects."""

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli.each import EXIT_BAD_INPUT
from companion.display.screen import CONSOLE_DRIVERS, DISPLAY_MODES
from companion.service_options import EX_CONFIG, OPTIONS_FILE, SERVICE_STATE_DIR
from companion.statedir import STATE_DIR_VARIABLE
from tests.install.script import ROOT, install, unit_settings, unit_text

SYSTEM_PATHS = (
    Path("/etc/systemd/system/dixit-companion.service"),
    Path("/etc/default/dixit-companion"),
    Path("/usr/local/bin/companion"),
    Path("/var/lib/dixit-companion"),
)


def tool(name: str) -> str:
    """A checker the test setup installs (scripts/apt-packages.txt)."""
    path = shutil.which(name)
    assert path is not None, f"{name} is missing: scripts/setup installs it"
    return path


def verify(unit: str, folder: Path) -> str:
    """What systemd-analyze says of the unit: nothing when it is sound."""
    path = folder / "dixit-companion.service"
    path.write_text(unit)
    result = subprocess.run(
        [tool("systemd-analyze"), "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return f"{result.stdout}{result.stderr}".strip() + (
        "" if result.returncode == 0 else " (failed)"
    )


@pytest.mark.parametrize(
    "script",
    [
        "hardware/install",
        "scripts/setup",
        "scripts/test",
        "scripts/demo",
        "scripts/pi-env",
        "scripts/lock",
        ".ci/run",
    ],
)
def test_the_shell_scripts_pass_shellcheck(script: str) -> None:
    result = subprocess.run(
        [tool("shellcheck"), str(ROOT / script)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout


def test_the_installed_unit_is_valid_for_systemd(tmp_path: Path) -> None:
    assert verify(unit_text(), tmp_path) == ""


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (("Type=notify", "Type=notified"), "Failed to parse service type"),
        (("/.venv/bin/companion", "/.venv/bin/no-such-command"), "is not executable"),
    ],
)
def test_a_broken_unit_is_caught_by_the_same_check(
    tmp_path: Path, change: tuple[str, str], complaint: str
) -> None:
    assert complaint in verify(unit_text().replace(*change), tmp_path)


def test_the_unit_runs_the_game_on_the_console_with_state_watchdog_and_restarts() -> None:
    settings = unit_settings(unit_text())
    environment = dict(value.strip('"').partition("=")[::2] for value in settings["Environment"])
    (command,) = settings["ExecStart"]
    assert command.startswith(f"{ROOT}/.venv/bin/companion play --display fullscreen ")
    assert "fullscreen" in DISPLAY_MODES
    assert environment["SDL_VIDEODRIVER"] in CONSOLE_DRIVERS
    assert settings["StateDirectory"] == ["dixit-companion"]
    assert environment[STATE_DIR_VARIABLE] == "%S/dixit-companion"
    assert settings["WorkingDirectory"] == ["%S/dixit-companion"], "writable, and the state's"
    assert settings["Type"] == ["notify"] and settings["NotifyAccess"] == ["main"]
    assert int(settings["WatchdogSec"][0]) >= 10
    assert settings["Restart"] == ["always"]
    assert settings["User"] == ["root"]
    assert settings["WantedBy"] == ["multi-user.target"]
    assert settings["EnvironmentFile"] == ["-/etc/default/dixit-companion"]


def test_a_dry_run_prints_every_step_and_changes_nothing() -> None:
    before = {path: path.exists() for path in SYSTEM_PATHS}
    venv = ROOT / ".venv" / "pyvenv.cfg"
    venv_before = venv.read_text() if venv.exists() else None
    result = install("--dry-run", "--user", "root")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "python3-picamera2" in out, "picamera2 comes from apt (and is missing here)"
    assert f"-m venv --system-site-packages {ROOT}/.venv" in out
    assert f"--require-hashes --no-deps --requirement {ROOT}/requirements/pi.lock" in out
    assert f"--no-deps --no-build-isolation --editable {ROOT}" in out
    assert f"cp {ROOT}/requirements/pi.lock {ROOT}/.venv/requirements.lock" in out
    assert "pip install picamera2" not in out
    for path in SYSTEM_PATHS:
        assert str(path) in out
    assert "would write /etc/systemd/system/dixit-companion.service (mode 0644):" in out
    assert "    | ExecStart=" in out
    assert "systemctl enable dixit-companion.service" in out
    assert out.rstrip().endswith("dry run: nothing was changed")
    assert {path: path.exists() for path in SYSTEM_PATHS} == before
    assert (venv.read_text() if venv.exists() else None) == venv_before


def test_the_state_folder_is_made_for_the_service_user() -> None:
    result = install("--dry-run", "--user", "nobody")
    assert result.returncode == 0, result.stderr
    assert "install -d -m 0750 -o nobody" in result.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--frobnicate"], "install: unknown option --frobnicate"),
        (["--user"], "install: --user needs a name"),
        (["--dry-run", "--user", "no-such-user-here"], "install: no user 'no-such-user-here'"),
    ],
)
def test_bad_options_are_refused_before_any_step(arguments: list[str], message: str) -> None:
    result = install(*arguments)
    assert result.returncode == 2
    assert message in result.stderr
    assert "would run" not in result.stdout


def test_the_unit_does_not_restart_a_table_whose_options_are_wrong_and_restarts_the_rest() -> None:
    settings = unit_settings(unit_text())
    assert settings["RestartPreventExitStatus"] == [str(EX_CONFIG)]
    assert str(EXIT_BAD_INPUT) not in settings["RestartPreventExitStatus"][0].split()
    assert settings["Restart"] == ["always"]


def test_the_unit_keeps_its_state_where_the_doctor_looks_for_it() -> None:
    settings = unit_settings(unit_text())
    assert settings["StateDirectory"] == [SERVICE_STATE_DIR.name]
    assert f"{STATE_DIR_VARIABLE}=%S/{SERVICE_STATE_DIR.name}" in settings["Environment"]
    assert SERVICE_STATE_DIR.parent == Path("/var/lib")  # %S for a system service
    assert f"EnvironmentFile=-{OPTIONS_FILE}" in unit_text().splitlines()
