"""The camera check: is there a camera, and does it give a usable picture?

The camera is opened once, as `companion play` opens it (the same source, the same
camera profile beside the calibration, the same deadline), and a few frames are read;
black ones, which the game takes as a lost camera, are counted. The last one is what
the board and tag checks look at, so the whole doctor sees the table as the game would.
"""

from dataclasses import dataclass, field

import numpy as np

from companion.doctor.findings import CAMERA, Finding, Issue, Status, combine
from companion.doctor.host import library_missing
from companion.doctor.settings import CAMERA_MODULE, Settings
from companion.errors import (
    CalibrationFileError,
    CameraLostError,
    CameraUnavailableError,
    SettingError,
    SourceEndedError,
    UnknownSourceError,
    UnwritableFileError,
)
from companion.phrases import plural
from companion.sources.base import Frame
from companion.sources.guarded import GuardedSource, is_black
from companion.sources.picamera import CameraProfile, Picamera2Source
from companion.sources.registry import SOURCE_FORMS, open_source
from companion.vision.pipeline import to_gray
from companion.wording import count

MAX_FAILED_FRAMES = 2
"""Failed reads tolerated (with a warning) before the camera counts as failing."""
DIM_BELOW = 40.0
"""Mean brightness (0 to 255) under which the picture is too dark to read tags well."""
WASHED_OUT_ABOVE = 225.0
"""Mean brightness above which white paper and QR modules run together."""

_PICAMERA_LIBRARY = "picamera2"
_INSTALL_FIX = (
    "install python3-picamera2 with apt and create the virtual environment with "
    "--system-site-packages: run hardware/install again"
)
_NO_CAMERA_FIX = (
    "check the ribbon cable is seated the right way round at both ends and that "
    "`companion play` (or its service) is not running, since it holds the camera; "
    "`rpicam-hello --list-cameras` lists the cameras the Pi sees"
)
_LOST_FIX = (
    "check the camera cable is pushed in firmly at both ends and the power supply is "
    "the official one (a weak supply drops the camera)"
)


@dataclass(frozen=True)
class Capture:
    """What the camera gave: how many frames, the last one, and the held settings."""

    description: str
    """The source in a few words ("Raspberry Pi camera 0 (imx708), 4608x2592")."""
    wanted: int
    """Frames asked for."""
    delivered: int
    """Frames the camera delivered, black ones included."""
    black: int
    """Of those, frames that were black (the game counts these as a lost camera)."""
    failures: tuple[str, ...]
    """Why each failed read failed."""
    ended: bool
    """Whether a replay ran out of frames before `wanted`."""
    frame: Frame | None = field(compare=False)
    """The last frame delivered, for the board and tag checks."""
    camera_module: bool
    """Whether the source is a Camera Module, whose exposure and focus are held."""
    held: CameraProfile | None
    """The exposure and focus the camera module holds after the frames; None if it is
    still settling or is not a camera module."""
    profile_existed: bool
    """Whether the camera profile file was there before the doctor opened the camera."""
    unsaved: str = ""
    """Why the values the camera settled on could not be saved, if they could not."""

    @property
    def frame_size(self) -> tuple[int, int] | None:
        """Width and height of the frames, if one was delivered."""
        if self.frame is None:
            return None
        height, width = self.frame.shape[:2]
        return (int(width), int(height))

    @property
    def picture(self) -> Frame | None:
        """The last frame if it shows anything: the board and tag checks look at it."""
        return None if self.frame is None or is_black(self.frame) else self.frame

    @property
    def brightness(self) -> float | None:
        """Mean grey level (0 to 255) of the last frame, if there is one."""
        return None if self.frame is None else float(np.mean(to_gray(self.frame)))


def capture(settings: Settings, stall_seconds: float) -> Capture:
    """Open the source as `companion play` does and read `settings.frames` frames.

    Raises `CameraUnavailableError`, `UnknownSourceError` or `SettingError` when the
    source cannot be opened at all. A damaged camera profile does not stop the camera
    check: the camera is then opened without it (the focus check reports the file).
    """
    profile_file = settings.camera_profile
    existed = profile_file.exists()
    keep = profile_file if profile_file.parent.is_dir() else None
    try:
        inner = open_source(settings.source, keep)
    except CalibrationFileError:
        inner = open_source(settings.source, None)
    delivered = black = 0
    failures: list[str] = []
    ended = False
    unsaved = ""
    last: Frame | None = None
    with GuardedSource(inner, stall_seconds, refuse_black=False) as source:
        for _ in range(settings.frames):
            try:
                last = source.read()
            except SourceEndedError:
                ended = True
                break
            except UnwritableFileError as err:  # settled and held, but not saved
                unsaved = str(err)
            except CameraLostError as err:
                failures.append(str(err))
            else:
                delivered += 1
                black += is_black(last)
    return Capture(
        description=inner.description,
        wanted=settings.frames,
        delivered=delivered,
        black=black,
        failures=tuple(failures),
        ended=ended,
        frame=last,
        camera_module=isinstance(inner, Picamera2Source),
        held=inner.profile if isinstance(inner, Picamera2Source) else None,
        profile_existed=existed,
        unsaved=unsaved,
    )


def camera_check(settings: Settings, stall_seconds: float) -> tuple[Finding, Capture | None]:
    """The camera's finding, and what it captured for the later checks."""
    if not settings.has_camera:
        return Finding(
            Status.SKIP, CAMERA, "no camera: --source none (rounds entered by hand)"
        ), None
    try:
        taken = capture(settings, stall_seconds)
    except (UnknownSourceError, SettingError) as err:
        fix = f"write --source as one of {', '.join(SOURCE_FORMS)}"
        return Finding(Status.FAIL, CAMERA, str(err), fix), None
    except CameraUnavailableError as err:
        return Finding(Status.FAIL, CAMERA, str(err), _unavailable_fix(settings.source_kind)), None
    return judge_capture(taken), taken


def judge_capture(taken: Capture) -> Finding:
    """The camera's finding from what it delivered."""
    if taken.delivered == 0:
        reason = taken.failures[0] if taken.failures else "the replay holds no frames"
        return Finding(
            Status.FAIL,
            CAMERA,
            f"{taken.description}: no frame in {taken.wanted} tries ({reason})",
            _LOST_FIX,
        )
    size = taken.frame_size
    assert size is not None and taken.brightness is not None
    read = str(
        plural(
            "{read} of {n} frame read",
            "{read} of {n} frames read",
            taken.wanted,
            read=taken.delivered,
        )
    )
    if taken.ended:
        read = f"{count(taken.delivered, 'frame')} read, then the replay ended"
    dimensions = f"{size[0]}x{size[1]}"
    described = (
        taken.description
        if dimensions in taken.description
        else f"{taken.description}: {dimensions}"
    )
    detail = f"{described}, {read}, brightness {taken.brightness:.0f} of 255"
    issues: list[Issue] = []
    failed = len(taken.failures)
    if failed > MAX_FAILED_FRAMES:
        issues.append(
            Issue(Status.FAIL, f"{failed} reads failed (the first: {taken.failures[0]})", _LOST_FIX)
        )
    elif failed:
        issues.append(
            Issue(Status.WARN, f"{count(failed, 'read')} failed ({taken.failures[0]})", _LOST_FIX)
        )
    issues += _picture_issues(taken.black, taken.delivered, taken.brightness)
    return combine(CAMERA, detail, issues)


def _picture_issues(black: int, delivered: int, brightness: float) -> list[Issue]:
    """What is wrong with the picture itself: black (as the game judges it), or too
    dark or too bright to read tags well."""
    if black == delivered:
        return [
            Issue(
                Status.FAIL,
                "the picture is black, and the game treats a black camera as lost",
                "take the cap off the lens and light the table; if it stays black, the camera "
                "or its cable is failing",
            )
        ]
    resettle = (
        "then delete the saved camera settings (the .camera.json beside the calibration) "
        "so that exposure settles again"
    )
    issues = []
    if black:
        issues.append(
            Issue(Status.WARN, f"{count(black, 'frame')} of {delivered} came black", _LOST_FIX)
        )
    if brightness < DIM_BELOW:
        fix = f"take the cap off the lens and light the table; {resettle}"
        issues.append(Issue(Status.WARN, "the picture is nearly black", fix))
    elif brightness > WASHED_OUT_ABOVE:
        fix = f"turn the lights down or away from the board; {resettle}"
        issues.append(Issue(Status.WARN, "the picture is washed out", fix))
    return issues


def _unavailable_fix(scheme: str) -> str:
    """What to do about a source that cannot be opened, by kind of source."""
    if scheme == CAMERA_MODULE:
        if library_missing(_PICAMERA_LIBRARY):
            return _INSTALL_FIX
        return "no camera found: " + _NO_CAMERA_FIX
    if scheme == "camera":
        return "check the USB cable and the device number; `v4l2-ctl --list-devices` lists them"
    return "check the --source path: it must name the video file or the folder of images"
