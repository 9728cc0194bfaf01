"""`companion doctor` names a mistake in the table's service options, in the words the
table's own screen shows, so it is found at a terminal without the service's log."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.table_options import read_options_file
from companion.doctor.findings import OPTIONS
from companion.service_options import DEFAULT_PLAY_OPTIONS, OPTIONS_VARIABLE

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
        ("--buttons 17,17,22", "17"),
        ("--source picamra", "picamra"),
        ("--strip ws2812:abc", "ws2812:abc"),
        ("--colour", "--colour"),
        ("--language de", "de"),
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
    path = write(tmp_path, "COMPANION_PLAY_OPTIONS='--language fr --auto-confirm 10'\n")
    main(doctor(path, tmp_path))
    (head,) = options_line(capsys.readouterr().out)[:1]
    assert head.startswith(f"OK    {OPTIONS}")
    assert "--language fr --auto-confirm 10" in head


def test_game_options_in_the_service_file_are_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        tmp_path,
        "COMPANION_PLAY_OPTIONS='--ruleset odyssey --players Ann=red Ben=blue Cleo=green'\n",
    )
    main(doctor(path, tmp_path))
    head, fix = options_line(capsys.readouterr().out)
    assert head.startswith(f"WARN  {OPTIONS}"), head
    assert "--ruleset, --players" in head and "the same game" in head
    assert "each group sets up its own game" in fix


def test_a_file_without_the_variable_is_checked_with_the_units_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "# nothing here\n")
    main(doctor(path, tmp_path))
    (head,) = options_line(capsys.readouterr().out)[:1]
    assert head.startswith(f"OK    {OPTIONS}"), head
    assert "defaults" in head and "the service's default" in head


def test_the_default_options_are_the_units_own() -> None:
    unit = (ROOT / "hardware" / "dixit-companion.service.in").read_text(encoding="utf-8")
    default = " ".join(DEFAULT_PLAY_OPTIONS)
    assert f'Environment="{OPTIONS_VARIABLE}={default}"' in unit.splitlines()


# Two stages, as in systemd. First EnvironmentFile= reads the value after `=`: '...'
# is literal; "..." unescapes \", \\, \$ and \` and keeps other backslashes; an
# unquoted part runs to the end of the line, its quotes ordinary characters, a
# backslash taking the next character as it is and its trailing blanks dropped. Then
# $COMPANION_PLAY_OPTIONS is split into words at blanks, quotes and backslashes
# honoured again. Each case shows the file's text after `=`, the value, the words.
@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("--players\xa0Ann=red\t\u2003Ben=blue", ("--players\xa0Ann=red", "\u2003Ben=blue")),
        ("\"--players 'Ann Lee' Ben\"", ("--players", "Ann Lee", "Ben")),
        # --players "Ann Lee"=red Jo\ Ray: an unquoted value, so the file keeps the
        # double quotes and takes the backslash: --players "Ann Lee"=red Jo Ray. The
        # quotes then hold Ann Lee together; nothing holds Jo and Ray together.
        ('--players "Ann Lee"=red Jo\\ Ray', ("--players", "Ann Lee=red", "Jo", "Ray")),
        ("--players 'Ann", ("--players", "Ann")),
        # "--players \"Ann Lee\"=red" is the value --players "Ann Lee"=red
        ('"--players \\"Ann Lee\\"=red"', ("--players", "Ann Lee=red")),
        # --players Jo\\ Ray 'Ann Lee' is the value --players Jo\ Ray 'Ann Lee'
        ("--players Jo\\\\ Ray 'Ann Lee'", ("--players", "Jo Ray", "Ann Lee")),
        # "--players \$Jo \x\\" is the value --players $Jo \x\ and its last lone
        # backslash is dropped
        ('"--players \\$Jo \\x\\\\"', ("--players", "$Jo", "x")),
        # '--players \"Ann Lee\"' is the value --players \"Ann Lee\"
        ("'--players \\\"Ann Lee\\\"'", ("--players", '"Ann', 'Lee"')),
        # blanks after a closing quote are skipped: --ruleset odyssey--players 5
        ("\"--ruleset odyssey\" '--players 5'", ("--ruleset", "odyssey--players", "5")),
        # --players' Ann Lee' is unquoted: the value keeps the quotes
        ("--players' Ann Lee'", ("--players Ann Lee",)),
        ("--players 4 # four", ("--players", "4", "#", "four")),
        ("--players 'Ann  \t", ("--players", "Ann")),
        ("--players 'Ann\\ ", ("--players", "Ann ")),
        ("", ()),
    ],
    ids=[
        "unicode spaces",
        "inner quotes",
        "quotes and escapes",
        "unclosed quote",
        "escaped quotes",
        "escaped backslash",
        "double-quoted backslashes",
        "single quotes",
        "joined quoted parts",
        "quotes inside an unquoted value",
        "hash inside a value",
        "trailing blanks",
        "escaped trailing blank",
        "empty",
    ],
)
def test_the_words_are_the_ones_systemd_makes_of_an_unquoted_variable(
    tmp_path: Path, value: str, words: tuple[str, ...]
) -> None:
    path = write(tmp_path, f"COMPANION_PLAY_OPTIONS={value}\n")
    assert read_options_file(path) == words


FOUR_WORDS = ("--ruleset", "odyssey", "--players", "4")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("COMPANION_PLAY_OPTIONS=--ruleset odyssey \\\n  --players 4\n", FOUR_WORDS),
        ('COMPANION_PLAY_OPTIONS="--ruleset odyssey\\\n --players 4"\n', FOUR_WORDS),
        ('COMPANION_PLAY_OPTIONS="--ruleset odyssey\n--players 4"\nA=1\n', FOUR_WORDS),
        (
            "COMPANION_PLAY_OPTIONS=--players 4\n# COMPANION_PLAY_OPTIONS=--players 3\n"
            "\t; COMPANION_PLAY_OPTIONS=--players 3\n",
            ("--players", "4"),
        ),
        (
            "COMPANION_PLAY_OPTIONS=--players 4\nexport COMPANION_PLAY_OPTIONS=--players 3\n",
            ("--players", "4"),
        ),
        ('export COMPANION_PLAY_OPTIONS="--players 3"\n', None),
        ("COMPANION_PLAY_OPTIONS=--players 4 \\\r\nA=1\r\n", ("--players", "4")),
        (
            "COMPANION_PLAY_OPTIONS=--players 4\n\0COMPANION_PLAY_OPTIONS=--players 3\n",
            ("--players", "4"),
        ),
        ("COMPANION_PLAY_OPTIONS=--players 4", ("--players", "4")),
        ("COMPANION_PLAY_OPTIONS=--players 4\nCOMPANION_PLAY_OPTIONS\n", ("--players", "4")),
    ],
    ids=[
        "continued line",
        "continued quoted line",
        "quoted value over two lines",
        "comments",
        "export is not systemd's",
        "export alone",
        "a backslash before CR LF joins no lines",
        "a NUL ends the file",
        "no last newline",
        "a line without =",
    ],
)
def test_the_file_is_read_as_systemd_reads_an_environment_file(
    tmp_path: Path, text: str, words: tuple[str, ...] | None
) -> None:
    path = write(tmp_path, text)
    assert read_options_file(path) == words


def test_the_installed_options_file_gives_its_options() -> None:
    path = ROOT / "hardware" / "default-options"
    assert read_options_file(path) == ("--language", "en")


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
