"""`companion play`: starting, stopping as a service is stopped, resuming, bad options."""

from pathlib import Path

import pygame
import pytest

from companion.cli import build_parser, main
from companion.cli.play import play_table
from companion.display.theme import BACKGROUND
from companion.journal import Journal
from companion.language import Language
from companion.rules import Game, Reveal, find_ruleset
from companion.runtime.build import JOURNAL_OPEN_SECONDS, journal_check_seconds
from companion.runtime.camera import Failed
from companion.runtime.config import TableConfig
from companion.runtime.config_error import draw_config_error
from companion.service_options import EX_CONFIG
from companion.session.states import Phase
from companion.statedir import STATE_DIR_VARIABLE
from companion.vision.calibration import save_calibration
from tests.service_ready import SERVICE_TEST_SECONDS, run_as_service
from tests.vision.scenes import calibration

pytestmark = pytest.mark.timeout(SERVICE_TEST_SECONDS)

NO_PARTS = ["--source", "none", "--display", "headless", "--no-buttons", "--no-light"]
"""A table with no camera, no screen to see, no buttons and no light."""
PLAYERS = ["--players", "Ann=red", "Ben=blue", "Cleo=green"]

ROUND_1 = Reveal({1: "Ann", 2: "Ben", 3: "Cleo", 4: "Ben", 5: "Cleo"}, {"Ben": (1,), "Cleo": (1,)})


def test_play_runs_until_stopped_and_exits_cleanly(tmp_path: Path) -> None:
    journal = tmp_path / "state" / "journal.sqlite"
    status, errors = run_as_service(
        [*NO_PARTS, *PLAYERS, "--journal", str(journal)],
        tmp_path / "notify",
    )
    assert status == 0, errors
    assert journal.exists()


def test_play_resumes_the_journals_unfinished_game(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    game = Game.start(find_ruleset("odyssey"), ("Ann", "Ben", "Cleo"), "Ann")
    with Journal(path) as journal:
        game_id = journal.start_game(game, {"Ann": "red", "Ben": "blue", "Cleo": "green"})
        journal.commit_round(game_id, game.play(ROUND_1))
    args = build_parser().parse_args(
        ["play", "--source", "none", "--display", "headless", "--journal", str(path)]
    )
    with play_table(TableConfig.from_args(args)) as table:
        loop = table.loop
        assert loop.session.state.game_id == game_id
        assert loop.session.state.game.round_number == 2
        assert loop.session.state.lineup.colours == ("red", "blue", "green")


def test_play_without_players_sets_up_the_game_at_the_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    args = build_parser().parse_args(
        ["play", *NO_PARTS, "--language", "fr", "--journal", str(path)]
    )
    with play_table(TableConfig.from_args(args)) as table:
        loop = table.loop
        state = loop.session.state
        assert state.phase is Phase.LANGUAGE
        assert state.language is Language.FRENCH


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "Ann=red", "Bob=red"], "red appears more than once in the lineup"),
        (["--players", "Ann=mauve", "Bob"], "'mauve' is not a kit colour"),
        (["--players", "3", "--option", "target=lots"], "must be a whole number or null"),
        (["--players", "3", "--buttons", "17,27"], "give 3 BCM pin numbers"),
        (["--language", "de"], "the table does not speak 'de'"),
    ],
)
def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    base = ["play", "--display", "headless", "--journal", str(tmp_path / "j.sqlite")]
    base += [] if "--source" in arguments else ["--source", "none"]
    assert main([*base, *arguments]) == 2
    error = capsys.readouterr().err
    assert error.startswith("companion play: ") and message in error
    assert error.count("\n") == 1


def test_the_time_to_open_a_journal_grows_with_its_size(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    assert journal_check_seconds(journal) == JOURNAL_OPEN_SECONDS
    with open(journal, "wb") as file:
        file.truncate(2_000_000_000)
    assert journal_check_seconds(journal) == JOURNAL_OPEN_SECONDS + 200


def stored_game(path: Path) -> int:
    game = Game.start(find_ruleset("odyssey"), ("Ann", "Ben", "Cleo"), "Ann")
    with Journal(path) as journal:
        game_id = journal.start_game(game, {"Ann": "red", "Ben": "blue", "Cleo": "green"})
        journal.commit_round(game_id, game.play(ROUND_1))
    return game_id


@pytest.mark.parametrize(
    ("options", "resumed"),
    [
        (["--players", "Ann=red", "Ben=blue", "Cleo=green"], True),
        (["--players", "Ann=red", "Ben=blue", "Cleo=green", "--ruleset", "odyssey"], True),
        (["--players", "Ann=red", "Ben=green", "Cleo=blue"], False),
        (["--players", "4"], False),
        (["--players", "Ann=red", "Ben=blue", "Cleo=green", "--ruleset", "classic"], False),
        (["--players", "Ann=red", "Ben=blue", "Cleo=green", "--option", "target=20"], False),
    ],
)
def test_the_same_options_resume_and_changed_players_or_rules_start_a_new_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], resumed: bool
) -> None:
    path = tmp_path / "journal.sqlite"
    game_id = stored_game(path)
    args = build_parser().parse_args(
        ["play", "--source", "none", "--display", "headless", "--journal", str(path), *options]
    )
    with play_table(TableConfig.from_args(args)) as table:
        loop = table.loop
        assert (loop.session.state.game_id == game_id) is resumed
        assert (loop.session.state.game.round_number == 2) is resumed
    said = capsys.readouterr().err
    assert ("starting a new game" in said) is not resumed


def test_a_damaged_camera_profile_is_shown_and_retried_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STATE_DIR_VARIABLE, str(tmp_path))
    save_calibration(calibration(), tmp_path / "calibration.json")
    (tmp_path / "calibration.camera.json").write_text("{ not json")
    args = build_parser().parse_args(
        ["play", "--source", "picamera", "--display", "headless", "--players", "4"]
    )
    with play_table(TableConfig.from_args(args)) as table:
        loop = table.loop
        assert loop.camera is not None
        status = loop.camera.state.status
        assert isinstance(status, Failed)
        assert str(status.problem).startswith("camera not available: ")
        assert "calibration.camera.json" in str(status.problem)


@pytest.mark.parametrize("name", ["An\nn=red", "An\tn", "\u200b", " =red", "Re\u0301mi"])
def test_a_bad_or_doubled_name_is_refused_before_the_journal_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    journal = tmp_path / "j.sqlite"
    base = ["play", "--display", "headless", "--journal", str(journal), "--source", "none"]
    assert main([*base, "--no-buttons", "--no-light", "--players", name, "Rémi", "Cleo"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("companion play: ") and error.count("\n") == 1
    assert not journal.exists()


@pytest.mark.timeout(SERVICE_TEST_SECONDS)
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--source", "picamra"], "--source picamra: use one of"),
        (["--source", "camera:x"], "camera:x"),
        (["--ruleset", ""], "ruleset"),
        (["--buttons", "99,27,22"], "99 is not a GPIO number"),
        (["--buttons=-1,27,22"], "-1 is not a GPIO number"),
        (["--buttons", "17,17,22"], "both on GPIO17"),
        (["--light", "5,5,13"], "both on GPIO5"),
        (["--light", "17,6,13"], "both on GPIO17"),
        (["--buttons", "10,27,22", "--strip", "ws2812:30"], "GPIO10"),
        (["--strip", "ws2812:lots"], "LED strip"),
        (["--auto-confirm", "-1"], "auto"),
        (["--new-game", "--language", "klingon"], "the table does not speak 'klingon'"),
    ],
)
def test_a_bad_option_is_refused_before_anything_is_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    journal = tmp_path / "j.sqlite"
    base = ["play", "--display", "headless", "--journal", str(journal)]
    base += [] if "--source" in arguments else ["--source", "none"]
    base += [] if "--new-game" in arguments else ["--players", "3"]
    assert main([*base, *arguments]) == 2
    error = capsys.readouterr().err
    assert error.startswith("companion play: ") and message in error, error
    assert error.count("\n") == 1
    assert not journal.exists()


def test_under_the_service_a_wrong_option_is_shown_until_the_service_is_stopped(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    status, errors = run_as_service(
        [*NO_PARTS, "--ruleset", "odysey", "--players", "3", "--journal", str(journal)],
        tmp_path / "notify",
    )
    assert status == EX_CONFIG
    assert errors.startswith("companion play: ") and "odysey" in errors
    assert errors.count("\n") == 1
    assert not journal.exists()


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)])
def test_the_config_error_screen_fits_both_screens(tmp_path: Path, size: tuple[int, int]) -> None:
    pygame.init()
    surface = pygame.Surface(size)
    message = "'odysey' is not a ruleset; choose classic, odyssey, party or teams"
    draw_config_error(surface, message)
    out = tmp_path / f"config-error-{size[0]}x{size[1]}.png"
    pygame.image.save(surface, str(out))
    assert out.stat().st_size > 0
    assert surface.get_at((size[0] // 2, size[1] - 2))[:3] == BACKGROUND


def test_a_damaged_journal_is_said_in_the_log_as_well_as_on_the_screen(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    game = Game.start(find_ruleset("odyssey"), ("Ann", "Ben", "Cleo"), "Ann")
    with Journal(journal) as kept:
        game_id = kept.start_game(game, {"Ann": "red", "Ben": "blue", "Cleo": "green"})
        kept.commit_round(game_id, game.play(ROUND_1), frame=b"f" * 200_000)
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) // 2])
    status, errors = run_as_service(
        [*NO_PARTS, *PLAYERS, "--journal", str(journal)],
        tmp_path / "notify",
    )
    assert status == 0, errors
    said = [line for line in errors.splitlines() if "could not be opened" in line]
    assert len(said) == 1 and said[0].startswith(
        "companion play: The journal journal.sqlite could not be opened; it is kept as "
    ), errors


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (["--strip", "ws2812:10"], "a strip of 10 LEDs cannot show 31 track spaces"),
        (["--strip", "mock:" + "9" * 5000], "LED strip (--strip): a number of 5000 digits"),
        (["--buttons", "\u0661\u0667,27,22"], "give 3 BCM pin numbers"),
        (["--light", "5,6," + "1" * 5000], "--light 5,6,1111"),
    ],
    ids=["strip too short for the track", "endless strip", "arabic-indic pin", "endless pin"],
)
def test_a_strip_or_pin_play_cannot_use_is_refused_before_anything_is_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], named: str
) -> None:
    journal = tmp_path / "journal.sqlite"
    headless = ["--source", "none", "--display", "headless"]  # buttons and light asked for
    status = main(["play", *headless, *PLAYERS, "--journal", str(journal), *arguments])
    error = capsys.readouterr().err
    assert status == 2
    assert error.startswith("companion play: ") and named in error and error.count("\n") == 1
    assert len(error) < 200, "a line a person can read"
    assert not journal.exists()
