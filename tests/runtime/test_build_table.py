"""`build_table`: the one way a table is built from its configuration and a source of
frames, for `play` and the demo alike; the journal recovered there and only there."""

from pathlib import Path

import numpy as np
import pytest

from companion.display.screen import DisplayMode
from companion.errors import CompanionError, SourceEndedError
from companion.journal import Journal
from companion.rules import Game, Reveal, find_ruleset
from companion.runtime.build import Blind, Sight, build_table, camera_source
from companion.runtime.camera import Failed, Watching
from companion.runtime.config import CameraConfig, GameConfig, TableConfig, Wiring
from companion.session.lineup import Lineup
from companion.session.states import Phase
from companion.sim import Scene
from companion.sources.base import FrameSource
from companion.sources.simulated import SimulatedTable
from tests.vision.scenes import KIT, MILD, POSE, calibration, layout

LINEUP = Lineup(("Ann", "Ben", "Cleo"), ("red", "blue", "green"))
ROUND_1 = Reveal({1: "Ann", 2: "Ben", 3: "Cleo", 4: "Ben", 5: "Cleo"}, {"Ben": (1,), "Cleo": (1,)})


def config(journal: Path, game: GameConfig | None = None) -> TableConfig:
    """A table with no camera, no wired parts, no phone page, drawn off screen."""
    return TableConfig(
        camera=CameraConfig("none"),
        journal=journal,
        wiring=Wiring(None, None),
        game=game or GameConfig(),
        display=DisplayMode.HEADLESS,
        web=None,
    )


def stored_game(path: Path) -> int:
    game = Game.start(find_ruleset("odyssey"), LINEUP.names, "Ann")
    with Journal(path) as journal:
        game_id = journal.start_game(game, LINEUP.colour_by_player)
        journal.commit_round(game_id, game.play(ROUND_1), frame=b"f" * 200_000)
    return game_id


def test_a_table_is_built_open_and_closed_whole(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    said: list[str] = []
    with build_table(config(path), Blind(), say=said.append) as table:
        assert table.session.state.phase is Phase.LANGUAGE  # set up at the table
        assert table.camera is None and table.loop.camera_note == ""
        assert table.session.settings.slots == tuple(range(1, 13))
        assert table.resumed is None and table.journal.path == path
        table.loop.step()
    assert said == []
    with Journal(path):  # the table let its journal go
        pass
    table.close()  # twice is safe


def test_the_unfinished_game_is_resumed_unless_the_options_ask_for_another(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    game_id = stored_game(path)
    with build_table(config(path), Blind()) as table:
        assert table.resumed == game_id and table.session.state.game.round_number == 2
    said: list[str] = []
    other = GameConfig(ruleset=find_ruleset("classic"), ruleset_asked=True, lineup=LINEUP)
    with build_table(config(path, other), Blind(), say=said.append) as table:
        assert table.resumed is None and table.session.state.phase is Phase.SETUP
    assert said == [
        f"the players or ruleset given differ from game {game_id}'s, which is left "
        "unfinished; starting a new game"
    ]


def test_a_damaged_journal_is_recovered_said_once_and_shown_on_the_screen(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    stored_game(path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    said: list[str] = []
    with build_table(config(path), Blind(), say=said.append) as table:
        (line,) = said
        assert line.startswith("The journal journal.sqlite could not be opened")
        assert table.session.state.message is not None
        assert str(table.session.state.message.text) == line


def test_a_camera_over_the_table_is_read_and_one_that_will_not_open_is_tried_again(
    tmp_path: Path,
) -> None:
    board = layout()
    simulated = SimulatedTable(Scene(board, KIT), POSE, MILD, np.random.default_rng(3))
    sight = Sight(lambda: simulated, calibration(), board)
    game = GameConfig(lineup=LINEUP)
    with build_table(config(tmp_path / "j.sqlite", game), sight) as table:
        assert table.camera is not None and isinstance(table.camera.state.status, Watching)
        assert table.session.settings.slots == tuple(s.slot for s in board.slots)

    def gone() -> FrameSource:
        raise SourceEndedError("the camera is not there")

    with build_table(config(tmp_path / "k.sqlite", game), Sight(gone, calibration(), board)) as t:
        assert t.camera is not None and isinstance(t.camera.state.status, Failed)


def test_without_a_calibration_the_camera_is_left_out_saying_why(tmp_path: Path) -> None:
    said: list[str] = []
    camera = CameraConfig("picamera", tmp_path / "calibration.json")
    source = camera_source(camera, said.append)
    assert isinstance(source, Blind) and str(source.note) == said[0]
    assert "companion calibrate" in said[0] and "calibration.json" in said[0]
    assert camera_source(CameraConfig(" NONE"), said.append) == Blind()


def test_a_journal_in_use_stops_the_build_and_leaves_nothing_open(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path), pytest.raises(CompanionError, match="in use"):
        build_table(config(path), Blind())
    with build_table(config(path), Blind()):
        pass
