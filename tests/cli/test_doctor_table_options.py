"""`companion doctor` names a mistake in the table's service options, in the words the
table's own screen shows, so it is found at a terminal without the service's log."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.table_options import read_options_file
from companion.doctor.findings import OPTIONS

FIX = "      fix: put it right in {path}, then: sudo systemctl restart dixit-companion"


def doctor(options: Path, tmp_path: Path) -> list[str]:
    return [
        "doctor",
        "--options-file",
        str(options),
        "--source",
        "none",
        "--journal",
        str(tmp_path / "journal.sqlite"),
        "--calibration",
        str(tmp_path / "calibration.json"),
        "--no-buttons",
        "--no-light",
    ]


def options_line(out: str) -> list[str]:
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line[6:].startswith(OPTIONS))
    return lines[at : at + 2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dixit-companion"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ("--ruleset odysey --players 4", "odysey"),
        ("--players 4 --buttons 17,17,22", "17"),
        ("--players 4 --source picamra", "picamra"),
        ("--players 4 --strip ws2812:abc", "ws2812:abc"),
        ("--players 4 --colour", "--colour"),
        ("--ruleset odyssey", "players"),
    ],
)
def test_a_wrong_option_in_the_service_file_fails_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: str, named: str
) -> None:
    path = write(tmp_path, f'# the table\nCOMPANION_PLAY_OPTIONS="{options}"\n')
    assert main(doctor(path, tmp_path)) == 1
    head, fix = options_line(capsys.readouterr().out)
    assert head.startswith(f"FAIL  {OPTIONS}")
    assert named in head
    assert fix == FIX.format(path=path)


def test_sound_service_options_are_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path,
        "COMPANION_PLAY_OPTIONS='--ruleset odyssey --players Ann=red Ben=blue Cleo=green'\n",
    )
    main(doctor(path, tmp_path))
    (head,) = options_line(capsys.readouterr().out)[:1]
    assert head.startswith(f"OK    {OPTIONS}")
    assert "--ruleset odyssey --players Ann=red Ben=blue Cleo=green" in head


def test_a_file_without_the_variable_fails_with_what_to_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "# nothing here\n")
    assert main(doctor(path, tmp_path)) == 1
    head, fix = options_line(capsys.readouterr().out)
    assert head.startswith(f"FAIL  {OPTIONS}") and "has no COMPANION_PLAY_OPTIONS" in head
    assert 'COMPANION_PLAY_OPTIONS="--players 5"' in fix


def test_a_table_not_installed_as_a_service_skips_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(doctor(tmp_path / "missing", tmp_path))
    (head,) = options_line(capsys.readouterr().out)[:1]
    assert head.startswith(f"SKIP  {OPTIONS}")


def test_the_options_are_split_as_systemd_splits_them(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'A=1\nCOMPANION_PLAY_OPTIONS="--players 3"\n  COMPANION_PLAY_OPTIONS = "--ruleset  party   --players 4" \n',
    )
    assert read_options_file(path) == ("--ruleset", "party", "--players", "4")
