"""`companion doctor` warns when the table's staff PIN cannot guard the phone page's
staff tools (none, empty, the template's placeholder, not 4 to 12 digits), reading it
from the service's options file as systemd does, and never shows the PIN."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.cli.table_options import STAFF_PIN, read_staff_pin, staff_pin_finding
from companion.doctor.findings import OPTIONS, Status
from companion.service_options import PLACEHOLDER_PIN, STAFF_PIN_VARIABLE, pin_problem

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "hardware" / "default-options"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "dixit-companion"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("pin", ["1234", "004711", "482913", "123456789012"])
def test_four_to_twelve_digits_make_a_pin(pin: str) -> None:
    assert pin_problem(pin) is None


@pytest.mark.parametrize(
    ("pin", "problem"),
    [
        (None, "no staff PIN is set"),
        ("", "the staff PIN is empty"),
        (PLACEHOLDER_PIN, "the staff PIN is still the placeholder 0000 of the template"),
        ("12", "the staff PIN is not 4 to 12 digits"),
        ("1234567890123", "the staff PIN is not 4 to 12 digits"),
        ("12a456", "the staff PIN is not 4 to 12 digits"),
        (" 123456", "the staff PIN is not 4 to 12 digits"),
        ("\u0661\u0662\u0663\u0664\u0665\u0666", "the staff PIN is not 4 to 12 digits"),
        ("\uff11\uff12\uff13\uff14\uff15\uff16", "the staff PIN is not 4 to 12 digits"),
    ],
    ids=[
        "none",
        "empty",
        "placeholder",
        "too short",
        "too long",
        "a letter",
        "a blank",
        "arabic digits",
        "full-width digits",
    ],
)
def test_a_pin_that_cannot_guard_the_staff_tools_is_named(pin: str | None, problem: str) -> None:
    assert pin_problem(pin) == problem


@pytest.mark.parametrize(
    ("text", "pin"),
    [
        (f"{STAFF_PIN_VARIABLE}=482913\n", "482913"),
        (f'{STAFF_PIN_VARIABLE}="482913"\n', "482913"),
        (f"  {STAFF_PIN_VARIABLE} = '004711'  \n", "004711"),
        (f"{STAFF_PIN_VARIABLE}=1111\n{STAFF_PIN_VARIABLE}=482913\n", "482913"),
        (f"{STAFF_PIN_VARIABLE}=482913\n# {STAFF_PIN_VARIABLE}=1111\n", "482913"),
        (f"export {STAFF_PIN_VARIABLE}=482913\n", None),
        ("COMPANION_PLAY_OPTIONS='--language fr'\n", None),
        (f"{STAFF_PIN_VARIABLE}=\n", ""),
    ],
    ids=[
        "plain",
        "double-quoted",
        "single-quoted with blanks",
        "the last assignment counts",
        "a comment is not one",
        "export is not systemd's",
        "no PIN",
        "empty",
    ],
)
def test_the_pin_is_read_as_systemd_reads_the_file(
    tmp_path: Path, text: str, pin: str | None
) -> None:
    assert read_staff_pin(write(tmp_path, text)) == pin


def test_a_usable_pin_is_ok_without_showing_it(tmp_path: Path) -> None:
    finding = staff_pin_finding(write(tmp_path, f"{STAFF_PIN_VARIABLE}=482913\n"))
    assert finding.status is Status.OK and finding.check == STAFF_PIN
    assert "482913" not in finding.detail
    assert "6 digits" in finding.detail


def test_the_templates_placeholder_is_warned_about_with_its_fix() -> None:
    finding = staff_pin_finding(TEMPLATE)
    assert finding.status is Status.WARN
    assert finding.detail == (
        f"the staff PIN is still the placeholder 0000 of the template ({STAFF_PIN_VARIABLE} "
        f"in {TEMPLATE}): staff tools on the phone page are off"
    )
    assert finding.fix == (
        f"set {STAFF_PIN_VARIABLE}=... to 4 to 12 digits in {TEMPLATE} (hardware/install "
        "makes a random one), then: sudo systemctl restart dixit-companion"
    )


@pytest.mark.parametrize(
    "text",
    [
        "COMPANION_PLAY_OPTIONS='--language fr'\n",
        f"{STAFF_PIN_VARIABLE}=\n",
        f"{STAFF_PIN_VARIABLE}=12ab\n",
        f"{STAFF_PIN_VARIABLE}=123\n",
    ],
    ids=["missing", "empty", "not digits", "too short"],
)
def test_an_unusable_pin_is_a_warning_that_does_not_show_it(tmp_path: Path, text: str) -> None:
    finding = staff_pin_finding(write(tmp_path, text))
    assert finding.status is Status.WARN
    assert "staff tools on the phone page are off" in finding.detail
    assert "12ab" not in finding.detail + finding.fix and "=123" not in finding.detail


def test_a_table_not_installed_as_a_service_skips_the_pin(tmp_path: Path) -> None:
    assert staff_pin_finding(tmp_path / "missing").status is Status.SKIP


def test_an_unreadable_file_skips_the_pin(tmp_path: Path) -> None:
    path = tmp_path / "dixit-companion"
    path.write_bytes(b"COMPANION_STAFF_PIN=\xff\xfe\n")
    finding = staff_pin_finding(path)
    assert finding.status is Status.SKIP
    assert "cannot be read" in finding.detail


def test_the_doctor_reports_the_pin_after_the_options_and_only_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, f"COMPANION_PLAY_OPTIONS='--language fr'\n{STAFF_PIN_VARIABLE}=\n")
    main(
        [
            "doctor",
            "--options-file",
            str(path),
            "--source",
            "none",
            "--journal",
            str(tmp_path / "journal.sqlite"),
            "--calibration",
            str(tmp_path / "calibration.json"),
            "--no-buttons",
            "--no-light",
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if line[6:].startswith(OPTIONS))
    assert lines[at].startswith(f"OK    {OPTIONS}")
    assert lines[at + 1].startswith(f"WARN  {STAFF_PIN}  ")
    assert "the staff PIN is empty" in lines[at + 1]
    assert lines[at + 2].startswith(f"      fix: set {STAFF_PIN_VARIABLE}=... to 4 to 12 digits")
