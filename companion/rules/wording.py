"""Small helpers that put counts into the words a player reads on the screen."""

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


def listing(items: list[str] | tuple[str, ...]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def slots(numbers: tuple[int, ...] | list[int]) -> str:
    """ "slot 3", "slots 2 and 5"."""
    label = "slot" if len(numbers) == 1 else "slots"
    return f"{label} {listing([str(n) for n in numbers])}"
