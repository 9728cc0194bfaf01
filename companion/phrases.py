"""Words kept as a message and its values until the moment they are shown.

The rules engine, the reader and the session say what they have to say (why a
player scored, why a round is refused, what the table waits for) without knowing
who will read it. A `Phrase` keeps the English message, as the catalogues know it,
and its values; `Phrase.render` puts it into a reader's language at the last moment,
through any gettext translations object. `str(phrase)` is the English text: that is
what logs, the command line and the JSON interfaces carry, so they stay
language-neutral.

Messages are written with `phrase(...)` and `plural(...)` calls whose first
arguments are literal strings, so that Babel's extractor finds every one of them
(see `scripts/catalogue.py`). Values are named `{like_this}` in the message. A
player's name accepts the format spec `de` (`{owner:de}`), which French needs for
"la carte d'Ann" but "la carte de Bob".
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol


class Translations(Protocol):
    """What a phrase needs of a catalogue: `gettext.NullTranslations` and its kin."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


class English:
    """The messages as written: the translations of a table that speaks English."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message


ENGLISH = English()
"""The messages as written."""

_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüÿæœAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŸÆŒ")


class Name(str):
    """A player's (or a team's) name in a phrase: never translated, but able to take
    French's "de" ("d'Ann", "de Bob") with the format spec `de`."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if spec == "de":
            text = str(self)
            return f"d'{text}" if text[:1] in _VOWELS else f"de {text}"
        return format(str(self), spec)


@dataclass(frozen=True)
class Listing:
    """Several values joined as a reader says them: "a, b and c", "a, b et c"."""

    items: tuple["Value", ...]


@dataclass(frozen=True)
class Phrase:
    """A message and its values, to be put into a reader's language when shown."""

    message: str
    """The English message, as the catalogues know it; values as `{name}`."""
    values: tuple[tuple[str, "Value"], ...] = ()
    """The values to put in, by name."""
    plural: str | None = None
    """The English plural message, for messages that depend on a count."""
    count: int = 0
    """The count that chooses between singular and plural (available as `{n}`)."""
    context: str | None = None
    """A hint that tells two uses of the same English words apart ("slot" as a word
    on a button vs in a sentence)."""
    verbatim: bool = False
    """Words that are never translated (a file name, an English error from a library)."""

    def render(self, translations: Translations = ENGLISH) -> str:
        """The words in the language of `translations`."""
        if self.verbatim:
            return self.message
        if self.plural is not None:
            text = translations.ngettext(self.message, self.plural, self.count)
        elif self.context is not None:
            text = translations.pgettext(self.context, self.message)
        else:
            text = translations.gettext(self.message)
        values = {key: _shown(value, translations) for key, value in self.values}
        if self.plural is not None:
            values.setdefault("n", self.count)
        return text.format(**values) if values else text

    def __str__(self) -> str:
        return self.render()


Value = str | int | Name | Phrase | Listing
"""What a phrase can hold: text (a name or a number in figures), or words that are
themselves translated."""


def phrase(message: str, /, **values: Value) -> Phrase:
    """A message with its values: `phrase("{player} tells", player=Name("Ann"))`."""
    return Phrase(message, _values(values))


def plural(singular: str, plural: str, n: int, /, **values: Value) -> Phrase:
    """A message that depends on a count `n`: `plural("{n} vote", "{n} votes", 2)`."""
    return Phrase(singular, _values(values), plural=plural, count=n)


def in_context(context: str, message: str, /, **values: Value) -> Phrase:
    """A message that means something else elsewhere: `in_context("button", "Next")`."""
    return Phrase(message, _values(values), context=context)


def verbatim(text: str) -> Phrase:
    """Words shown as they are: a file name, a library's own message."""
    return Phrase(text, verbatim=True)


def listing(items: Iterable[Value]) -> Listing:
    """Values to be joined as a reader says them."""
    return Listing(tuple(items))


def names(*players: str) -> tuple[Name, ...]:
    """Player names as phrase values."""
    return tuple(Name(p) for p in players)


def rendered(value: Value, translations: Translations = ENGLISH) -> str:
    """Any phrase value as words in the language of `translations` (a listing of
    phrases, say, which has no message of its own)."""
    return str(_shown(value, translations))


def _values(values: Mapping[str, Value]) -> tuple[tuple[str, Value], ...]:
    return tuple((key, Name(v) if type(v) is str else v) for key, v in values.items())


def _shown(value: Value, translations: Translations) -> object:
    """A value as it goes into a message: phrases and listings in the reader's language,
    names and numbers as they are."""
    if isinstance(value, Phrase):
        return value.render(translations)
    if isinstance(value, Listing):
        shown = [str(_shown(item, translations)) for item in value.items]
        if len(shown) <= 1:
            return "".join(shown)
        joined = phrase("{items} and {last}", items=", ".join(shown[:-1]), last=shown[-1])
        return joined.render(translations)
    return value
