"""Small helpers that put counts into the words a player reads on the screen.

A leaf module: the rules engine, the reader, the journal and the screens all word
their counts the same way through it. The str helpers give English for the command
line and logs; their phrase counterparts (`votes`, `cards`, `slots_phrase`, ...) give
words that a screen shows in the table's language, with the same English.
"""

from companion import phrases
from companion.phrases import Phrase, in_context, phrase, plural

_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


_NUMBER_PHRASES = (
    in_context("number", "no"),
    in_context("number", "one"),
    in_context("number", "two"),
    in_context("number", "three"),
    in_context("number", "four"),
    in_context("number", "five"),
    in_context("number", "six"),
    in_context("number", "seven"),
    in_context("number", "eight"),
    in_context("number", "nine"),
    in_context("number", "ten"),
    in_context("number", "eleven"),
    in_context("number", "twelve"),
)
"""The number words of `_NUMBER_WORDS` as phrases, for a masculine noun in French
("un vote", "aucun jeton")."""

_FEMININE_NUMBER_PHRASES = {
    0: in_context("feminine number", "no"),
    1: in_context("feminine number", "one"),
}
"""The number words that French says otherwise before a feminine noun ("une carte",
"aucune carte"); the others are the same."""


def number_word(n: int, *, feminine: bool = False) -> Phrase | int:
    """A count as a word, "two", for 0 to 12 (French "deux"), and in figures beyond:
    the value `count` puts before its noun. `feminine` for a noun French makes
    feminine (carte, manche)."""
    if feminine and n in _FEMININE_NUMBER_PHRASES:
        return _FEMININE_NUMBER_PHRASES[n]
    return _NUMBER_PHRASES[n] if 0 <= n < len(_NUMBER_PHRASES) else n


def votes(n: int) -> Phrase:
    """ "two votes", "one vote", "no votes", "13 votes": `count(n, "vote")` as a phrase."""
    return plural("{count} vote", "{count} votes", n, count=number_word(n))


def cards(n: int) -> Phrase:
    """ "two cards", "one card": `count(n, "card")` as a phrase."""
    return plural("{count} card", "{count} cards", n, count=number_word(n, feminine=True))


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "two votes", "one vote", "no votes", "13 votes"."""
    word = _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)
    return f"{word} {noun if n == 1 else plural or noun + 's'}"


def listing(items: list[str] | tuple[str, ...]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def slots_phrase(numbers: tuple[int, ...] | list[int]) -> Phrase:
    """ "slot 3", "slots 2 and 5"."""
    return plural(
        "slot {numbers}", "slots {numbers}", len(numbers), numbers=phrases.listing(numbers)
    )


def round_span(first: int, last: int) -> str:
    """ "round 4", "rounds 4 to 9"."""
    return f"round {first}" if first == last else f"rounds {first} to {last}"


def round_span_phrase(first: int, last: int) -> Phrase:
    """ "round 4", "rounds 4 to 9": `round_span` as a phrase."""
    if first == last:
        return phrase("round {number}", number=first)
    return phrase("rounds {first} to {last}", first=first, last=last)


def rounds_played(count: int) -> str:
    """ "no rounds", "round 1", "rounds 1 to 7": the rounds a game holds."""
    return "no rounds" if count == 0 else round_span(1, count)


def rounds_played_phrase(count: int) -> Phrase:
    """ "no rounds", "round 1", "rounds 1 to 7": `rounds_played` as a phrase."""
    return phrase("no rounds") if count == 0 else round_span_phrase(1, count)
