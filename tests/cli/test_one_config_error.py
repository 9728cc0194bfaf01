"""One configuration, one set of rules: a wrong option given to `play`, `demo` or the
doctor (on its command line, or in the service's options file it checks) is refused
by the same check, in the same words, said once, before anything is opened."""

import argparse
from pathlib import Path

import pytest

from companion.cli import main
from companion.doctor.findings import OPTIONS
from companion.errors import CompanionError
from companion.runtime.config import TableConfig, Wiring, parse_listen
from companion.service_options import OPTIONS_VARIABLE

BAD_PARTS = [
    ["--strip", "ws2812:lots"],
    ["--strip", "rainbow:30"],
    ["--buttons", "17,17,22"],
    ["--buttons", "17,27"],
    ["--light", "5,6,99"],
    ["--buttons", "10,27,22", "--strip", "ws2812:60"],
]
"""Parts every one of the three commands takes, each wrong in its own way."""


def refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What the command said was wrong: its one line on stderr, after its name."""
    assert main(argv) == 2
    said = capsys.readouterr()
    command = f"companion {argv[0]}: "
    assert said.err.startswith(command) and said.err.count("\n") == 1, said.err
    assert "Traceback" not in said.err
    return said.err.removeprefix(command).rstrip("\n")


def words_of(check: list[str]) -> str:
    """The words of the one check that refuses `check`, asked directly."""
    options = {"buttons": None, "light": None, "strip": None}
    for name, value in zip(check[::2], check[1::2], strict=True):
        options[name.removeprefix("--")] = value
    with pytest.raises(CompanionError) as refused:
        Wiring.from_args(argparse.Namespace(no_buttons=False, no_light=False, **options))
    return str(refused.value)


@pytest.mark.parametrize("bad", BAD_PARTS, ids=" ".join)
def test_play_demo_and_the_doctor_refuse_a_wrong_part_in_the_same_words_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: list[str]
) -> None:
    journal = tmp_path / "journal.sqlite"
    place = ["--journal", str(journal)]
    play = refusal(["play", "--display", "headless", "--source", "none", *place, *bad], capsys)
    demo = refusal(["demo", "--headless", "--out", str(tmp_path / "screens"), *place, *bad], capsys)
    doctor = refusal(["doctor", "--source", "none", *place, *bad], capsys)
    assert play == demo == doctor == words_of(bad)
    assert not journal.exists() and not (tmp_path / "screens").exists()


@pytest.mark.parametrize("bad", [*BAD_PARTS, ["--web", "1.2.3.4:99999"], ["--web", "cafe.local"]])
def test_the_doctor_names_a_wrong_option_in_the_service_file_in_plays_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: list[str]
) -> None:
    journal = tmp_path / "journal.sqlite"
    play = refusal(["play", "--display", "headless", "--journal", str(journal), *bad], capsys)
    options = tmp_path / "dixit-companion"
    options.write_text(f"{OPTIONS_VARIABLE}={' '.join(bad)}\n", encoding="utf-8")
    doctor = ["doctor", "--options-file", str(options), "--source", "none"]
    doctor += ["--journal", str(journal), "--calibration", str(tmp_path / "calibration.json")]
    assert main([*doctor, "--no-buttons", "--no-light"]) == 1
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if line[6:].startswith(OPTIONS)]
    assert line.startswith(f"FAIL  {OPTIONS}")
    assert line.endswith(f": {play}") and out.count(play) == 1, out


def test_play_and_the_demo_refuse_the_same_web_address_in_the_same_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = ["--web", "1.2.3.4:99999", "--journal", str(tmp_path / "journal.sqlite")]
    play = refusal(["play", "--display", "headless", "--source", "none", *bad], capsys)
    demo = refusal(["demo", "--headless", "--out", str(tmp_path / "screens"), *bad], capsys)
    with pytest.raises(CompanionError) as refused:
        parse_listen("1.2.3.4:99999")
    assert play == demo == str(refused.value)


def test_a_strip_too_short_for_the_track_is_the_games_rule_not_the_doctors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The doctor lights a strip of any length; a table needs one the track fits on."""
    short = ["--strip", "mock:5", "--journal", str(tmp_path / "journal.sqlite")]
    play = refusal(["play", "--display", "headless", "--source", "none", *short], capsys)
    demo = refusal(["demo", "--headless", "--out", str(tmp_path / "screens"), *short], capsys)
    assert play == demo and "a strip of 5 LEDs cannot show 31 track spaces" in play
    with pytest.raises(CompanionError) as refused:
        TableConfig(wiring=Wiring(None, None, Wiring.from_args(_strip("mock:5")).strip))
    assert str(refused.value) == play


def _strip(spec: str) -> argparse.Namespace:
    return argparse.Namespace(no_buttons=True, no_light=True, buttons=None, light=None, strip=spec)
