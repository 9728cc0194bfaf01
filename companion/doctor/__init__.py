"""`companion doctor`: check a table in one command, each finding with its fix.

The checks run in the order a café owner would look: the camera and its picture,
exposure and focus, the calibration against the board as it lies now, the tags, the
buttons, the status light and strip, the journal and the disk, and last the installed
software against the lock it was installed from. Each is isolated:
whatever one of them meets, it becomes that check's FAIL and the others still run,
because a doctor that stops at the first broken part hides the second.
"""

from collections.abc import Callable, Iterator
from typing import TypeVar

from companion.doctor.board import calibration_check
from companion.doctor.buttons import buttons_check
from companion.doctor.camera import camera_check
from companion.doctor.exposure import exposure_check
from companion.doctor.findings import (
    BUTTONS,
    CALIBRATION,
    CAMERA,
    DISK,
    EXPOSURE,
    JOURNAL,
    LIGHT,
    OPTIONS,
    SOFTWARE,
    STRIP,
    TAGS,
    Finding,
    Status,
    exit_status,
    finding_lines,
    report,
    summary,
    unexpected,
)
from companion.doctor.lights import light_check, strip_check
from companion.doctor.settings import Probes, Settings
from companion.doctor.storage import disk_check, journal_check
from companion.doctor.tags import tags_check
from companion.doctor.versions import software_check

__all__ = [
    "Finding",
    "Probes",
    "Settings",
    "Status",
    "examine",
    "exit_status",
    "finding_lines",
    "report",
    "summary",
]

T = TypeVar("T")


def examine(settings: Settings, probes: Probes) -> Iterator[Finding]:
    """Run every check in order, handing out each finding as soon as it is known (the
    button and light checks talk to the person in between)."""
    options = probes.table_options
    yield _alone(OPTIONS, options) if options else Finding(Status.SKIP, OPTIONS, "not asked")
    camera, capture = _paired(CAMERA, lambda: camera_check(settings, probes.stall_seconds))
    yield camera
    yield _alone(EXPOSURE, lambda: exposure_check(settings, capture))
    board, sight = _paired(CALIBRATION, lambda: calibration_check(settings, capture))
    yield board
    yield _alone(TAGS, lambda: tags_check(sight))
    yield _alone(BUTTONS, lambda: buttons_check(settings, probes))
    yield _alone(LIGHT, lambda: light_check(settings, probes))
    yield _alone(STRIP, lambda: strip_check(settings, probes))
    journal, stats = _paired(JOURNAL, lambda: journal_check(settings.journal))
    yield journal
    yield _alone(DISK, lambda: disk_check(settings.journal, stats))
    yield _alone(SOFTWARE, lambda: software_check(settings.lock))


def _alone(check: str, work: Callable[[], Finding]) -> Finding:
    """The check's finding, or its FAIL if it stopped on any error."""
    try:
        return work()
    except Exception as err:  # a doctor reports every failure and goes on to the next check
        return unexpected(check, err)


def _paired(check: str, work: Callable[[], tuple[Finding, T | None]]) -> tuple[Finding, T | None]:
    """The check's finding and what it hands to later checks; None for those if it
    stopped on any error."""
    try:
        return work()
    except Exception as err:  # as in _alone
        return unexpected(check, err), None
