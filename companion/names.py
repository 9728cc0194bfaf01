"""The one rule for players' names, shared by every way a name enters the companion.

A name is printed in one-line error messages, drawn on the screen, kept in the
journal and read back through the game file's parser. A name that holds a line
break or a tab, or that shows nothing at all, breaks each of these somewhere else
(a journal that no longer reads back is taken for damaged), so it is refused where
it enters: the command line, the rules engine's seating, a game file. A name is
kept in NFC, so that "é" typed as one character or as "e" and an accent is one name.
"""

import unicodedata

from companion.errors import SeatingError

NOT_IN_TEXT = {
    "Cc": "a control character",
    "Cs": "a lone surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""Unicode categories no text the companion keeps may hold: each breaks the one-line
messages that name it, and no output can print a lone surrogate (JSON's "\\ud800")."""

VISIBLE = frozenset("LNPS")
"""First letters of the Unicode categories that draw something: letters, numbers,
punctuation, symbols (marks, spaces and format characters alone show nothing)."""


def text_fault(text: str) -> str | None:
    """Why `text` cannot be kept as one line of text ("holds a control character"),
    or None when it can."""
    for char in text:
        kind = NOT_IN_TEXT.get(unicodedata.category(char))
        if kind is not None:
            return f"holds {kind}"
    return None


def name_fault(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None when it can."""
    if not name:
        return "is empty"
    fault = text_fault(name)
    if fault is not None:
        return fault
    if name != name.strip():
        return "has spaces at its start or end"
    if not any(unicodedata.category(char)[0] in VISIBLE for char in name):
        return "shows nothing visible"
    return None


def player_name(text: str) -> str:
    """`text` as a player's name: trimmed and in NFC; `SeatingError` saying why not."""
    name = unicodedata.normalize("NFC", text.strip())
    fault = name_fault(name)
    if fault is not None:
        raise SeatingError(f"player name {text!r} {fault}")
    return name


def same_name(name: str) -> str:
    """The form two names are compared in: names equal in NFC are one name."""
    return unicodedata.normalize("NFC", name)
