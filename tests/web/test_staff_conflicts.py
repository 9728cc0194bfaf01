"""The staff's changes apply to what the staff saw: each carries the version of the
snapshot the page showed, and one that does not apply now, or whose meaning changed
since, is a 409 in the table's language that changes nothing. The staff page shows
what waits at the table with only the buttons that apply, and while the table is
cleared the state says only that."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from companion.actions import Action
from companion.language import Language
from companion.rules import Reveal
from companion.vision.records import SlotContents, TableObservation
from companion.web.app import live_update
from companion.web.pages import Pages
from companion.web.reader import JournalReader
from companion.web.site import Site
from companion.web.staff import StaffGate
from tests.session.observations import table_of
from tests.web.desk import (
    LINEUP,
    PIN,
    SLOTS,
    Desk,
    change,
    playing_desk,
    round_of,
    served,
    staff_client,
)


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    with playing_desk(tmp_path / "journal.sqlite", rounds=1) as desk:
        yield desk


def clearing(desk: Desk) -> None:
    """Round 2 confirmed at the table, its tokens still down."""
    desk.see(table_of(round_of(2), LINEUP))
    desk.press(Action.CONFIRM)
    assert desk.session.state.phase.value == "clearing"


def moved(reveal: Reveal, voter: str, slot: int) -> Reveal:
    """The round with one vote moved."""
    return Reveal(reveal.cards, {**reveal.votes, voter: (slot,)}, reveal.trap)


def act(client: TestClient, action: str, version: object) -> Any:
    return change(client, "/api/actions", {"action": action, "version": version})


def unchanged(desk: Desk, client: TestClient, before: dict[str, Any], export: str) -> None:
    assert client.get("/api/state").json() == before
    assert desk.export(desk.game_id) == export


def state(client: TestClient) -> dict[str, Any]:
    answer: dict[str, Any] = client.get("/api/state").json()
    return answer


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.ENGLISH, "nothing to confirm now: the table is being cleared"),
        (Language.FRENCH, "rien à valider maintenant\u00a0: la table est en train d'être vidée"),
    ],
)
def test_confirm_while_the_table_is_cleared_is_a_conflict_that_changes_nothing(
    tmp_path: Path, language: Language, words: str
) -> None:
    with (
        playing_desk(tmp_path / "journal.sqlite", 1, language=language) as desk,
        served(desk) as client,
    ):
        clearing(desk)
        staff_client(client)
        before, export = state(client), desk.export(desk.game_id)
        answer = act(client, "confirm", before["version"])
        assert answer.status_code == 409
        assert answer.json() == {"error": words, "version": before["version"]}
        unchanged(desk, client, before, export)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.ENGLISH, "nothing to confirm now: no score is proposed"),
        (Language.FRENCH, "rien à valider maintenant\u00a0: aucun score n'est proposé"),
    ],
)
def test_confirm_with_nothing_proposed_is_a_conflict(
    tmp_path: Path, language: Language, words: str
) -> None:
    with (
        playing_desk(tmp_path / "journal.sqlite", 1, language=language) as desk,
        served(desk) as client,
    ):
        staff_client(client)
        before, export = state(client), desk.export(desk.game_id)
        answer = act(client, "confirm", before["version"])
        assert (answer.status_code, answer.json()["error"]) == (409, words)
        unchanged(desk, client, before, export)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.ENGLISH, "the table has changed since this page was drawn: look again"),
        (
            Language.FRENCH,
            "la table a changé depuis l'affichage de cette page\u00a0: regardez-la de nouveau",
        ),
    ],
)
def test_confirm_from_a_page_showing_another_proposal_is_a_conflict(
    tmp_path: Path, language: Language, words: str
) -> None:
    with (
        playing_desk(tmp_path / "journal.sqlite", 1, language=language) as desk,
        served(desk) as client,
    ):
        desk.see(table_of(round_of(2), LINEUP))
        shown = state(client)["version"]
        desk.see(table_of(moved(round_of(2), "Dan", 1), LINEUP))
        staff_client(client)
        before, export = state(client), desk.export(desk.game_id)
        assert before["proposal"] is not None and before["version"] > shown
        answer = act(client, "confirm", shown)
        assert answer.status_code == 409
        assert answer.json() == {"error": words, "version": before["version"]}
        unchanged(desk, client, before, export)
        assert act(client, "confirm", before["version"]).status_code == 200
        assert state(client)["phase"] == "clearing"


def test_undo_from_a_page_drawn_before_a_round_was_kept_is_a_conflict(
    desk: Desk, client: TestClient
) -> None:
    shown = state(client)["version"]
    desk.play(round_of(2))
    staff_client(client)
    before, export = state(client), desk.export(desk.game_id)
    answer = act(client, "undo", shown)
    assert answer.status_code == 409
    assert answer.json()["error"] == "the game has changed since this page was drawn: look again"
    unchanged(desk, client, before, export)


def test_a_correction_from_a_page_drawn_before_a_round_was_kept_is_a_conflict(
    desk: Desk, client: TestClient
) -> None:
    shown = state(client)["version"]
    desk.play(round_of(2))
    staff_client(client)
    before, export = state(client), desk.export(desk.game_id)
    reveal = moved(round_of(1), "Dan", 3)
    body = {
        "cards": {str(s): p for s, p in reveal.cards.items()},
        "votes": {v: list(s) for v, s in reveal.votes.items()},
    }
    path = f"/api/games/{desk.game_id}/rounds/1"
    answer = change(client, f"{path}?version={shown}", body)
    assert answer.status_code == 409, answer.text
    unchanged(desk, client, before, export)
    assert change(client, f"{path}?version={before['version']}", body).status_code == 200


@pytest.mark.parametrize("version", ["7", -1, 1.5, True, [1]])
def test_a_version_that_is_not_a_whole_number_is_refused(
    desk: Desk, client: TestClient, version: object
) -> None:
    staff_client(client)
    answer = act(client, "undo", version)
    assert (answer.status_code, answer.json()["error"]) == (
        422,
        "the version must be a whole number",
    )
    assert desk.submitted == []


def test_while_the_table_is_cleared_the_state_says_only_to_clear_it(
    desk: Desk, client: TestClient
) -> None:
    clearing(desk)
    now = state(client)
    assert now["waiting_for"] == ["clear the table: 7 tokens are still on it"]
    assert now["problems"] == []
    desk.later()
    desk.see(TableObservation())
    now = state(client)
    assert now["phase"] == "waiting" and "clear the table" not in json.dumps(now)


# The staff page


@pytest.fixture
def client(desk: Desk) -> Iterator[TestClient]:
    with served(desk) as client:
        yield client


def panel(client: TestClient) -> str:
    page = client.get("/staff").text
    return page[page.index('id="staff-pending"') : page.index('id="staff-error"')]


def test_the_staff_page_offers_confirm_only_for_a_proposal(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    waiting = panel(client)
    assert 'data-pending="nothing"' in waiting and 'data-action="confirm"' not in waiting
    assert "Nothing to confirm: round 2 is being laid out" in waiting
    desk.see(table_of(round_of(2), LINEUP))
    proposed = panel(client)
    assert 'data-pending="proposal"' in proposed and 'data-action="confirm"' in proposed
    assert "Round 2: a score is proposed" in proposed
    desk.press(Action.CONFIRM)
    cleared = panel(client)
    assert 'data-pending="clearing"' in cleared and 'data-action="confirm"' not in cleared
    assert 'data-action="next"' in cleared
    assert "clear the table: 7 tokens are still on it" in cleared


def test_the_staff_page_shows_a_problem_that_blocks_scoring(desk: Desk, client: TestClient) -> None:
    staff_client(client)
    two_owners = table_of(round_of(2), LINEUP)
    slots = dict(two_owners.slots)
    slots[1] = SlotContents(("red", "blue"), slots[1].votes)
    desk.see(TableObservation(slots))
    shown = panel(client)
    assert 'data-pending="problem"' in shown and 'data-action="confirm"' not in shown
    assert "Round 2 cannot be scored yet" in shown and "level-problem" in shown


def test_the_stream_carries_the_staff_panel(desk: Desk) -> None:
    reader = JournalReader(desk.path)
    try:
        site = Site(desk, reader, StaffGate(PIN), Pages(), SLOTS)
        desk.see(table_of(round_of(2), LINEUP))
        data = json.loads(live_update(site, desk.snapshot()))
    finally:
        reader.close()
    assert data["version"] == desk.snapshot().version
    assert f'data-version="{data["version"]}"' in data["staff"]
    assert 'data-action="confirm"' in data["staff"]


def test_the_staff_page_speaks_the_tables_french(tmp_path: Path) -> None:
    with (
        playing_desk(tmp_path / "journal.sqlite", 1, language=Language.FRENCH) as desk,
        served(desk) as client,
    ):
        staff_client(client)
        clearing(desk)
        shown = panel(client)
    assert "Manche 2 comptée\u00a0: la table est en train d" in shown
    assert "videz la table\u00a0: 7 jetons y restent" in shown
    assert "La table est vidée\u00a0: manche suivante" in shown
