"""The staff PIN the install script gives a table: random, six digits, printed, kept on
a second install, and in a file other users cannot read.

The script is sourced, so that its steps run on an options file in a test folder
rather than in /etc, with root's commands run as the test's own user."""

import stat
import subprocess
from pathlib import Path

import pytest

from companion.cli.env_file import env_file_assignments
from companion.service_options import PLACEHOLDER_PIN, STAFF_PIN_VARIABLE, pin_problem

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "hardware" / "install"
TEMPLATE = ROOT / "hardware" / "default-options"


def steps(script: str, options: Path, *, as_root: str = 'run "$@"') -> str:
    """What the install script's steps print when run on `options`."""
    result = subprocess.run(
        [
            "bash",
            "-c",
            'install="$1" options="$2"; set --; source "$install"; options_path="$options"; '
            f"as_root() {{ {as_root}; }}; {script}",
            "bash",
            str(INSTALL),
            str(options),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def pins(path: Path) -> list[str]:
    """Every staff PIN the file assigns, as systemd reads it."""
    text = path.read_text(encoding="utf-8")
    return [value for name, value in env_file_assignments(text) if name == STAFF_PIN_VARIABLE]


def test_the_template_ships_the_placeholder_pin() -> None:
    assert pins(TEMPLATE) == [PLACEHOLDER_PIN]


def test_the_placeholder_is_replaced_with_a_random_six_digit_pin_that_is_printed(
    tmp_path: Path,
) -> None:
    options = tmp_path / "dixit-companion"
    options.write_text(TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    out = steps("set_staff_pin; next_steps", options)
    (pin,) = pins(options)
    assert len(pin) == 6 and pin.isascii() and pin.isdigit() and pin_problem(pin) is None
    assert f"Staff PIN for the phone page: {pin} (in {options})" in out.splitlines()
    assert stat.S_IMODE(options.stat().st_mode) == 0o640
    before = TEMPLATE.read_text(encoding="utf-8").replace(
        f"{STAFF_PIN_VARIABLE}={PLACEHOLDER_PIN}", f"{STAFF_PIN_VARIABLE}={pin}"
    )
    assert options.read_text(encoding="utf-8") == before, "the rest of the file is kept"


def test_two_tables_get_different_pins(tmp_path: Path) -> None:
    made = set()
    for table in range(3):
        options = tmp_path / f"table-{table}"
        options.write_text(f"{STAFF_PIN_VARIABLE}=\n", encoding="utf-8")
        steps("set_staff_pin", options)
        made.update(pins(options))
    assert len(made) > 1


@pytest.mark.parametrize(
    "text",
    [
        "COMPANION_PLAY_OPTIONS='--language fr'\n",
        f"COMPANION_PLAY_OPTIONS='--language fr'\n{STAFF_PIN_VARIABLE}=\n",
        f"COMPANION_PLAY_OPTIONS='--language fr'\n  {STAFF_PIN_VARIABLE} = \"{PLACEHOLDER_PIN}\"\n",
    ],
    ids=["no PIN (a table installed before the phone page)", "empty PIN", "quoted placeholder"],
)
def test_a_table_without_a_pin_of_its_own_gets_one_and_keeps_its_options(
    tmp_path: Path, text: str
) -> None:
    options = tmp_path / "dixit-companion"
    options.write_text(text, encoding="utf-8")
    steps("set_staff_pin", options)
    (pin,) = pins(options)
    assert pin_problem(pin) is None
    assert options.read_text(encoding="utf-8").startswith(
        "COMPANION_PLAY_OPTIONS='--language fr'\n"
    )


def test_a_pin_already_chosen_is_kept_and_printed_again(tmp_path: Path) -> None:
    options = tmp_path / "dixit-companion"
    text = f"COMPANION_PLAY_OPTIONS='--language fr'\n{STAFF_PIN_VARIABLE}=004711\n"
    options.write_text(text, encoding="utf-8")
    out = steps("set_staff_pin; next_steps", options)
    assert options.read_text(encoding="utf-8") == text
    assert f"already done: {options} has a staff PIN of its own" in out
    assert f"Staff PIN for the phone page: 004711 (in {options})" in out


def test_a_world_readable_options_file_is_made_root_and_group_only(tmp_path: Path) -> None:
    options = tmp_path / "dixit-companion"
    options.write_text(f"{STAFF_PIN_VARIABLE}=004711\n", encoding="utf-8")
    options.chmod(0o644)
    out = steps(
        'user=nobody; keep_options_private; echo "group=$(id -gn nobody)"',
        options,
        as_root='say "as root: $*"',
    )
    group = out.splitlines()[-1].removeprefix("group=")
    assert f"as root: chown root:{group} {options}" in out
    assert f"as root: chmod 0640 {options}" in out


def test_a_dry_run_says_it_would_write_a_pin_and_shows_none() -> None:
    result = subprocess.run(
        [str(INSTALL), "--dry-run", "--user", "root"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    if not Path("/etc/default/dixit-companion").exists():
        assert "would write a random 6-digit staff PIN" in result.stdout
    assert "Staff PIN for the phone page" not in result.stdout


def test_a_pin_of_its_own_that_cannot_work_is_kept_with_a_note(tmp_path: Path) -> None:
    options = tmp_path / "dixit-companion"
    options.write_text(f"{STAFF_PIN_VARIABLE}=12ab\n", encoding="utf-8")
    out = steps("set_staff_pin", options)
    assert pins(options) == ["12ab"]
    assert "is not 4 to 12 digits: the staff tools stay off" in out
