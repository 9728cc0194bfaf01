"""Choosing a frame source from one line of text, such as the `--source` option.

Every kind of source the command line can name is one entry of `SOURCE_KINDS`: its
scheme, the form a user writes, and the function that opens it. Adding a kind means
adding an entry; help texts and error messages list the forms from the same table.
The simulated table is not here: the demo builds it directly.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.errors import SettingError, UnknownSourceError
from companion.numbers import in_digits, too_long
from companion.sources.base import FrameSource
from companion.sources.folder import FolderSource
from companion.sources.opencv import OpenCVSource
from companion.sources.picamera import Picamera2Source

_SIZE = re.compile(r"([0-9]{1,5})[xX]([0-9]{1,5})")
_SHOWN_CHARS = 40
"""The most of a refused argument a message quotes: enough to recognise it."""


@dataclass(frozen=True)
class SourceKind:
    """One kind of frame source that a line of text can name."""

    scheme: str
    """The word before the first colon: "picamera", "camera", "video", "folder"."""
    form: str
    """How a user writes it, for help and error messages."""
    open: Callable[[str, Path | None], FrameSource]
    """Opens the source from the text after the first colon ("" if there is none) and
    the camera profile file (used by cameras whose exposure is held)."""


def parse_size(text: str) -> tuple[int, int]:
    """A frame size written WIDTHxHEIGHT; `SettingError` if it is not one."""
    match = _SIZE.fullmatch(text.strip())
    if match is None or int(match[1]) == 0 or int(match[2]) == 0:
        raise SettingError(f"{text!r} is not a frame size: write WIDTHxHEIGHT, such as 4608x2592")
    return int(match[1]), int(match[2])


def _open_picamera(argument: str, profile_file: Path | None) -> FrameSource:
    return Picamera2Source(parse_size(argument) if argument else None, profile_file=profile_file)


def _camera_argument(argument: str) -> tuple[int, tuple[int, int] | None]:
    """The device number and frame size of "camera:INDEX[:WIDTHxHEIGHT]"."""
    index, _, size = argument.partition(":")
    index = index.strip()
    if not in_digits(index) or too_long(index) is not None:  # not U+0661, nor 4,401 digits
        shown = argument if len(argument) <= _SHOWN_CHARS else f"{argument[:_SHOWN_CHARS]}..."
        raise SettingError(
            f"camera:{shown}: the camera is a device number, such as camera:0 for /dev/video0"
        )
    return int(index), parse_size(size) if size else None


def _open_camera(argument: str, _profile: Path | None) -> FrameSource:
    return OpenCVSource(*_camera_argument(argument))


_NAMED = {
    "video": "video: name the video file, such as video:table.mp4",
    "folder": "folder: name the folder of images, such as folder:frames/",
}
"""What the kinds that name a file say when the name is missing."""


def _named(scheme: str, argument: str) -> str:
    if not argument:
        raise SettingError(_NAMED[scheme])
    return argument


def _open_video(argument: str, _profile: Path | None) -> FrameSource:
    return OpenCVSource(_named("video", argument))


def _open_folder(argument: str, _profile: Path | None) -> FrameSource:
    return FolderSource(_named("folder", argument))


SOURCE_KINDS: tuple[SourceKind, ...] = (
    SourceKind("picamera", "picamera[:WIDTHxHEIGHT]", _open_picamera),
    SourceKind("camera", "camera:INDEX[:WIDTHxHEIGHT]", _open_camera),
    SourceKind("video", "video:PATH", _open_video),
    SourceKind("folder", "folder:PATH", _open_folder),
)
"""Every kind of source `open_source` knows, in the order help lists them."""

SOURCE_FORMS: tuple[str, ...] = tuple(kind.form for kind in SOURCE_KINDS)
"""How each kind is written, for help texts."""


def scheme_of(spec: str) -> str:
    """The kind a `--source` text names, by its word before the first colon: "picamera"."""
    return spec.partition(":")[0].strip().lower()


NO_SOURCE = "none"
"""The `--source` that means no camera: the game is entered by hand. Compared with
`scheme_of(spec)`, so that every spelling `check_source` lets through ("NONE",
" none") means no camera wherever it is read."""


def check_source(spec: str) -> None:
    """Refuse a `--source` text that names no known kind, or names one wrongly
    ("camera:x"), before anything is opened; `NO_SOURCE` is allowed."""
    if scheme_of(spec) == NO_SOURCE and not spec.partition(":")[2]:
        return
    kind = _kind_of(spec)
    argument = spec.partition(":")[2]
    if kind.scheme == "picamera" and argument:
        parse_size(argument)
    elif kind.scheme == "camera":
        _camera_argument(argument)
    elif kind.scheme in _NAMED:
        _named(kind.scheme, argument)


def _kind_of(spec: str) -> SourceKind:
    kind = next((k for k in SOURCE_KINDS if k.scheme == scheme_of(spec)), None)
    if kind is None:
        shown = spec if spec.isprintable() else repr(spec)  # one line, whatever was given
        raise UnknownSourceError(
            f"--source {shown}: use one of {', '.join(SOURCE_FORMS)}, or {NO_SOURCE}"
        )
    return kind


def open_source(spec: str, profile_file: Path | None = None) -> FrameSource:
    """Open the source that `spec` names; `UnknownSourceError` lists the forms known.

    `profile_file` keeps the exposure, white balance and focus a camera module is held
    at (read if it exists, written once the camera has settled)."""
    return _kind_of(spec).open(spec.partition(":")[2], profile_file)
