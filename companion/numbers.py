"""The one rule for whole numbers a person types or a file holds: ASCII digits, and
not too many of them.

Python's `int()` takes far more than that: Arabic-Indic digits (`١٢` is twelve),
`1_0`, `" 3"`, `+3`; and it refuses with a `ValueError` (not a `CompanionError`, so a
traceback) any number longer than its conversion limit. Every parser of whole
numbers (the command line's options, the game file) asks here first, so each refuses
the same texts, in its own words.
"""

import re

MAX_DIGITS = 640
"""The most digits a whole number may have: the lowest conversion limit Python can be
set to (`sys.int_info.str_digits_check_threshold`), so `int()` never refuses a number
this allows, whatever `PYTHONINTMAXSTRDIGITS` says. No count, score, pin or slot comes
near it."""

_DIGITS = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"-?[0-9]+")


def in_digits(text: str, *, signed: bool = False) -> bool:
    """Whether `text` is written in ASCII digits only (after one leading minus sign,
    if `signed`)."""
    return (_SIGNED if signed else _DIGITS).fullmatch(text) is not None


def too_long(text: str) -> str | None:
    """What is wrong with `text` (digits, perhaps signed) if it has more digits than
    `MAX_DIGITS`, else None."""
    digits = len(text.lstrip("-"))
    return f"a number of {digits} digits is far too long" if digits > MAX_DIGITS else None
