"""`companion play --help` names every ruleset option `--option` takes, from the
rules engine's own list."""

import pytest

from companion.cli import main
from companion.rules import OPTION_NAMES


def test_play_help_names_every_ruleset_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "--help"])
    assert done.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())  # as wrapped for the terminal
    assert "round_limit" in OPTION_NAMES
    assert f"override a preset: {', '.join(OPTION_NAMES)} (null: no limit)" in shown, shown
