"""Replaying a folder of images: order, end, loop, and what a bad folder or file does."""

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import CameraLostError, CameraUnavailableError, SourceEndedError
from companion.sources.base import FrameSource
from companion.sources.folder import FolderSource, natural_key


def write_image(path: Path, level: int) -> None:
    """A small grey image whose every pixel is `level`, so a test can tell frames apart."""
    assert cv2.imwrite(str(path), np.full((6, 8), level, np.uint8))


def levels(source: FrameSource, count: int) -> list[int]:
    return [int(source.read()[0, 0, 0]) for _ in range(count)]


def test_images_are_replayed_in_natural_name_order(tmp_path: Path) -> None:
    write_image(tmp_path / "frame-10.png", 100)
    write_image(tmp_path / "frame-2.bmp", 20)
    write_image(tmp_path / "Frame-1.TIFF", 10)
    write_image(tmp_path / "frame-9.PNG", 90)
    with FolderSource(tmp_path) as source:
        assert levels(source, 4) == [10, 20, 90, 100]


def test_frames_are_colour_images_in_bgr(tmp_path: Path) -> None:
    image = np.zeros((6, 8, 3), np.uint8)
    image[:, :, 2] = 200
    assert cv2.imwrite(str(tmp_path / "red.png"), image)
    write_image(tmp_path / "grey.png", 50)
    with FolderSource(tmp_path) as source:
        grey, red = source.read(), source.read()
    assert grey.shape == (6, 8, 3) and grey.dtype == np.uint8
    assert red[0, 0].tolist() == [0, 0, 200]


def test_other_files_and_hidden_files_are_left_out(tmp_path: Path) -> None:
    write_image(tmp_path / "a.png", 10)
    write_image(tmp_path / "._a.png", 99)
    (tmp_path / "notes.txt").write_text("not an image")
    (tmp_path / "sub.png").mkdir()
    source = FolderSource(tmp_path)
    assert [path.name for path in source.files] == ["a.png"]
    assert source.description == f"folder {tmp_path}, one image"


def test_the_replay_ends_after_the_last_image(tmp_path: Path) -> None:
    write_image(tmp_path / "1.png", 10)
    write_image(tmp_path / "2.png", 20)
    source = FolderSource(tmp_path)
    assert levels(source, 2) == [10, 20]
    with pytest.raises(
        SourceEndedError, match=re.escape(f"{tmp_path}: no images left after two images")
    ):
        source.read()
    with pytest.raises(EOFError):
        source.read()


def test_a_looping_replay_starts_again(tmp_path: Path) -> None:
    write_image(tmp_path / "1.png", 10)
    write_image(tmp_path / "2.png", 20)
    with FolderSource(tmp_path, loop=True) as source:
        assert levels(source, 5) == [10, 20, 10, 20, 10]


def test_an_empty_folder_cannot_be_opened(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("no images here")
    with pytest.raises(
        CameraUnavailableError, match=re.escape(f"{tmp_path}: no images in the folder")
    ):
        FolderSource(tmp_path)


def test_a_missing_folder_cannot_be_opened(tmp_path: Path) -> None:
    with pytest.raises(
        CameraUnavailableError, match=re.escape(f"{tmp_path / 'gone'}: no such folder")
    ):
        FolderSource(tmp_path / "gone")


def test_a_file_in_place_of_the_folder_cannot_be_opened(tmp_path: Path) -> None:
    write_image(tmp_path / "one.png", 10)
    with pytest.raises(CameraUnavailableError, match=r"one\.png: not a folder"):
        FolderSource(tmp_path / "one.png")


def test_an_unreadable_image_fails_one_frame_and_the_replay_goes_on(tmp_path: Path) -> None:
    write_image(tmp_path / "1.png", 10)
    (tmp_path / "2.png").write_bytes(b"not a png at all")
    write_image(tmp_path / "3.png", 30)
    source = FolderSource(tmp_path)
    assert levels(source, 1) == [10]
    with pytest.raises(
        CameraLostError, match=re.escape(f"{tmp_path / '2.png'}: not an image that can be read")
    ):
        source.read()
    assert levels(source, 1) == [30]


def test_reading_after_close_is_refused(tmp_path: Path) -> None:
    write_image(tmp_path / "1.png", 10)
    source = FolderSource(tmp_path)
    source.close()
    source.close()
    with pytest.raises(CameraLostError, match="closed"):
        source.read()


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["frame-10", "frame-2", "frame-1"], ["frame-1", "frame-2", "frame-10"]),
        (["b", "A", "a"], ["A", "a", "b"]),
        (["x2y10", "x2y9", "x10y1"], ["x2y9", "x2y10", "x10y1"]),
        (["10", "9", "a"], ["9", "10", "a"]),
    ],
)
def test_natural_order_compares_numbers_by_value(names: list[str], expected: list[str]) -> None:
    assert sorted(names, key=natural_key) == expected
