"""The report: one line per check, fixes indented under problems, a summary, an exit status."""

import pytest

from companion.doctor.findings import (
    CAMERA,
    DISK,
    JOURNAL,
    TITLE,
    Finding,
    Issue,
    Status,
    combine,
    exit_status,
    finding_lines,
    report,
    unexpected,
)
from companion.errors import SettingError


def test_a_report_is_the_title_one_line_per_check_with_fixes_indented_and_a_summary() -> None:
    findings = [
        Finding(Status.OK, CAMERA, "Camera Module 3 (imx708), 4608x2592, 10 of 10 frames read"),
        Finding(Status.FAIL, JOURNAL, "the journal is damaged", "companion play saves it"),
        Finding(Status.WARN, DISK, "space is running low", "make room"),
    ]
    assert report(findings).splitlines() == [
        TITLE,
        "OK    camera          Camera Module 3 (imx708), 4608x2592, 10 of 10 frames read",
        "FAIL  journal         the journal is damaged",
        "      fix: companion play saves it",
        "WARN  disk space      space is running low",
        "      fix: make room",
        "one problem, one warning",
    ]


def test_the_summary_counts_skipped_checks_apart() -> None:
    findings = [Finding(Status.SKIP, CAMERA, "no camera"), Finding(Status.OK, DISK, "plenty")]
    assert report(findings).splitlines()[-1] == "no problems, no warnings (one check skipped)"


def test_only_a_failure_makes_the_exit_status_one() -> None:
    fine = [Finding(Status.OK, CAMERA, "x"), Finding(Status.WARN, DISK, "low", "make room")]
    assert exit_status(fine) == 0
    assert exit_status([*fine, Finding(Status.FAIL, JOURNAL, "damaged", "recover")]) == 1
    assert exit_status([Finding(Status.SKIP, CAMERA, "off")]) == 0


@pytest.mark.parametrize("status", [Status.WARN, Status.FAIL])
def test_a_problem_without_a_fix_is_refused(status: Status) -> None:
    with pytest.raises(SettingError):
        Finding(status, CAMERA, "something is wrong")


def test_combined_issues_take_the_worst_mark_and_give_each_fix_once_worst_first() -> None:
    finding = combine(
        CAMERA,
        "camera 0",
        [
            Issue(Status.WARN, "one read failed", "check the cable"),
            Issue(Status.FAIL, "the picture is black", "take the cap off"),
            Issue(Status.WARN, "another read failed", "check the cable"),
        ],
    )
    assert finding.status is Status.FAIL
    assert finding.detail == "camera 0; the picture is black; one read failed; another read failed"
    assert finding.fix == "take the cap off; check the cable"


def test_no_issues_is_ok_with_the_detail_alone() -> None:
    assert combine(CAMERA, "camera 0", []) == Finding(Status.OK, CAMERA, "camera 0")


def test_an_unexpected_error_is_that_checks_failure_with_what_to_do() -> None:
    finding = unexpected(DISK, OSError("input/output error"))
    assert finding.status is Status.FAIL
    assert finding.detail == "the check stopped: input/output error"
    assert "companion doctor" in finding.fix
    assert finding_lines(finding).splitlines()[1].startswith("      fix: ")
