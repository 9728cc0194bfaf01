"""A refused round's problems in French: counts in words, slots listed, names with "de"."""

import pytest

from companion.errors import RulesError
from companion.language import Language, translations
from companion.rules import RULESETS, Game, Termination
from tests.rules.helpers import game, numbered, reveal

FRENCH = translations(Language.FRENCH)
FOUR = ["red", "blue", "green", "pink"]
TEN = ["bea", "val", "gus", "ola", "pam", "bob", "vic", "gil", "oz", "pia"]


def french_problems(g: Game, cards: dict[int, str], votes: dict[str, list[int]]) -> list[str]:
    """Every problem of the table as the next round, in French, with the round number."""
    return [p.phrase.render(FRENCH) for p in g.problems(reveal(cards, votes))]


def test_vote_problems_in_french() -> None:
    votes = {"blue": [3, 4], "green": [3]}
    assert french_problems(game("classic", FOUR), numbered(FOUR), votes) == [
        "manche 1\u00a0: blue a placé deux votes (emplacements 3 et 4) mais n'a droit qu'à un vote",
        "manche 1\u00a0: green a voté pour l'emplacement 3, sa propre carte",
        "manche 1\u00a0: pink n'a pas voté",
    ]


def test_a_doubled_vote_and_the_storyteller_vote_in_french() -> None:
    votes = {"red": [2], "blue": [1], "green": [4, 4], "pink": [1]}
    assert french_problems(game("classic", FOUR), numbered(FOUR), votes) == [
        "manche 1\u00a0: red est le conteur et ne vote pas",
        "manche 1\u00a0: green a voté deux fois pour l'emplacement 4",
        "manche 1\u00a0: green a placé deux votes (emplacements 4 et 4) mais n'a droit qu'à un vote",
    ]


def test_card_problems_count_cards_in_the_feminine() -> None:
    cards = {1: "red", 2: "blue", 3: "blue", 4: "pink"}
    votes = {"blue": [1], "green": [1], "pink": [1]}
    assert french_problems(game("classic", FOUR), cards, votes) == [
        "manche 1\u00a0: blue a posé deux cartes (emplacements 2 et 3) mais doit poser une carte",
        "manche 1\u00a0: green n'a pas posé de carte\u00a0; il lui faut poser une carte",
    ]


def test_team_problems_in_french() -> None:
    cards = {1: "gus", 2: "bea", 3: "val", 4: "bob", 5: "ola", 6: "oz"}
    votes = {"vic": [2], "gil": [2], "pia": [4]}
    assert french_problems(game("teams", TEN), cards, votes)[0] == (
        "manche 1\u00a0: l'équipe ola+oz a posé deux cartes (ola\u00a0: emplacement 5, "
        "oz\u00a0: emplacement 6)\u00a0; un seul des deux peut le faire"
    )


def test_a_finished_game_says_why_in_french() -> None:
    g = game("classic", FOUR, target=None, round_limit=1)
    table = reveal(numbered(FOUR), {"blue": [3], "green": [1], "pink": [1]})
    g = g.play(table)
    assert g.outcome is not None
    assert g.outcome.termination.words.render(FRENCH) == "le nombre de manches prévu est atteint"
    with pytest.raises(RulesError) as caught:
        g.play(table)
    assert caught.value.phrase.render(FRENCH) == (
        "manche 2\u00a0: la partie s'est terminée après la manche 1 "
        "(le nombre de manches prévu est atteint)"
    )


def test_every_termination_has_french_words() -> None:
    assert {t: t.words.render(FRENCH) for t in Termination} == {
        Termination.TARGET: "un score a atteint l'objectif",
        Termination.STORYTELLER_TURNS: "chaque joueur a été conteur autant de fois que prévu",
        Termination.ROUND_LIMIT: "le nombre de manches prévu est atteint",
        Termination.DRAW_PILE: "la pioche est épuisée",
    }


def test_edition_names_as_the_french_rulebooks_say_them() -> None:
    assert {name: r.title_words.render(FRENCH) for name, r in RULESETS.items()} == {
        "classic": "Dixit (édition 2021)",
        "classic-1e": "Dixit, première édition",
        "odyssey": "Dixit Odyssey",
        "party-1e": "Dixit Party (Odyssey, premier tirage)",
        "party": "Dixit Party (Odyssey, molettes de vote)",
        "teams-1e": "Dixit en équipe (Odyssey, premier tirage)",
        "teams": "Dixit en équipe (Odyssey, molettes de vote)",
    }
    assert all(str(r.title_words) == r.title for r in RULESETS.values())
    assert RULESETS["classic"].summary.render(FRENCH) == "le jeu de base, en 30 points"
