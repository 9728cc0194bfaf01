"""The one rule for players' names, and for making any text one line of a message.

A name is printed in one-line error messages, drawn on the screen, kept in the
journal and read back through the game file's parser. A name that holds a line
break or a tab, or that shows nothing at all, breaks each of these somewhere else,
so it is refused where it enters: the command line (`Lineup`), a game file. The
rules engine does not apply the rule, because it also replays games a journal
stored before the rule existed, which must still read back. A name is kept in NFC,
so that "é" typed as one character or as "e" and an accent is one name. A name is at
most `MAX_NAME_CHARS` characters: what the screen, the scoreboard and the phone show
whole (the screen also refuses a name too wide to draw, `companion.display.fonts`).

Text that is not a name (a file name, a damaged row quoted in an error) cannot be
refused, only shown: `one_line` escapes what the rule refuses, so every message the
companion prints stays one line.
"""

import unicodedata
from collections.abc import Sequence

from companion.errors import SeatingError

NOT_IN_TEXT = {
    "Cc": "a control character",
    "Cs": "a lone surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""Unicode categories no text the companion keeps may hold: each breaks the one-line
messages that name it, and no output can print a lone surrogate (JSON's "\\ud800")."""

MAX_NAME_CHARS = 30
"""The longest name, in characters once in NFC: as long as "Alexandrina
Montgomery-Smythe", the longest name the screens are drawn and tested with. A longer
one is refused, never cut short."""
QUOTED_CHARS = 40
"""How much of a refused text a message quotes: enough to recognise it, never a page."""

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
    if len(name) > MAX_NAME_CHARS:  # first: the checks below read every character
        return f"is longer than {MAX_NAME_CHARS} characters"
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
        raise SeatingError(f"player name {quoted(text)} {fault}")
    return name


def quoted(text: str) -> str:
    """`text` quoted for a message, as Python writes it, and cut after `QUOTED_CHARS`
    characters (with an ellipsis) so that a huge input never makes a huge message."""
    if len(text) <= QUOTED_CHARS:
        return repr(text)
    shown = repr(text[:QUOTED_CHARS])
    return shown[:-1] + "\u2026" + shown[-1]


def repeated(names: Sequence[str]) -> list[str]:
    """The names given more than once, sorted; names equal in NFC are one name."""
    same = [unicodedata.normalize("NFC", name) for name in names]
    return sorted({name for name in same if same.count(name) > 1})


def one_line(text: str) -> str:
    """`text` with every character of `NOT_IN_TEXT` escaped as Python writes it (`\\n`,
    `\\x1b`, `\\u2028`): one line that shows what it quotes and moves no cursor."""
    return "".join(
        repr(char)[1:-1] if unicodedata.category(char) in NOT_IN_TEXT else char for char in text
    )
