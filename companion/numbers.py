"""The one rule for whole numbers a person types or a file holds: ASCII digits, and
not too many of them.

Python's `int()` takes far more than that: Arabic-Indic digits (`١٢` is twelve),
`1_0`, `" 3"`, `+3`; and it refuses with a `ValueError` (not a `CompanionError`, so a
traceback) any number longer than its conversion limit. Every parser of whole
numbers (the command line's options, the game file) asks here first, so each refuses
the same texts, in its own words. An option given in any other form than plain digits
(with one decimal point for a size) is a typo or a paste from elsewhere:
`whole_number` and `decimal_number` refuse it with one line naming the option.
"""

import re

from companion.errors import SettingError

MAX_DIGITS = 640
"""The most digits a whole number may have: the lowest conversion limit Python can be
set to (`sys.int_info.str_digits_check_threshold`), so `int()` never refuses a number
this allows, whatever `PYTHONINTMAXSTRDIGITS` says. No count, score, pin or slot comes
near it."""

_DIGITS = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?|\.[0-9]+")


def in_digits(text: str, *, signed: bool = False) -> bool:
    """Whether `text` is written in ASCII digits only (after one leading minus sign,
    if `signed`)."""
    return (_SIGNED if signed else _DIGITS).fullmatch(text) is not None


def too_long(text: str) -> str | None:
    """What is wrong with `text` (digits, perhaps signed) if it has more digits than
    `MAX_DIGITS`, else None."""
    digits = len(text.lstrip("-"))
    return f"a number of {digits} digits is far too long" if digits > MAX_DIGITS else None


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
