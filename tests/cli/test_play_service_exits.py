"""How `companion play` ends under its service: a wrong option (from argparse or from
the options' own check) is shown on the screen and ends with EX_CONFIG, which the unit
does not restart; every other failure keeps exit status 2, which systemd restarts."""

import argparse
import socket
from pathlib import Path

import pygame
import pytest

from companion.actions import Action, Press
from companion.cli import build_parser, main, play
from companion.cli.each import EXIT_BAD_INPUT
from companion.journal.lock import WriterLock
from companion.language import Language
from companion.runtime import config_error
from companion.runtime.build import Blind, camera_source
from companion.runtime.config import TableConfig
from companion.runtime.service import NOTIFY_SOCKET, WATCHDOG_USEC
from companion.service_options import EX_CONFIG
from tests.service_ready import SERVICE_TEST_SECONDS, run_as_service

pytestmark = pytest.mark.timeout(SERVICE_TEST_SECONDS)


def test_the_config_exit_status_is_sysexits_ex_config_not_the_bad_input_status() -> None:
    assert EX_CONFIG == 78
    assert EX_CONFIG != EXIT_BAD_INPUT


def test_a_journal_in_use_under_the_service_exits_2_so_systemd_starts_it_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = tmp_path / "journal.sqlite"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(tmp_path / "notify"))
        monkeypatch.setenv(NOTIFY_SOCKET, str(tmp_path / "notify"))
        monkeypatch.delenv(WATCHDOG_USEC, raising=False)
        with WriterLock(journal):  # a `companion play` by hand still running
            status = main(
                [
                    *("play", "--display", "headless", "--source", "none", "--players", "3"),
                    *("--journal", str(journal), "--no-buttons", "--no-light"),
                ]
            )
    assert status == EXIT_BAD_INPUT
    error = capsys.readouterr().err
    assert "is in use by" in error and error.count("\n") == 1


@pytest.mark.timeout(SERVICE_TEST_SECONDS)
@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (["--plyers", "5"], "--plyers"),
        (["--decoder", "foo"], "foo"),
        (["--auto-confirm", "x"], "'x'"),
        (["--players", "3", "--ruleset", "odysey"], "odysey"),
    ],
    ids=["unknown option", "bad choice", "bad number", "checked option"],
)
def test_under_the_service_any_wrong_option_is_shown_and_ends_with_ex_config(
    tmp_path: Path, arguments: list[str], named: str
) -> None:
    journal = tmp_path / "journal.sqlite"
    status, errors = run_as_service(
        ["--display", "headless", "--source", "none", "--journal", str(journal), *arguments],
        tmp_path / "notify",
    )
    assert status == EX_CONFIG, errors
    assert errors.startswith("companion") and named in errors  # "companion: unrecognized"
    assert errors.count("\n") == 1
    assert not journal.exists()


def test_by_hand_a_wrong_option_is_still_exit_2_without_a_screen(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(NOTIFY_SOCKET, raising=False)
    with pytest.raises(SystemExit) as stop:
        main(["play", "--display", "headless", "--plyers", "5"])
    assert stop.value.code == EXIT_BAD_INPUT
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "environ", "service"),
    [
        (["play", "--display", "fullscreen", "--plyers", "5"], {}, True),
        (["play", "--display=fullscreen", "--plyers", "5"], {}, True),
        (["play", "--display", "window", "--plyers", "5"], {}, False),
        (["play", "--plyers", "5"], {NOTIFY_SOCKET: "/run/systemd/notify"}, True),
        (["play", "--plyers", "5"], {}, False),
    ],
)
def test_a_parse_error_is_under_the_service_when_systemd_or_the_full_screen_runs_it(
    argv: list[str], environ: dict[str, str], service: bool
) -> None:
    assert play.under_service(play.display_asked(argv), environ) is service


@pytest.mark.parametrize("spec", ["none", "NONE", " none", "None "])
def test_no_camera_in_any_spelling_the_check_accepts_means_no_camera(
    tmp_path: Path, spec: str
) -> None:
    args: argparse.Namespace = build_parser().parse_args(
        ["play", "--source", spec, "--calibration", str(tmp_path / "missing.json")]
    )
    assert camera_source(TableConfig.from_args(args).camera, play.say) == Blind()


@pytest.mark.timeout(SERVICE_TEST_SECONDS)  # a number taken wrongly starts a game that runs on
@pytest.mark.parametrize(
    ("players", "fault"),
    [
        ("²", "--players"),
        ("١٢", "--players"),
        ("1" * 4401, "4401 digits is far too long"),
    ],
    ids=["superscript", "arabic-indic", "4401 digits"],
)
def test_a_number_of_players_not_in_plain_digits_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], players: str, fault: str
) -> None:
    journal = tmp_path / "j.sqlite"
    argv = ["play", "--display", "headless", "--source", "none", "--journal", str(journal)]
    assert main([*argv, "--players", players]) == EXIT_BAD_INPUT
    error = capsys.readouterr().err
    assert error.startswith("companion play: ") and fault in error, error
    assert error.count("\n") == 1 and len(error) < 300
    assert not journal.exists()


@pytest.mark.timeout(SERVICE_TEST_SECONDS)  # a value taken wrongly starts a game that runs on
@pytest.mark.parametrize(
    ("value", "fault"),
    [("\u0661\u0662", "must be a whole number or null"), ("1" * 4401, "4401 digits")],
    ids=["arabic-indic", "4401 digits"],
)
def test_a_rule_option_not_in_plain_digits_is_refused_in_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, fault: str
) -> None:
    journal = tmp_path / "j.sqlite"
    argv = ["play", "--display", "headless", "--source", "none", "--journal", str(journal)]
    assert main([*argv, "--players", "3", "--option", f"target={value}"]) == EXIT_BAD_INPUT
    error = capsys.readouterr().err
    assert error.startswith("companion play: --option") and fault in error, error
    assert error.count("\n") == 1 and len(error) < 300


def test_a_mistake_the_screen_could_not_show_is_tried_again_not_ex_config(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At boot the display may not be ready: the unit must start the table again, so
    that the next start shows the mistake, instead of leaving the screen dark."""

    def no_display(*_: object, **__: object) -> None:
        raise pygame.error("no available video device")

    monkeypatch.setattr(config_error, "Screen", no_display)
    status = play.refused_under_service("'odysey' is not a ruleset", "fullscreen")
    assert status == EXIT_BAD_INPUT != EX_CONFIG
    assert (
        "the screen cannot show this either: no available video device" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("argv", "language"),
    [
        (["play", "--language", "fr", "--plyers", "5"], Language.FRENCH),
        (["play", "--language=fr", "--ruleset", "odysey"], Language.FRENCH),
        (["play", "--language", "en", "--language", "fr"], Language.FRENCH),
        (["play", "--language", "de", "--plyers", "5"], None),
        (["play", "--plyers", "5"], None),
        (["play", "--language"], None),
    ],
)
def test_the_language_of_a_refused_command_line_is_read_from_its_words(
    argv: list[str], language: Language | None
) -> None:
    assert play.language_asked(argv) is language


@pytest.mark.parametrize(
    ("arguments", "title"),
    [
        (["--language", "fr", "--plyers", "5"], "La table ne peut pas démarrer"),
        (["--language", "fr", "--players", "3", "--ruleset", "odysey"], "La table ne peut pas"),
        (["--language", "xx", "--players", "3"], "The table cannot start"),
        (["--plyers", "5"], "The table cannot start"),
    ],
    ids=["parse error", "checked option", "the language at fault", "no language"],
)
def test_the_error_screen_speaks_the_table_s_language_when_its_options_name_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: list[str], title: str
) -> None:
    drawn: list[str] = []
    real_fit = config_error.fonts.fit
    monkeypatch.setattr(
        config_error.fonts,
        "fit",
        lambda text, *rest, **named: drawn.append(text) or real_fit(text, *rest, **named),
    )
    monkeypatch.setattr(config_error, "WAIT_SECONDS", 0.01)
    stop = {"count": 0}

    def quit_soon(self: object) -> list[Press]:
        stop["count"] += 1
        return [Press(Action.QUIT)]

    monkeypatch.setattr(config_error.Screen, "presses", quit_soon)
    monkeypatch.setenv(NOTIFY_SOCKET, str(tmp_path / "notify"))
    monkeypatch.delenv(WATCHDOG_USEC, raising=False)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(tmp_path / "notify"))
        try:
            status = main(["play", "--display", "headless", "--source", "none", *arguments])
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    assert status == EX_CONFIG
    assert drawn and drawn[0].startswith(title), drawn
