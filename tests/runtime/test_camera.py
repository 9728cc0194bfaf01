"""What the camera panel says when there is no picture: starting, unavailable, lost, or
at the end of a replay; each in words, with the way the game goes on."""

from collections.abc import Callable

from companion.errors import CameraUnavailableError, SourceEndedError
from companion.runtime.camera import FAILURES_IN_A_ROW, Camera, Ended, Failed, Lost
from companion.sources.base import Frame, FrameSource
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import Stabiliser
from tests.vision.scenes import calibration, layout


class Broken(FrameSource):
    """A source whose every read fails with `error`."""

    description = "broken source"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def read(self) -> Frame:
        raise self.error

    def close(self) -> None:
        pass


def camera(open_source: Callable[[], FrameSource]) -> Camera:
    board = layout()
    reader = TableReader(calibration(), board, make_decoder())
    return Camera(open_source, TableWatcher(reader, Stabiliser()), board)


def unavailable() -> FrameSource:
    raise CameraUnavailableError("no camera at /dev/video9")


def test_a_camera_not_yet_opened_says_it_is_starting() -> None:
    view = camera(unavailable).view(0.0)
    assert str(view.status) == "camera starting"
    assert view.working and view.image is None


def test_a_camera_that_cannot_be_opened_says_why_and_that_play_goes_on_by_hand() -> None:
    watched = camera(unavailable)
    assert watched.look(0.0) == Lost(False)
    status = watched.state.status
    assert isinstance(status, Failed) and status.problem is not None
    assert str(status.problem) == "camera not available: no camera at /dev/video9"
    view = watched.view(0.0)
    assert str(view.status) == (
        "camera not available: no camera at /dev/video9 (trying again); "
        "the game goes on by hand: press Fix"
    )
    assert not view.working


def test_a_camera_failing_frame_after_frame_is_lost_in_the_libraries_own_words() -> None:
    watched = camera(lambda: Broken(OSError("device unplugged")))
    sights = [watched.look(0.0) for _ in range(FAILURES_IN_A_ROW)]
    assert sights[-1] == Lost(False) and sights[:-1] == [None] * (FAILURES_IN_A_ROW - 1)
    status = watched.state.status
    assert isinstance(status, Failed) and str(status.problem) == "camera lost: device unplugged"


def test_a_replay_at_its_end_says_there_are_no_more_frames() -> None:
    watched = camera(lambda: Broken(SourceEndedError("folder frames/: no more frames")))
    assert watched.look(0.0) == Lost(False)
    status = watched.state.status
    assert isinstance(status, Ended) and str(status.problem) == "the replay has no more frames"
    assert str(watched.view(0.0).status) == (
        "the replay has no more frames (no more frames); the game goes on by hand: press Fix"
    )
