"""The playing screens in French: a proposal, the winner and giving up a game say
nothing in English (players' names and numbers aside).

These read the French catalogue shipped in the package (companion/locale), so they
pass once the screens' translations are merged into it.
"""

import re
from dataclasses import replace

from companion.display.view import Breakdown, ScreenView
from companion.journal import Journal
from companion.language import Language
from companion.session.states import SessionState
from companion.view.present import present
from tests.view.sessions import finished, giving_up, proposing

NBSP = "\u00a0"
APOSTROPHE = "'"
BOTH_LANGUAGES = frozenset({"score", "vote", "votes", "journal", "points", "long"})
"""Words that French writes as English does."""


def in_french(state: SessionState) -> SessionState:
    return replace(state, draft=replace(state.draft, language=Language.FRENCH))


def _points(name: str, breakdown: Breakdown | None) -> list[tuple[str, str]]:
    if breakdown is None:
        return []
    reasons = [(f"{name} reason", r) for line in breakdown.lines for r in line.reasons]
    return [(f"{name} title", breakdown.title), *reasons]


def worded(view: ScreenView) -> list[tuple[str, str]]:
    """Every text of a view that is words (not a name or a number), with where it is."""
    texts = [("title", view.title), ("headline", view.headline), ("footer", view.footer)]
    texts += [("notice", n.text) for n in view.notices]
    texts += [("button", b.label) for b in view.buttons]
    texts += _points("proposal", view.proposal) + _points("last round", view.last_round)
    if view.winner is not None:
        winner = view.winner
        texts += [
            ("winner heading", winner.heading),
            ("winners heading", winner.shared_heading),
            ("winner reason", winner.reason),
        ]
    return [*texts, ("more notices", view.more_notices)]


def assert_nothing_english(state: SessionState, now: float) -> ScreenView:
    """The view of `state` in French, checked against the same view in English."""
    english = worded(present(state, now, None))
    view = present(in_french(state), now, None)
    french = worded(view)
    assert [where for where, _ in french] == [where for where, _ in english]
    pairs = zip(french, english, strict=True)
    untranslated = [(where, text) for (where, text), (_, same) in pairs if text == same]
    assert untranslated == []
    names = {word for rabbit in view.rabbits for word in _words(rabbit.name)}
    edition = _words(english[0][1].split(" - ")[0])
    kept = _words(*(t for _, t in english)) & _words(*(t for _, t in french))
    assert kept - BOTH_LANGUAGES - names - edition == set()
    return view


def _words(*texts: str) -> set[str]:
    """The words of four letters or more in `texts`, in lower case."""
    return {w.lower() for text in texts for w in re.findall(r"[^\W\d_]{4,}", text)}


def test_a_proposal_in_french(journal: Journal) -> None:
    view = assert_nothing_english(proposing(journal).state, 1.0)
    assert view.headline == f"Manche 1{NBSP}: valider le score{NBSP}?"
    assert view.proposal is not None
    assert view.proposal.title == f"Score proposé{NBSP}: manche 1"
    assert [b.label for b in view.buttons] == ["Valider", "Corriger", "Annuler"]
    assert view.footer.startswith("pioche ")
    assert view.footer.endswith(" - partie 1")


def test_the_winner_in_french(journal: Journal) -> None:
    view = assert_nothing_english(finished(journal).state, 9.0)
    assert view.headline == f"Ben gagne{NBSP}!"
    assert view.winner is not None
    assert view.winner.heading == "Vainqueur"
    assert view.winner.reason.endswith(" après la manche 1")
    assert [b.label for b in view.buttons] == ["Mêmes joueurs", "Nouveau groupe", "Corriger"]


def test_giving_up_in_french(journal: Journal) -> None:
    view = assert_nothing_english(giving_up(journal).state, 10.0)
    assert view.headline == (
        f"Abandonner cette partie{NBSP}? Elle reste dans le journal, marquée abandonnée"
    )
    assert [n.text for n in view.notices] == [
        f"Demandé par un appui long sur Valider (ou sur l{APOSTROPHE}écran)"
    ]
    assert [b.label for b in view.buttons] == ["Abandonner", "Continuer"]
