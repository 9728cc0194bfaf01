"""Every command against hostile arguments and files: one line on stderr at most.

Hypothesis drives each command's parser and inputs with random text, random paths
(good files, missing ones, folders, random bytes, damaged JSON and images) and random
numbers (huge, negative, non-ASCII digits). Whatever it draws, a run ends with exit
status 0 or 2 (1 where a command documents it: the doctor's failed check), prints at
most one line on stderr and no traceback, and changes no file it only reads.

`play` and `demo` run a loop, so only their parsing and option checks are driven; the
doctor is given no camera, buttons or light. Arguments hold no NUL, which no real
command line can carry. Deterministic (derandomized) and bounded.
"""

import argparse
import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import build_parser, main
from companion.errors import CompanionError
from companion.runtime.config import TableConfig
from companion.vision.calibration import save_calibration
from tests.vision.scenes import LAYOUT_NAME, calibration, empty_frame

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "classic-1e-4-players.json"

HOSTILE = settings(
    derandomize=True,
    deadline=None,
    # capsys is read out after every example, and the scratch folder rewritten.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files commands read: good ones and damaged ones, hashed around each run."""
    folder = tmp_path_factory.mktemp("inputs")
    shutil.copy(GAME, folder / "game.json")
    text = GAME.read_text()
    (folder / "cut.json").write_text(text[: len(text) // 2])
    (folder / "bom.json").write_bytes(b"\xef\xbb\xbf" + GAME.read_bytes())
    (folder / "empty").write_bytes(b"")
    (folder / "latin1.json").write_bytes('{"ruleset": "caf\xe9"}'.encode("latin-1"))
    (folder / "folder").mkdir()
    save_calibration(calibration(), folder / "cal.json")
    (folder / "cal-cut.json").write_text((folder / "cal.json").read_text()[:50])
    shutil.copy(LAYOUT_NAME, folder / "layout.json")
    small = cv2.resize(empty_frame().image, (576, 324))
    cv2.imwrite(str(folder / "frame.png"), small)
    (folder / "frame-cut.png").write_bytes((folder / "frame.png").read_bytes()[:300])
    (folder / "journal.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x01" * 200)
    return folder


@pytest.fixture
def scratch(inputs: Path) -> Iterator[Path]:
    """A folder for the files a command may write."""
    folder = inputs.parent / "scratch"
    folder.mkdir(exist_ok=True)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }


ARG_CHARS = st.characters(
    blacklist_characters="\x00", blacklist_categories=("Cs",)
) | st.sampled_from(["\udcff", "\udc80", "\n", "\x1b", "\u2028", "-"])
"""Any character a command line may hold, lone surrogates as Python decodes bad bytes."""
TEXT = st.text(ARG_CHARS, max_size=12)
NUMBER = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(
        ["0", "-1", "1", "3", "12", "١٢", "٣", "²", "1e999", "nan", "-inf", "1" * 4401, "1" * 5000]
    ),
    TEXT,
)
"""Numbers as typed: huge, negative, non-ASCII digits, not numbers at all."""
INPUT_NAMES = [
    "game.json",
    "cut.json",
    "bom.json",
    "empty",
    "latin1.json",
    "folder",
    "missing.json",
    "cal.json",
    "cal-cut.json",
    "layout.json",
    "frame.png",
    "frame-cut.png",
    "journal.sqlite",
    "random",
]


def path(inputs: Path) -> st.SearchStrategy[str]:
    """A path argument: an input file, damaged or not, or any text at all."""
    return st.one_of(st.sampled_from(INPUT_NAMES).map(lambda n: str(inputs / n)), TEXT)


def out_path(scratch: Path) -> st.SearchStrategy[str]:
    """Where a command may write: in the scratch folder, or any text as a name there."""
    return st.one_of(
        st.just(str(scratch / "out")), TEXT.map(lambda t: str(scratch / t.replace("/", "_")))
    )


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = 0 if exit_.code is None else int(exit_.code)
    out, err = capsys.readouterr()
    return status, out, err


def assert_well_behaved(
    status: int, err: str, allowed: tuple[int, ...] = (0, 2), lines: int = 1
) -> None:
    """`lines`: a batch command (score, read) may say one line for each input."""
    assert status in allowed, err
    assert err.count("\n") <= lines and (err == "" or err.endswith("\n")), err
    assert "Traceback" not in err


def hostile_run(
    argv: list[str],
    inputs: Path,
    random_bytes: bytes,
    capsys: pytest.CaptureFixture[str],
    allowed: tuple[int, ...] = (0, 2),
    lines: int = 1,
) -> None:
    (inputs / "random").write_bytes(random_bytes)
    before = snapshot(inputs)
    status, _, err = run(argv, capsys)
    assert_well_behaved(status, err, allowed, lines)
    assert snapshot(inputs) == before, "a command changed a file it only reads"


def options(**choices: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """Each option given or not (even odds), with a drawn value: a required option is
    there often enough that runs get past the parser."""
    each = [
        st.one_of(st.just([]), value.map(lambda v, name=name: [name, v]))
        for name, value in choices.items()
    ]
    return st.tuples(*each).map(lambda given: [part for pair in given for part in pair])


@settings(HOSTILE, max_examples=120)
@given(data=st.data(), random_bytes=st.binary(max_size=64))
def test_score_is_well_behaved(
    inputs: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject, random_bytes: bytes
) -> None:
    files = data.draw(st.lists(path(inputs), min_size=0, max_size=3))
    hostile_run(["score", *files], inputs, random_bytes, capsys, lines=max(1, len(files)))


@settings(HOSTILE, max_examples=80)
@given(data=st.data(), random_bytes=st.binary(max_size=64))
def test_layout_is_well_behaved(
    inputs: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject, random_bytes: bytes
) -> None:
    argv = data.draw(
        st.one_of(
            st.just(["layout", "list"]),
            st.tuples(st.just("layout"), st.just("show"), path(inputs)).map(list),
            st.lists(TEXT, max_size=3).map(lambda rest: ["layout", *rest]),
        )
    )
    hostile_run(argv, inputs, random_bytes, capsys)


@settings(HOSTILE, max_examples=40)
@given(data=st.data(), random_bytes=st.binary(max_size=64))
def test_read_is_well_behaved(
    inputs: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject, random_bytes: bytes
) -> None:
    images = data.draw(st.lists(path(inputs), max_size=2))
    extra = data.draw(
        options(**{"--calibration": path(inputs), "--decoder": TEXT | st.just("opencv")})
    )
    hostile_run(["read", *images, *extra], inputs, random_bytes, capsys, lines=max(1, len(images)))


@settings(HOSTILE, max_examples=30)
@given(data=st.data(), random_bytes=st.binary(max_size=64))
def test_calibrate_from_a_file_is_well_behaved(
    inputs: Path,
    scratch: Path,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
    random_bytes: bytes,
) -> None:
    image = data.draw(path(inputs).filter(lambda p: not p.startswith("-")))
    extra = data.draw(
        options(
            **{
                "--layout": path(inputs) | st.just("classic-8"),
                "--out": out_path(scratch),
                "--decoder": TEXT,
            }
        )
    )
    hostile_run(["calibrate", image, *extra], inputs, random_bytes, capsys)


@settings(HOSTILE, max_examples=30)
@given(data=st.data(), random_bytes=st.binary(max_size=64))
def test_tags_is_well_behaved(
    inputs: Path,
    scratch: Path,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
    random_bytes: bytes,
) -> None:
    extra = data.draw(
        options(
            **{
                "--kit": TEXT | st.just("CAFE1"),
                "--players": NUMBER,
                "--out": out_path(scratch),
                "--layout": path(inputs) | st.just("classic-8"),
                "--token-mm": NUMBER,
            }
        )
    )
    hostile_run(["tags", *extra], inputs, random_bytes, capsys)


@settings(HOSTILE, max_examples=60)
@given(data=st.data(), random_bytes=st.binary(max_size=64))
def test_history_is_well_behaved(
    inputs: Path,
    scratch: Path,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
    random_bytes: bytes,
) -> None:
    game = data.draw(st.lists(NUMBER, max_size=1))
    extra = data.draw(
        options(
            **{
                "--journal": path(inputs),
                "--export": out_path(scratch),
                "--frame": NUMBER,
                "--overlay": NUMBER,
                "--out": out_path(scratch),
            }
        )
    )
    if "--journal" not in extra:  # never the state folder's journal
        extra += ["--journal", str(inputs / "missing.sqlite")]
    hostile_run(["history", *game, *extra], inputs, random_bytes, capsys)


@settings(HOSTILE, max_examples=25)
@given(data=st.data(), random_bytes=st.binary(max_size=64))
def test_doctor_without_camera_or_pins_is_well_behaved(
    inputs: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject, random_bytes: bytes
) -> None:
    extra = data.draw(
        options(
            **{
                "--calibration": path(inputs),
                "--journal": path(inputs),
                "--decoder": TEXT,
                "--frames": NUMBER,
            }
        )
    )
    # Never the state folder's files: these go first, and argparse keeps the last.
    argv = ["doctor", "--calibration", str(inputs / "missing.json")]
    argv += ["--journal", str(inputs / "missing.sqlite"), *extra]
    argv += ["--source", "none", "--no-buttons", "--no-light"]
    hostile_run(argv, inputs, random_bytes, capsys, allowed=(0, 1, 2))


def parse_only(argv: list[str], capsys: pytest.CaptureFixture[str]) -> argparse.Namespace | None:
    """The parsed arguments, or None where the parser refused them as it should."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        assert_well_behaved(0 if exit_.code is None else int(exit_.code), capsys.readouterr().err)
        return None
    return args


@settings(HOSTILE, max_examples=80)
@given(data=st.data())
def test_play_options_are_checked_in_one_line(
    inputs: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject
) -> None:
    journal = inputs / "no-journal.sqlite"
    extra = data.draw(
        options(
            **{
                "--ruleset": TEXT | st.sampled_from(["classic", "odyssey", "teams"]),
                "--option": TEXT | st.sampled_from(["target=", "deck=1", "target=-3"]) | NUMBER,
                "--auto-confirm": NUMBER,
                "--display": TEXT,
                "--decoder": TEXT,
                "--source": TEXT | st.sampled_from(["none", "NONE", " none", "camera:\u0661"]),
            }
        )
    )
    players = data.draw(st.lists(TEXT | NUMBER, max_size=4))
    args = parse_only(["play", *extra, *(["--players", *players] if players else [])], capsys)
    if args is None:
        return
    try:  # the check `play` runs before it opens anything, as it runs it
        TableConfig.from_args(args)
    except CompanionError as err:
        assert "\n" not in str(err)
    assert not journal.exists()


@settings(HOSTILE, max_examples=60)
@given(argv=st.lists(TEXT | NUMBER, max_size=5))
def test_demo_and_any_command_line_parse_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    parse_only(["demo", *argv], capsys)
    parse_only(argv, capsys)
