"""One rule for whole numbers typed or stored: ASCII digits, and not too many of them."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.numbers import MAX_DIGITS, in_digits, too_long
from companion.sources.registry import check_source


@settings(derandomize=True, max_examples=200, deadline=None)
@given(text=st.text(max_size=8))
def test_only_plain_ascii_digits_are_a_whole_number(text: str) -> None:
    assert in_digits(text) == (text != "" and all(c in "0123456789" for c in text))


@pytest.mark.parametrize("text", ["²", "١٢", "1_0", " 3", "+3", "", "-", "3.0"])
def test_what_int_would_take_is_not_a_whole_number(text: str) -> None:
    assert not in_digits(text)


def test_a_minus_sign_is_allowed_only_where_asked() -> None:
    assert (
        in_digits("-12", signed=True) and not in_digits("-12") and not in_digits("--1", signed=True)
    )


def test_a_number_longer_than_python_may_convert_is_too_long_and_says_how_long() -> None:
    assert too_long("9" * MAX_DIGITS) is None
    assert too_long("-" + "9" * MAX_DIGITS) is None
    assert too_long("9" * 4401) == "a number of 4401 digits is far too long"
    assert int("9" * MAX_DIGITS)  # converts whatever PYTHONINTMAXSTRDIGITS allows


def test_tags_refuses_a_number_of_players_of_4401_digits_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tags", "--kit", "CAFE1", "--players", "1" * 4401, "--out", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("companion tags: --players") and "4401 digits" in error, error
    assert error.count("\n") == 1 and len(error) < 300


@pytest.mark.parametrize("spec", ["camera:\u0661", "camera:" + "1" * 4401, "camera:²"])
def test_a_camera_number_not_in_plain_digits_is_a_setting_error(spec: str) -> None:
    with pytest.raises(ValueError, match="the camera is a device number"):
        check_source(spec)
