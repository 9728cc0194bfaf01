"""The rulebook examples' reasons in French, as a French player says them at the table.

The same rounds as the golden cases of the scoring tests; the English is checked there.
"""

import pytest

from companion.language import Language, translations
from tests.rules.helpers import game, numbered, reveal

FRENCH = translations(Language.FRENCH)


@pytest.mark.parametrize("ruleset", ["classic", "classic-1e", "odyssey"])
def test_rulebook_001_six_player_example_in_french(ruleset: str) -> None:
    six = ["pink", "blue", "green", "violet", "yellow", "red"]
    table = reveal(
        numbered(six),
        {"blue": [1], "green": [1], "red": [4], "violet": [2], "yellow": [2]},
    )
    assert game(ruleset, six).score(table).reasons_in(FRENCH) == {
        "pink": ("+3 certains joueurs, pas tous, ont trouvé sa carte",),
        "blue": ("+3 a trouvé la carte du conteur", "+2 deux votes sur sa carte"),
        "green": ("+3 a trouvé la carte du conteur",),
        "violet": ("0 n'a pas trouvé la carte du conteur", "+1 un vote sur sa carte"),
        "yellow": ("0 n'a pas trouvé la carte du conteur",),
        "red": ("0 n'a pas trouvé la carte du conteur",),
    }


def test_rulebook_000_party_example_in_french() -> None:
    nine = ["tom", "anna", "bruno", "chloe", "david", "emma", "dimitri", "mathilde", "lea"]
    votes = {p: [3] for p in nine[:6]} | {"dimitri": [2], "mathilde": [2], "lea": [9]}
    reasons = game("party-1e", nine).score(reveal(numbered(nine), votes, trap=2)).reasons_in(FRENCH)
    assert reasons == dict.fromkeys(
        nine[:6], ("+5 six votes sur l'emplacement 3, le sien compris, dans la limite de 5",)
    ) | {
        "dimitri": ("0 a voté pour l'emplacement 2, la carte piégée",),
        "mathilde": ("0 a voté pour l'emplacement 2, la carte piégée",),
        "lea": ("0 aucun autre vote sur l'emplacement 9",),
    }


def test_rulebook_004_party_example_six_players_in_french() -> None:
    six = ["ana", "ben", "cam", "dan", "eve", "fay"]
    votes = {"ana": [2], "ben": [2], "cam": [2], "dan": [3], "eve": [6], "fay": [6]}
    reasons = game("party", six).score(reveal(numbered(six), votes, trap=6)).reasons_in(FRENCH)
    assert reasons == {
        "ana": ("+3 trois votes sur l'emplacement 2, le sien compris",),
        "ben": ("+3 trois votes sur l'emplacement 2, le sien compris",),
        "cam": ("+3 trois votes sur l'emplacement 2, le sien compris",),
        "dan": ("0 aucun autre vote sur l'emplacement 3",),
        "eve": ("0 a voté pour l'emplacement 6, la carte piégée",),
        "fay": ("0 a voté pour l'emplacement 6, la carte piégée",),
    }


@pytest.mark.parametrize("ruleset", ["teams", "teams-1e"])
def test_rulebook_004_ten_player_team_example_in_french(ruleset: str) -> None:
    ten = ["bea", "val", "gus", "ola", "pam", "bob", "vic", "gil", "oz", "pia"]
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "pam"}
    votes = {"vic": [2], "gil": [2], "oz": [1], "pia": [4]}
    assert game(ruleset, ten).score(reveal(cards, votes)).reasons_in(FRENCH) == {
        "bea+bob": (
            "+3 certaines équipes, pas toutes, ont trouvé la carte de bea",
            "+1 un vote sur la carte de bob",
        ),
        "val+vic": ("+3 vic a trouvé la carte du conteur",),
        "gus+gil": ("+3 gil a trouvé la carte du conteur", "+1 un vote sur la carte de gus"),
        "ola+oz": ("0 oz n'a pas trouvé la carte du conteur",),
        "pam+pia": ("0 pia n'a pas trouvé la carte du conteur",),
    }


def test_a_name_starting_with_a_vowel_takes_d_apostrophe() -> None:
    ten = ["Ann", "val", "gus", "ola", "pam", "Eve", "vic", "gil", "oz", "pia"]
    cards = {1: "gus", 2: "Ann", 3: "val", 4: "Eve", 5: "ola", 6: "pam"}
    votes = {"vic": [4], "gil": [4], "oz": [4], "pia": [4]}
    reasons = game("teams", ten).score(reveal(cards, votes)).reasons_in(FRENCH)
    assert reasons["Ann+Eve"] == (
        "0 personne n'a trouvé la carte d'Ann",
        "+4 quatre votes sur la carte d'Eve",
    )


def test_english_reasons_are_unchanged_by_the_french() -> None:
    six = ["pink", "blue", "green", "violet", "yellow", "red"]
    table = reveal(
        numbered(six), {"blue": [1], "green": [2], "violet": [2], "yellow": [2], "red": [2]}
    )
    score = game("odyssey", six).score(table)
    assert score.reasons_in(FRENCH)["blue"] == (
        "+3 a trouvé la carte du conteur",
        "+3 quatre votes sur sa carte, dans la limite de 3",
    )
    assert score.reasons["blue"] == (
        "+3 found the storyteller's card",
        "+3 four votes on your card, capped at 3",
    )
