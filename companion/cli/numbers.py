"""Numbers given on the command line, in ASCII digits only.

Python's `int()` and `float()` take far more than a café means: `1_0` is ten, so
are Arabic-Indic digits (U+0661 U+0660), and `" 3"`, `+3`, `24e0` and `inf` all
pass, while `int()` of thousands of digits fails with a traceback. An option given in
any other form than plain digits (with one decimal point for a size), or with more
digits than `companion.numbers` allows, is a typo or a paste from elsewhere, and is
refused with one line naming the option.
"""

import re

from companion.errors import SettingError
from companion.numbers import in_digits, too_long

_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?|\.[0-9]+")


def whole_number(option: str, text: str, what: str, *, least: int | None = None) -> int:
    """`text` as a whole number of ASCII digits, `least` or more if given (a count of
    rounds or frames that makes no sense, 0 or negative, is a mistake); `SettingError`
    naming `option` if not."""
    wanted = what if least is None else f"{what}, {least} or more,"
    if not in_digits(text):
        raise SettingError(f"{option} must be {wanted} in digits 0-9, not {_shown(text)}")
    _refuse_long(option, text)
    number = int(text)
    if least is not None and number < least:
        raise SettingError(f"{option} must be {what}, {least} or more, not {number}")
    return number


def decimal_number(option: str, text: str, what: str) -> float:
    """`text` as a decimal number of ASCII digits and at most one point; `SettingError`
    naming `option` if not."""
    if _DECIMAL.fullmatch(text) is None:
        raise SettingError(f"{option} must be {what} in digits 0-9, not {_shown(text)}")
    _refuse_long(option, text.replace(".", ""))
    return float(text)


def _refuse_long(option: str, digits: str) -> None:
    fault = too_long(digits)
    if fault is not None:
        raise SettingError(f"{option}: {fault}")


_SHOWN_CHARS = 40
"""The most of a refused text a message quotes: enough to recognise it."""


def _shown(text: str) -> str:
    """`text` quoted for a message, cut short if long, so the line stays readable."""
    if len(text) <= _SHOWN_CHARS:
        return repr(text)
    return f"{text[:_SHOWN_CHARS]!r}... ({len(text)} characters)"
