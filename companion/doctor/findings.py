"""What a check found, and the report a café owner reads: one line per check.

A check ends in one `Finding`: a mark, what was checked, what was found (with the
figures, so that two runs can be compared) and, for a warning or a failure, what to
do about it in plain words. The report is composed here and nowhere else, so every
check reads alike and the exit status follows from the marks alone.
"""

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import SettingError
from companion.wording import count

TITLE = "companion doctor — table check"
"""The report's first line."""

OPTIONS = "play options"
CAMERA = "camera"
EXPOSURE = "focus/exposure"
CALIBRATION = "calibration"
TAGS = "tags"
BUTTONS = "buttons"
LIGHT = "status light"
STRIP = "LED strip"
JOURNAL = "journal"
DISK = "disk space"
SOFTWARE = "software"
CHECKS = (
    OPTIONS,
    CAMERA,
    EXPOSURE,
    CALIBRATION,
    TAGS,
    BUTTONS,
    LIGHT,
    STRIP,
    JOURNAL,
    DISK,
    SOFTWARE,
)
"""Every check's name, in the order the report gives them."""

_MARK_WIDTH = 6
_CHECK_WIDTH = max(len(name) for name in CHECKS) + 2
_FIX_INDENT = " " * _MARK_WIDTH

EXIT_FINE = 0
"""Exit status when nothing failed (warnings allowed)."""
EXIT_FAILED = 1
"""Exit status when any check failed."""


class Status(enum.Enum):
    """How a check came out, worst last."""

    OK = "OK"
    """Nothing to do."""
    SKIP = "SKIP"
    """Not checked: switched off, or what it needs failed in an earlier check."""
    WARN = "WARN"
    """Works, but something should be put right when there is time."""
    FAIL = "FAIL"
    """Will not work (or not well enough to play) until it is put right."""

    @property
    def rank(self) -> int:
        """Order of severity, for picking the worst of several."""
        return list(Status).index(self)


@dataclass(frozen=True)
class Finding:
    """One check's outcome: one line of the report, and a fix line for a problem."""

    status: Status
    """OK, SKIP, WARN or FAIL."""
    check: str
    """What was checked (one of `CHECKS`)."""
    detail: str
    """What was found, with its figures."""
    fix: str = ""
    """What to do about it, in plain words; required for WARN and FAIL."""

    def __post_init__(self) -> None:
        if self.status in (Status.WARN, Status.FAIL) and not self.fix:
            raise SettingError(f"{self.check}: a {self.status.value} needs a fix to tell")


@dataclass(frozen=True)
class Issue:
    """One thing wrong among several a check may find; `combine` makes the finding."""

    status: Status
    """How bad it is: WARN or FAIL."""
    detail: str
    """What is wrong, with its figures."""
    fix: str
    """What to do about it."""


def combine(check: str, detail: str, issues: Sequence[Issue]) -> Finding:
    """One finding for a check that found `issues` (none: OK): the worst decides the
    mark, every issue is told, and each distinct fix is given once, worst first."""
    if not issues:
        return Finding(Status.OK, check, detail)
    ordered = sorted(issues, key=lambda issue: -issue.status.rank)
    told = "; ".join(issue.detail for issue in ordered)
    fixes = list(dict.fromkeys(issue.fix for issue in ordered))
    return Finding(
        ordered[0].status, check, f"{detail}; {told}" if detail else told, "; ".join(fixes)
    )


def unexpected(check: str, error: BaseException) -> Finding:
    """The finding for a check that stopped on an error it did not expect."""
    reason = str(error) or type(error).__name__
    return Finding(
        Status.FAIL,
        check,
        f"the check stopped: {reason}",
        "run `companion doctor` again; if this line comes back, send it to whoever "
        "looks after the companion",
    )


def finding_lines(finding: Finding) -> str:
    """The report's line for one finding, and its indented fix line if it has one."""
    head = f"{finding.status.value:<{_MARK_WIDTH}}{finding.check:<{_CHECK_WIDTH}}{finding.detail}"
    return f"{head}\n{_FIX_INDENT}fix: {finding.fix}" if finding.fix else head


def summary(findings: Sequence[Finding]) -> str:
    """The report's last line: how many problems and warnings."""
    failed = sum(f.status is Status.FAIL for f in findings)
    warned = sum(f.status is Status.WARN for f in findings)
    skipped = sum(f.status is Status.SKIP for f in findings)
    line = f"{count(failed, 'problem')}, {count(warned, 'warning')}"
    return f"{line} ({count(skipped, 'check')} skipped)" if skipped else line


def report(findings: Sequence[Finding]) -> str:
    """The whole report: title, one line (and fix) per finding, summary."""
    return "\n".join([TITLE, *(finding_lines(f) for f in findings), summary(findings)])


def exit_status(findings: Sequence[Finding]) -> int:
    """1 if any check failed, else 0 (warnings and skipped checks allowed)."""
    return EXIT_FAILED if any(f.status is Status.FAIL for f in findings) else EXIT_FINE
