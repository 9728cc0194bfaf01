"""Loading image files: what a camera or a phone really writes is read, what is cut
short, damaged, endless or not a file is refused in one line, and a missing standard
error does not crash the reader."""

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UnreadableImageError
from companion.vision import images
from companion.vision.images import MAX_IMAGE_BYTES, image_gray, load_gray

PICTURE = (np.random.default_rng(7).random((120, 160)) * 255).astype(np.uint8)


def encoded(suffix: str) -> bytes:
    ok, data = cv2.imencode(suffix, PICTURE)
    assert ok
    return data.tobytes()


def png_chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


@pytest.mark.parametrize("profile", [b"xx", bytes(range(256)) * 3])
def test_a_png_with_a_harmless_libpng_warning_is_read(profile: bytes) -> None:
    png = encoded(".png")
    after_header = 8 + 25  # signature, then IHDR
    iccp = png_chunk(b"iCCP", b"ICC\0\0" + zlib.compress(profile))
    gray = image_gray(png[:after_header] + iccp + png[after_header:])
    assert np.array_equal(gray, PICTURE)


@pytest.mark.parametrize("trailer", [b"\0" * 100, b"MPF trailer of a phone \xff\xd8\xff\xe1", b"x"])
def test_a_jpeg_with_data_after_its_end_is_read(trailer: bytes) -> None:
    jpeg = encoded(".jpg")
    assert np.array_equal(image_gray(jpeg + trailer), image_gray(jpeg))


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9, 0.999])
def test_a_jpeg_cut_short_is_refused_even_with_a_trailer_like_tail(keep: float) -> None:
    jpeg = encoded(".jpg")
    with pytest.raises(UnreadableImageError, match="cut short"):
        image_gray(jpeg[: int(len(jpeg) * keep)])


def test_a_jpeg_whose_only_end_marker_is_in_its_thumbnail_is_refused() -> None:
    jpeg = encoded(".jpg")
    thumbnail = b"Exif\0\0" + encoded(".jpg")[:200] + b"\xff\xd9"
    app1 = b"\xff\xe1" + struct.pack(">H", len(thumbnail) + 2) + thumbnail
    whole = jpeg[:2] + app1 + jpeg[2:]
    assert np.array_equal(image_gray(whole), image_gray(jpeg))
    with pytest.raises(UnreadableImageError, match="cut short"):
        image_gray(whole[: len(whole) // 2])


def test_a_device_that_never_ends_is_refused(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnreadableImageError, match=r"^/dev/zero: not a file"):
        load_gray(Path("/dev/zero"))


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "frame.jpg"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableImageError, match=f"^{fifo}: not a file"):
        load_gray(fifo)


def test_a_file_larger_than_any_photo_is_refused_unread(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jpg"
    with huge.open("wb") as file:
        file.write(encoded(".jpg"))
        file.truncate(MAX_IMAGE_BYTES + 1)  # sparse: nothing is written to disk
    with pytest.raises(UnreadableImageError, match=f"^{huge}: larger than"):
        load_gray(huge)


def test_an_image_is_read_with_sys_stderr_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", None)
    assert np.array_equal(image_gray(encoded(".png")), PICTURE)


def test_a_damaged_image_is_refused_with_file_descriptor_2_closed(tmp_path: Path) -> None:
    whole = encoded(".jpg")
    damaged = bytearray(whole)
    middle = len(damaged) // 2
    damaged[middle : middle + 64] = b"\xff" * 64
    (tmp_path / "whole.jpg").write_bytes(whole)
    (tmp_path / "damaged.jpg").write_bytes(bytes(damaged))
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from companion.errors import UnreadableImageError\n"
        "from companion.vision.images import load_gray\n"
        "print(load_gray(Path('whole.jpg')).shape)\n"
        "try:\n"
        "    load_gray(Path('damaged.jpg'))\n"
        "except UnreadableImageError as err:\n"
        "    print(err)\n"
        "os.write(1, str(os.path.exists('/proc/self/fd/2')).encode())\n"
    )
    run = subprocess.run(
        ["sh", "-c", 'exec "$0" -c "$1" 2>&-', sys.executable, script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(images.__file__).parents[2])},
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == (
        "(120, 160)\ndamaged.jpg: the image is damaged "
        "(Corrupt JPEG data: premature end of data segment)\nFalse"
    )
