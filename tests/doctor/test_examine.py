"""Running the checks: all of them, in order, each isolated from the others' failures."""

from pathlib import Path

import pytest

import companion.doctor
from companion.doctor import Probes, Status, examine
from companion.doctor.findings import CHECKS, Finding
from companion.errors import CameraLostError
from tests.doctor.tables import board_image, folder_of, grey_image, settings


def quiet() -> Probes:
    return Probes(say=lambda _: None, pause=lambda _: None)


def test_every_check_runs_once_in_the_order_a_cafe_owner_looks(tmp_path: Path) -> None:
    table = settings(tmp_path, folder_of(tmp_path / "frames", board_image()))
    findings = list(examine(table, quiet()))
    assert [f.check for f in findings] == list(CHECKS)
    assert [f.status for f in findings] == [
        Status.SKIP,  # play options: not asked
        Status.OK,  # camera
        Status.OK,  # focus/exposure: does not apply to a folder
        Status.OK,  # calibration
        Status.OK,  # tags
        Status.SKIP,  # buttons left out
        Status.SKIP,  # light left out
        Status.OK,  # no strip
        Status.OK,  # no journal yet
        Status.OK,  # disk
        Status.SKIP,  # software: not installed from a lock
    ]


def test_a_check_that_breaks_is_its_own_failure_and_the_others_still_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_: Path) -> tuple[Finding, None]:
        raise OSError("disk I/O error")

    monkeypatch.setattr(companion.doctor, "journal_check", broken)
    table = settings(tmp_path, folder_of(tmp_path / "frames", board_image()))
    findings = {f.check: f for f in examine(table, quiet())}
    assert findings["journal"].status is Status.FAIL
    assert findings["journal"].detail == "the check stopped: disk I/O error"
    assert findings["disk space"].status is Status.OK
    assert "(a guess: the journal could not be measured)" in findings["disk space"].detail
    assert findings["calibration"].status is Status.OK


def test_a_camera_check_that_breaks_leaves_the_checks_after_it_without_a_picture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> tuple[Finding, None]:
        raise CameraLostError("camera 0: the driver crashed")

    monkeypatch.setattr(companion.doctor, "camera_check", broken)
    table = settings(tmp_path, folder_of(tmp_path / "frames", board_image()))
    statuses = {f.check: f.status for f in examine(table, quiet())}
    assert statuses["camera"] is Status.FAIL
    assert statuses["focus/exposure"] is Status.SKIP
    assert statuses["calibration"] is Status.SKIP
    assert statuses["tags"] is Status.SKIP
    assert statuses["journal"] is Status.OK


def test_a_black_picture_fails_once_not_again_in_every_check_that_looks_at_it(
    tmp_path: Path,
) -> None:
    table = settings(tmp_path, folder_of(tmp_path / "black", grey_image(0)))
    statuses = [f.status for f in examine(table, quiet())]
    assert statuses.count(Status.FAIL) == 1


def test_findings_come_one_at_a_time_as_each_check_ends(tmp_path: Path) -> None:
    table = settings(tmp_path, folder_of(tmp_path / "frames", board_image()))
    findings = examine(table, quiet())
    assert next(findings).check == "play options"
    assert next(findings).check == "camera"
    findings.close()
