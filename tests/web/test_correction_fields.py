"""The staff's whole-round form on the phone: each slot says whose card it holds,
and a refused correction names the field at fault, in the table's language."""

import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.actions import Action
from companion.language import Language
from companion.rules import Reveal
from companion.web.fields import problems_by_field
from tests.web.desk import (
    Desk,
    all_find,
    change,
    playing_desk,
    round_of,
    served,
    staff_client,
)

OWN_CARD = {
    "cards": {"1": "Ann", "2": "Ben", "3": "Cleo", "4": "Dan"},
    "votes": {"Ben": [2], "Cleo": [1], "Dan": [1]},
}
"""Round 1 with Ben voting for his own card, slot 2."""


def round_json(reveal: Reveal) -> dict[str, Any]:
    """A round as the page's form sends it."""
    return {
        "cards": {str(slot): owner for slot, owner in reveal.cards.items()},
        "votes": {voter: list(slots) for voter, slots in reveal.votes.items()},
    }


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    """A game with one round confirmed."""
    with playing_desk(tmp_path / "journal.sqlite", 1) as desk:
        yield desk


def test_a_vote_for_ones_own_card_is_said_beside_that_vote(desk: Desk) -> None:
    with served(desk) as client:
        staff_client(client)
        answer = change(client, f"/api/games/{desk.game_id}/rounds/1", OWN_CARD)
    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] == "round 1: Ben voted for slot 2, their own card"
    assert body["fields"] == {"vote-Ben-1": "Ben voted for slot 2, their own card"}
    assert desk.submitted == []


def test_two_cards_on_nothing_and_a_missing_one_are_the_forms(desk: Desk) -> None:
    game = desk.session.state.game
    missing = Reveal({1: "Ann", 2: "Ben", 3: "Cleo"}, {"Ben": (1,), "Cleo": (1,), "Dan": (9,)})
    fields = {name: str(p) for name, p in problems_by_field(game, range(1, 9), 1, missing).items()}
    assert fields["vote-Dan-1"] == "Dan voted for slot 9, which holds no card"
    assert "Dan has not laid a card" in fields[""]


def test_the_fields_are_named_in_french_at_a_french_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with playing_desk(path, 1, language=Language.FRENCH) as desk, served(desk) as client:
        staff_client(client)
        answer = change(client, f"/api/games/{desk.game_id}/rounds/1", OWN_CARD)
        assert answer.status_code == 422
        said = answer.json()["fields"]["vote-Ben-1"]
        assert said == "Ben a voté pour l'emplacement 2, sa propre carte"


def test_each_slot_of_the_form_says_whose_card_it_holds(desk: Desk) -> None:
    with served(desk) as client:
        staff_client(client)
        page = html.unescape(client.get(f"/games/{desk.game_id}").text)
    assert "Slot 1 — Ann's card" in page
    assert 'data-label="Slot 5 — empty"' in page
    assert 'data-error-for="vote-Ben-1"' in page


def test_a_legal_correction_still_goes_through(desk: Desk) -> None:
    with served(desk) as client:
        staff_client(client)
        body = round_json(all_find(1))
        answer = change(client, f"/api/games/{desk.game_id}/rounds/1", body)
    assert answer.status_code == 200, answer.text


def test_the_table_page_shows_the_question_the_table_asks(desk: Desk) -> None:
    desk.press(Action.FIX)
    with served(desk) as client:
        page = html.unescape(client.get("/").text)
    assert "Ann's card: which slot?" in page
    assert "2 / 9" in page
    assert "Ann has not laid a card; one card expected" in page


def test_the_round_being_played_is_entered_from_the_phone(desk: Desk) -> None:
    with served(desk) as client:
        staff_client(client)
        page = html.unescape(client.get(f"/games/{desk.game_id}").text)
        assert "Enter round 2 by hand" in page and 'data-round="2"' in page
        wrong = dict(round_json(round_of(2)), votes={"Ben": [2], "Cleo": [2], "Dan": [2]})
        refused = change(client, f"/api/games/{desk.game_id}/rounds/2", wrong)
        assert refused.status_code == 422
        assert refused.json()["fields"]["vote-Ben-1"] == "Ben is the storyteller and does not vote"
        answer = change(client, f"/api/games/{desk.game_id}/rounds/2", round_json(round_of(2)))
        assert answer.status_code == 200, answer.text
    played = desk.session.state.game.played
    assert len(played) == 2 and played[1].score.round.reveal == round_of(2)
