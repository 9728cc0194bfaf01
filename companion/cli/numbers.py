"""Numbers given on the command line, in ASCII digits only.

Python's `int()` and `float()` take far more than a café means: `1_0` is ten, so
are Arabic-Indic digits (U+0661 U+0660), and `" 3"`, `+3`, `24e0` and `inf` all
pass. An option given in any other form than plain digits (with one decimal point
for a size) is a typo or a paste from elsewhere, and is refused with one line naming
the option.
"""

import re

from companion.errors import SettingError

_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?|\.[0-9]+")


def whole_number(option: str, text: str, what: str) -> int:
    """`text` as a whole number of ASCII digits; `SettingError` naming `option` if not."""
    if _WHOLE.fullmatch(text) is None:
        raise SettingError(f"{option} must be {what} in digits 0-9, not {text!r}")
    return int(text)


def decimal_number(option: str, text: str, what: str) -> float:
    """`text` as a decimal number of ASCII digits and at most one point; `SettingError`
    naming `option` if not."""
    if _DECIMAL.fullmatch(text) is None:
        raise SettingError(f"{option} must be {what} in digits 0-9, not {text!r}")
    return float(text)
