"""The focus/exposure check: does the Camera Module hold still, and are its values saved?

The game tells a settled table from moving hands by comparing frames; a camera that
keeps re-deciding its exposure, white balance or focus makes a still table flicker.
A Camera Module is therefore held at the values it settled on, and those are saved
beside the calibration so that the next start holds them from its first frame. Other
sources (a USB camera, a folder of images) hold nothing, and the check says so.
"""

from companion.doctor.camera import Capture
from companion.doctor.findings import EXPOSURE, Finding, Status
from companion.doctor.settings import CAMERA_MODULE, Settings
from companion.errors import CalibrationFileError
from companion.sources.picamera import CameraProfile, load_profile
from companion.wording import count


def exposure_check(settings: Settings, taken: Capture | None) -> Finding:
    """Whether a camera module holds its exposure, white balance and focus, and whether
    the values saved beside the calibration can be read."""
    module = taken.camera_module if taken is not None else settings.source_kind == CAMERA_MODULE
    saved = _saved_profile(settings) if module else None
    if saved is not None:
        return saved
    if taken is None:
        return Finding(Status.SKIP, EXPOSURE, "not checked: no frames from the camera")
    if not taken.camera_module:
        return Finding(
            Status.OK,
            EXPOSURE,
            f"does not apply to {taken.description}: only a Camera Module's exposure and "
            "focus are held",
        )
    name = settings.camera_profile.name
    if taken.held is None:
        return Finding(
            Status.WARN,
            EXPOSURE,
            f"still settling after {count(taken.wanted, 'frame')}: exposure and focus are "
            "not held yet",
            "let the camera run a few seconds with the board lit, then "
            f"{settings.calibrate_command(None)} saves them beside the calibration",
        )
    held = f"held: {describe_profile(taken.held)}"
    if taken.unsaved:
        return Finding(
            Status.WARN,
            EXPOSURE,
            f"{held}; not saved: {taken.unsaved}",
            f"run the doctor as the user the companion runs as, who can write in "
            f"{settings.camera_profile.parent}",
        )
    if not settings.camera_profile.exists():
        where = f"not saved yet ({name} is saved beside the calibration once there is one)"
    elif taken.profile_existed:
        where = f"as saved beside the calibration ({name})"
    else:
        where = f"saved just now beside the calibration ({name})"
    return Finding(Status.OK, EXPOSURE, f"{held}; {where}")


def _saved_profile(settings: Settings) -> Finding | None:
    """FAIL for a camera profile file that cannot be read; None when it is fine or absent."""
    path = settings.camera_profile
    if not path.exists():
        return None
    try:
        load_profile(path)
    except CalibrationFileError as err:
        return Finding(
            Status.FAIL,
            EXPOSURE,
            f"the saved camera settings are damaged: {err}",
            f"delete {path}; it is made again when the camera next settles",
        )
    return None


def describe_profile(profile: CameraProfile) -> str:
    """The held values in a café owner's units: milliseconds, gains, focus distance."""
    red, blue = profile.colour_gains
    parts = [
        f"exposure {profile.exposure_us / 1000:.1f} ms",
        f"gain {profile.analogue_gain:.1f}",
        f"colour gains {red:.2f}/{blue:.2f}",
    ]
    lens = profile.lens_position
    if lens is None:
        parts.append("fixed-focus lens")
    elif lens == 0:
        parts.append("lens 0.0 dioptres (focused at infinity)")
    else:
        parts.append(f"lens {lens:.1f} dioptres (focused at {100 / lens:.0f} cm)")
    return ", ".join(parts)
