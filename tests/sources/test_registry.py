"""Choosing a frame source from the text of `--source`."""

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.errors import CameraUnavailableError, SettingError, UnknownSourceError
from companion.sources import registry
from companion.sources.folder import FolderSource
from companion.sources.opencv import OpenCVSource
from companion.sources.registry import SOURCE_FORMS, check_source, open_source, parse_size


def test_a_folder_is_named_by_its_path(tmp_path: Path) -> None:
    assert cv2.imwrite(str(tmp_path / "1.png"), np.zeros((4, 4), np.uint8))
    with open_source(f"folder:{tmp_path}") as source:
        assert isinstance(source, FolderSource)
        assert source.folder == tmp_path
        assert source.read().shape == (4, 4, 3)


def test_a_video_is_named_by_its_path(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 5.0, (32, 24))
    writer.write(np.zeros((24, 32, 3), np.uint8))
    writer.release()
    with open_source(f"video:{path}") as source:
        assert isinstance(source, OpenCVSource)
        assert source.is_file
        assert source.read().shape == (24, 32, 3)


def test_a_camera_is_named_by_its_device_number() -> None:
    with pytest.raises(CameraUnavailableError, match="camera 99: cannot be opened"):
        open_source("camera:99")


class Opened:
    """Records what a source constructor was called with, in place of the real one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("picamera", (None,)),
        ("picamera:4608x2592", ((4608, 2592),)),
        ("PiCamera:1536X864", ((1536, 864),)),
    ],
)
def test_the_camera_module_is_named_with_an_optional_size(
    monkeypatch: pytest.MonkeyPatch, spec: str, expected: tuple[Any, ...]
) -> None:
    monkeypatch.setattr(registry, "Picamera2Source", Opened)
    source = open_source(spec)
    assert isinstance(source, Opened)
    assert source.args == expected


@pytest.mark.parametrize(
    ("spec", "expected"),
    [("camera:0", (0, None)), ("camera:2:1280x720", (2, (1280, 720)))],
)
def test_a_camera_may_be_given_a_size(
    monkeypatch: pytest.MonkeyPatch, spec: str, expected: tuple[Any, ...]
) -> None:
    monkeypatch.setattr(registry, "OpenCVSource", Opened)
    source = open_source(spec)
    assert isinstance(source, Opened)
    assert source.args == expected


def test_the_camera_module_without_picamera2_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraUnavailableError, match="python3-picamera2"):
        open_source("picamera")


def test_an_unknown_kind_lists_the_known_forms() -> None:
    with pytest.raises(UnknownSourceError) as raised:
        open_source("webcam:0")
    message = str(raised.value)
    assert message.startswith("--source webcam:0: use one of ")
    assert all(form in message for form in SOURCE_FORMS)
    assert isinstance(raised.value, ValueError)


def test_every_kind_is_listed_for_help() -> None:
    assert SOURCE_FORMS == (
        "picamera[:WIDTHxHEIGHT]",
        "camera:INDEX[:WIDTHxHEIGHT]",
        "video:PATH",
        "folder:PATH",
    )


@pytest.mark.parametrize(
    ("spec", "fault"),
    [
        ("picamera:1920", "'1920' is not a frame size: write WIDTHxHEIGHT"),
        ("picamera:0x1080", "'0x1080' is not a frame size"),
        ("picamera:axb", "'axb' is not a frame size"),
        ("picamera:1920x1080x3", "is not a frame size"),
        ("camera:0:big", "'big' is not a frame size"),
        ("camera:", "the camera is a device number"),
        ("camera:front", "camera:front: the camera is a device number"),
        ("camera:-1", "the camera is a device number"),
        ("video:", "name the video file"),
        ("folder:", "name the folder of images"),
    ],
)
def test_a_bad_argument_is_a_setting_error(spec: str, fault: str) -> None:
    with pytest.raises(SettingError, match=fault):
        open_source(spec)


def test_an_odd_size_for_the_camera_module_is_a_setting_error() -> None:
    with pytest.raises(SettingError, match="must be positive and even"):
        open_source("picamera:1921x1080")


def test_sizes_are_read_as_width_by_height() -> None:
    assert parse_size("640x480") == (640, 480)
    assert parse_size(" 4608X2592 ") == (4608, 2592)


@pytest.mark.parametrize(
    ("spec", "fault"),
    [
        ("picamra", "--source picamra: use one of picamera[:WIDTHxHEIGHT], "),
        ("camera:x", "camera:x: the camera is a device number, such as camera:0"),
        ("picamera:big", "'big' is not a frame size: write WIDTHxHEIGHT"),
        ("video", "video: name the video file, such as video:table.mp4"),
        ("folder:", "folder: name the folder of images, such as folder:frames/"),
        ("", "--source : use one of picamera"),
        ("none:x", "--source none:x: use one of picamera"),
    ],
)
def test_a_wrong_source_is_refused_before_anything_is_opened(spec: str, fault: str) -> None:
    with pytest.raises(ValueError) as refused:
        check_source(spec)
    assert str(refused.value).startswith(fault)


@pytest.mark.parametrize(
    "spec", ["none", "NONE", " none", "picamera", "picamera:1280x720", "camera:0", "video:a"]
)
def test_a_right_source_passes_the_check_without_being_opened(spec: str) -> None:
    check_source(spec)
