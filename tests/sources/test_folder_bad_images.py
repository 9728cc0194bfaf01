"""A folder replay with damaged images among good ones: each bad file fails its own
frame with `CameraLostError` naming it (as a camera hiccup would), never the replay."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from companion.errors import CameraLostError
from companion.sources.folder import FolderSource
from tests.mutations import damaged_images, encoded, png_claiming

GOOD = np.full((18, 32, 3), 90, np.uint8)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay")
    for name in ("frame-1.png", "frame-3.png"):
        (path / name).write_bytes(encoded(GOOD, ".png"))
    return path


def assert_bad_frame_fails_alone(folder: Path, data: bytes) -> None:
    (folder / "frame-2.jpg").write_bytes(data)
    with FolderSource(folder) as source:
        assert np.array_equal(source.read(), GOOD)
        try:
            frame = source.read()
        except CameraLostError as err:
            assert str(err).startswith(f"{folder / 'frame-2.jpg'}: ")
            assert "\n" not in str(err)
        else:
            assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.size > 0
        assert np.array_equal(source.read(), GOOD)


@settings(max_examples=100, deadline=None)
@given(damaged_images(GOOD))
def test_a_damaged_image_fails_its_frame_and_the_replay_goes_on(folder: Path, data: bytes) -> None:
    assert_bad_frame_fails_alone(folder, data)


def test_regression_an_image_claiming_billions_of_pixels_is_a_lost_frame(folder: Path) -> None:
    (folder / "frame-2.jpg").write_bytes(png_claiming(100_000, 100_000))
    with FolderSource(folder) as source:
        source.read()
        with pytest.raises(CameraLostError, match=r"frame-2\.jpg: not an image that can be read"):
            source.read()
        assert np.array_equal(source.read(), GOOD)
