"""The journal words damage by the same one-line rule as every command's message."""

import unicodedata
from pathlib import Path

from companion.journal.faults import corrupt
from companion.names import one_line


def test_damage_quoted_in_a_message_is_escaped_not_sent_to_the_terminal() -> None:
    message = str(corrupt(Path("journal.sqlite"), "round 2 holds \x1b[2J and\nmore\u2028"))
    assert not any(unicodedata.category(c) in {"Cc", "Zl", "Zp"} for c in message)
    assert "round 2 holds \\x1b[2J and\\nmore\\u2028" in message
    assert one_line(message) == message
