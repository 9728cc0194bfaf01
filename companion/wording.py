"""Small helpers that put counts into the words a player reads on the screen.

A leaf module: the rules engine, the reader, the journal and the screens all word
their counts the same way through it."""

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


def count(n: int, noun: str, plural: str | None = None) -> str:
    """ "two votes", "one vote", "no votes", "13 votes"."""
    word = _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)
    return f"{word} {noun if n == 1 else plural or noun + 's'}"


def figures(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 card", "84 cards": a count in figures, for error messages, where a number
    is checked against a file or an option rather than read aloud at the table."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def listing(items: list[str] | tuple[str, ...]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def slots(numbers: tuple[int, ...] | list[int]) -> str:
    """ "slot 3", "slots 2 and 5"."""
    label = "slot" if len(numbers) == 1 else "slots"
    return f"{label} {listing([str(n) for n in numbers])}"


def round_span(first: int, last: int) -> str:
    """ "round 4", "rounds 4 to 9"."""
    return f"round {first}" if first == last else f"rounds {first} to {last}"


def rounds_played(count: int) -> str:
    """ "no rounds", "round 1", "rounds 1 to 7": the rounds a game holds."""
    return "no rounds" if count == 0 else round_span(1, count)
