"""`companion doctor` names a mistake in the table's service options, in the words the
table's own screen shows, so it is found at a terminal without the service's log."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.table_options import read_options_file
from companion.doctor.findings import OPTIONS
from companion.service_options import DEFAULT_PLAY_OPTIONS, OPTIONS_VARIABLE, SERVICE_STATE_DIR

ROOT = Path(__file__).resolve().parents[2]

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


def test_a_file_without_the_variable_is_checked_with_the_units_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "# nothing here\n")
    main(doctor(path, tmp_path))
    (head,) = options_line(capsys.readouterr().out)[:1]
    assert head.startswith(f"OK    {OPTIONS}"), head
    assert "--players 5" in head and "the service's default" in head


def test_the_default_options_are_the_units_own() -> None:
    unit = (ROOT / "hardware" / "dixit-companion.service.in").read_text(encoding="utf-8")
    default = " ".join(DEFAULT_PLAY_OPTIONS)
    assert f'Environment="{OPTIONS_VARIABLE}={default}"' in unit.splitlines()


def test_the_journal_looked_for_is_the_services_not_the_doctors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "journal.sqlite").write_bytes(b"")  # the doctor's own journal exists
    path = write(tmp_path, 'COMPANION_PLAY_OPTIONS="--ruleset odyssey"\n')
    assert not (SERVICE_STATE_DIR / "journal.sqlite").exists()
    assert main(doctor(path, tmp_path)) == 1
    head, _ = options_line(capsys.readouterr().out)
    assert head.startswith(f"FAIL  {OPTIONS}") and "say who plays" in head, head


def test_a_journal_named_in_the_options_is_the_one_looked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "kept.sqlite").write_bytes(b"")
    path = write(tmp_path, f'COMPANION_PLAY_OPTIONS="--journal {tmp_path / "kept.sqlite"}"\n')
    main(doctor(path, tmp_path))
    (head,) = options_line(capsys.readouterr().out)[:1]
    assert head.startswith(f"OK    {OPTIONS}"), head


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("--players\xa0Ann=red\t\u2003Ben=blue", ("--players\xa0Ann=red", "\u2003Ben=blue")),
        ("\"--players 'Ann Lee' Ben\"", ("--players", "Ann Lee", "Ben")),
        ('--players "Ann Lee"=red Jo\\ Ray', ("--players", "Ann Lee=red", "Jo Ray")),
        ("--players 'Ann", ("--players", "Ann")),
    ],
    ids=["unicode spaces", "inner quotes", "quotes and escapes", "unclosed quote"],
)
def test_the_words_are_the_ones_systemd_makes_of_an_unquoted_variable(
    tmp_path: Path, value: str, words: tuple[str, ...]
) -> None:
    path = write(tmp_path, f"COMPANION_PLAY_OPTIONS={value}\n")
    assert read_options_file(path) == words


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
