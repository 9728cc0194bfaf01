"""Phrases: English as written, French from the catalogue, values put in at the end."""

from hypothesis import given
from hypothesis import strategies as st

from companion.language import Language, find_language, translations
from companion.phrases import Name, listing, phrase, plural, verbatim

FRENCH = translations(Language.FRENCH)


def test_a_phrase_reads_as_english_without_a_catalogue() -> None:
    assert str(phrase("round {number}: {problem}", number=4, problem="x")) == "round 4: x"


def test_a_phrase_reads_in_french_with_the_french_catalogue() -> None:
    words = phrase("round {number}: {problem}", number=4, problem="x")
    assert words.render(FRENCH) == "manche 4\u00a0: x"


def test_a_listing_joins_with_the_readers_and() -> None:
    words = phrase("round {number}: {problem}", number=1, problem=listing(["Ann", "Bob", "Cy"]))
    assert str(words) == "round 1: Ann, Bob and Cy"
    assert words.render(FRENCH) == "manche 1\u00a0: Ann, Bob et Cy"


def test_a_name_takes_the_french_de_with_elision() -> None:
    assert f"{Name('Ann'):de}" == "d'Ann"
    assert f"{Name('Élodie'):de}" == "d'Élodie"
    assert f"{Name('Bob'):de}" == "de Bob"
    assert f"{Name('Bob')}" == "Bob"


def test_a_plural_chooses_by_count_in_english() -> None:
    assert str(plural("{n} vote", "{n} votes", 1)) == "1 vote"
    assert str(plural("{n} vote", "{n} votes", 0)) == "0 votes"


def test_verbatim_words_are_never_translated() -> None:
    assert verbatim("{items} and {last}").render(FRENCH) == "{items} and {last}"


@given(st.text(max_size=30))
def test_names_are_put_in_as_they_are(name: str) -> None:
    words = phrase("round {number}: {problem}", number=2, problem=name)
    assert words.render(FRENCH) == f"manche 2\u00a0: {name}"


def test_languages_are_found_by_their_codes() -> None:
    assert find_language("fr_FR.UTF-8") is Language.FRENCH
    assert find_language("EN") is Language.ENGLISH
