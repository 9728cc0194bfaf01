"""Damaged kit tag texts: a misread is foreign, never another tag, never a crash.

Camera decoders hand over whatever a QR code says, or almost says: one character
changed, added or lost, the check character wrong, letters in the other case, a
look-alike from another alphabet, white space around it. tests/kit/test_tags.py tries
every one-character change within the QR alphabet; here the changes come from all of
Unicode and from texts built by the tag grammar itself, each either read back as a tag
whose text is exactly the input, or refused with `ForeignTagError`.
"""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.colours import COLOURS
from companion.errors import ForeignTagError
from companion.kit.tags import ALPHANUMERIC, CHECK_ALPHABET, KitTag, kit_tags, parse_tag

TAGS = tuple(tag for kit in ("AB", "CAFE1", "Z9Z9Z9") for tag in kit_tags(kit, 12))
HOMOGLYPHS = {
    "A": "\u0391\u0410",  # Greek Alpha, Cyrillic A
    "B": "\u0392\u0412",  # Greek Beta, Cyrillic Ve
    "C": "\u0421\u03f9",  # Cyrillic Es, Greek lunate sigma
    "D": "\u13a0",  # Cherokee A
    "E": "\u0395\u0415",  # Greek Epsilon, Cyrillic Ie
    "O": "\u039f\u041e0",  # Greek Omicron, Cyrillic O, zero
    "S": "\u0405",  # Cyrillic Dze
    "T": "\u03a4\u0422",  # Greek Tau, Cyrillic Te
    "X": "\u03a7\u0425",  # Greek Chi, Cyrillic Ha
    "0": "O\u039f",  # letter O, Greek Omicron
    "1": "Il|",
    ".": "\u00b7\u2024\u3002",  # middle dot, one dot leader, ideographic full stop
}
"""Characters of other scripts that look like characters of a tag text."""


def look_alikes() -> dict[str, str]:
    """For each character of the QR alphabet, characters that look like it or that
    Unicode normalises to it (fullwidth forms, mathematical letters, Roman numerals...)."""
    found = {c: HOMOGLYPHS.get(c, "") for c in ALPHANUMERIC}
    for code in range(0x80, 0x20000):
        plain = unicodedata.normalize("NFKC", chr(code))
        if plain in found:
            found[plain] += chr(code)
    return found


LOOK_ALIKES = look_alikes()
SPACES = [" ", "\t", "\n", "\r\n", "\u00a0", "\u200b", "\ufeff", "\x00"]


def read(text: str) -> KitTag | None:
    """The tag, or None if foreign; anything else escapes and fails the test."""
    try:
        tag = parse_tag(text)
    except ForeignTagError as err:
        assert "\n" not in str(err)
        return None
    assert tag.text == text
    return tag


@st.composite
def one_character_changed(draw: st.DrawFn) -> tuple[str, str]:
    """A tag's text and a copy with one character replaced by any character."""
    text = draw(st.sampled_from(TAGS)).text
    at = draw(st.integers(0, len(text) - 1))
    char = draw(st.one_of(st.characters(), st.sampled_from(ALPHANUMERIC)))
    return text, text[:at] + char + text[at + 1 :]


@st.composite
def misread(draw: st.DrawFn, text: str) -> str:
    """A tag's text as a decoder or a person might get it slightly wrong."""
    at = draw(st.integers(0, len(text)))
    how = draw(st.sampled_from(["insert", "delete", "check", "case", "look-alike", "space"]))
    if how == "insert":
        return text[:at] + draw(st.characters()) + text[at:]
    if how == "delete":
        return text[: max(0, at - 1)] + text[at:]
    if how == "check":
        return text[:-1] + draw(st.sampled_from(CHECK_ALPHABET + " .:/"))
    if how == "case":
        change = draw(st.sampled_from([str.lower, str.swapcase, str.casefold, str.title]))
        return text[:at] + change(text[at:])
    if how == "look-alike":
        i = draw(st.integers(0, len(text) - 1))
        return text[:i] + draw(st.sampled_from(LOOK_ALIKES[text[i]])) + text[i + 1 :]
    space = draw(st.sampled_from(SPACES))
    return draw(st.sampled_from([space + text, text + space, text[:at] + space + text[at:]]))


@st.composite
def grammatical_texts(draw: st.DrawFn) -> tuple[str, str]:
    """A text built by the tag grammar with any check character, and the right one
    computed here independently of the product."""
    kit = draw(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=2, max_size=6))
    body = draw(
        st.one_of(
            st.integers(1, 4).map(lambda n: f"C{n}"),
            st.integers(1, 12).map(lambda n: f"S{n:02d}"),
            st.just("T"),
            st.tuples(
                st.sampled_from("VO"), st.sampled_from([c.code for c in COLOURS]), st.integers(1, 2)
            ).map(lambda t: f"{t[0]}{t[1]}{t[2]}"),
        )
    )
    head = f"DXC.{kit}.{body}"
    total = sum(weight * ALPHANUMERIC.index(c) for weight, c in enumerate(head, start=1))
    right = CHECK_ALPHABET[total % len(CHECK_ALPHABET)]
    return f"{head}.{draw(st.sampled_from(CHECK_ALPHABET))}", right


@settings(max_examples=500, deadline=None)
@given(one_character_changed())
def test_one_changed_character_from_all_of_unicode_is_always_foreign(
    change: tuple[str, str],
) -> None:
    original, changed = change
    if changed != original:
        assert read(changed) is None


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(TAGS).flatmap(lambda tag: st.tuples(st.just(tag), misread(tag.text))))
def test_a_misread_tag_is_foreign_or_a_tag_of_another_kit(misreading: tuple[KitTag, str]) -> None:
    original, text = misreading
    tag = read(text)
    assert tag is None or text == original.text or tag.kit != original.kit


@settings(max_examples=500, deadline=None)
@given(grammatical_texts())
def test_a_text_of_tag_grammar_is_a_tag_exactly_when_its_check_character_is_right(
    built: tuple[str, str],
) -> None:
    text, right = built
    tag = read(text)
    assert (tag is not None) == (text[-1] == right)


@pytest.mark.parametrize("tag", TAGS[:: len(TAGS) // 12], ids=lambda t: t.text)
def test_a_tag_in_lower_case_or_with_spaces_around_is_foreign(tag: KitTag) -> None:
    for text in (tag.text.lower(), f" {tag.text}", f"{tag.text}\n", f"\ufeff{tag.text}"):
        assert read(text) is None
