"""Damaged real game files: a clear error naming the file, or the right score.

Each example starts from a shipped example or a golden rulebook game, damages its
structure (tests/mutations.py) or its table (a vote for one's own card, a stranger's
card, a slot that does not exist, ...) and sometimes its bytes, and runs `companion
score` on it in-process. The command either refuses the file in one line on stderr,
exit status 2, or scores it exactly as the reference scorer of tests/rules scores the
same rounds, and an untouched file exactly as its golden result.
"""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import CompanionError, GameFileError
from companion.gamefile import parse_game
from companion.rules import Game, Reveal, find_ruleset
from tests.mutations import damaged, mutated, respelled, to_json_text
from tests.rules.reference import reference_deltas

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
FILES = sorted((ROOT / "examples").glob("*.json")) + sorted(
    p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json")
)
GAMES = {path.stem: json.loads(path.read_text()) for path in FILES}


@st.composite
def table_mistakes(draw: st.DrawFn, original: dict[str, Any]) -> dict[str, Any]:
    """The game with one round laid out wrong the way players get it wrong."""
    doc: dict[str, Any] = json.loads(json.dumps(original))
    rounds = doc["rounds"]
    players: list[str] = doc["players"]
    rnd = draw(st.sampled_from(rounds))
    cards: dict[str, str] = rnd["cards"]
    votes: dict[str, list[int]] = rnd["votes"]
    voter = draw(st.sampled_from(sorted(votes)))
    slot = draw(st.sampled_from(sorted(cards)))
    how = draw(
        st.sampled_from(
            [
                "vote moved",
                "player renamed",
                "own card",
                "stranger votes",
                "stranger's card",
                "no such slot",
                "moved card",
                "second vote",
                "card owner swapped",
                "seat twice",
                "stranger tells",
                "trap",
            ]
        )
    )
    if how == "vote moved":
        votes[voter] = [int(draw(st.sampled_from(sorted(cards))))]
    elif how == "player renamed":
        return respelled(doc, draw(st.sampled_from(players)), draw(st.sampled_from(["Zoé", "红"])))
    elif how == "own card":
        own = [int(s) for s, owner in cards.items() if owner == voter]
        votes[voter] = own[:1] or [int(slot)]
    elif how == "stranger votes":
        votes[draw(st.sampled_from(["Zoé", "red ", "", "RED"]))] = [int(slot)]
    elif how == "stranger's card":
        cards[slot] = draw(st.sampled_from(["Zoé", "nobody", ""]))
    elif how == "no such slot":
        votes[voter] = [draw(st.sampled_from([0, -1, 13, 99, 10**20]))]
    elif how == "moved card":
        cards[str(draw(st.sampled_from([0, 13, 99])))] = cards.pop(slot)
    elif how == "second vote":
        votes[voter] = [*votes[voter], draw(st.integers(1, 13))]
    elif how == "card owner swapped":
        cards[slot] = draw(st.sampled_from(players))
    elif how == "seat twice":
        players.append(draw(st.sampled_from(players)))
    elif how == "stranger tells":
        doc["first_storyteller"] = "Zoé"
    else:
        rnd["trap"] = draw(st.sampled_from([None, 0, 13, int(slot)]))
    return doc


@st.composite
def game_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """The name of a real game and the bytes of a damaged copy of it."""
    name = draw(st.sampled_from(sorted(GAMES)))
    mistaken = table_mistakes(GAMES[name]).flatmap(lambda doc: mutated(doc, most=1))
    doc = draw(st.one_of(mutated(GAMES[name]), mistaken))
    return name, draw(damaged(to_json_text(doc).encode("utf-8")))


def rescored(doc: dict[str, Any]) -> dict[str, Any]:
    """Deltas and totals by the reference scorer, read from the document directly."""
    rules = find_ruleset(doc["ruleset"]).with_options(doc.get("options", {}))
    game = Game.start(rules, doc["players"], doc["first_storyteller"])
    deltas = []
    for rnd in doc["rounds"]:
        reveal = Reveal(
            {int(slot): owner for slot, owner in rnd["cards"].items()},
            {voter: tuple(slots) for voter, slots in rnd["votes"].items()},
            rnd.get("trap"),
        )
        deltas.append(reference_deltas(game, reveal))
        game = game.play(reveal)
    totals = {scorer: sum(d[scorer] for d in deltas) for scorer in game.totals}
    return {"deltas": deltas, "totals": totals}


@pytest.fixture(scope="module")
def game_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("games") / "game.json"


@settings(
    max_examples=400,
    deadline=None,
    # capsys is read out after every example, so nothing leaks from one to the next.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(game_files())
def test_a_damaged_game_file_is_refused_in_one_line_or_scored_right(
    game_path: Path, capsys: pytest.CaptureFixture[str], file: tuple[str, bytes]
) -> None:
    name, data = file
    game_path.write_bytes(data)
    status = main(["score", str(game_path)])
    out, err = capsys.readouterr()
    event("scored" if status == 0 else "refused")
    if status != 0:
        assert status == 2
        assert out == ""
        assert err.startswith(f"companion score: {game_path}: ")
        assert err.count("\n") == 1 and err.endswith("\n")
        assert "Traceback" not in err
        return
    assert err == ""
    result = json.loads(out)
    doc = json.loads(data.decode("utf-8-sig"))  # a byte-order mark is allowed
    expected = rescored(doc)
    assert [r["deltas"] for r in result["rounds"]] == expected["deltas"]
    assert result["totals"] == expected["totals"]
    if doc == GAMES[name]:
        assert result == json.loads((GOLDEN / f"{name}.expected.json").read_text())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(GAMES)).flatmap(lambda name: mutated(GAMES[name], most=4)))
def test_a_mutated_game_document_parses_and_plays_or_raises_a_companion_error(doc: object) -> None:
    try:
        parse_game(to_json_text(doc)).play()
    except CompanionError as err:
        assert str(err) and "\n" not in str(err)


def game_text(players: str, votes: str = "{}") -> str:
    return (
        f'{{"ruleset": "classic", "players": {players}, "first_storyteller": "red", '
        f'"rounds": [{{"cards": {{}}, "votes": {votes}}}]}}'
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"ruleset": ' + "1" * 5000 + "}", "a number of 5000 digits is far too long"),
        ('{"a": [-' + "9" * 4301 + "]}", "a number of 4301 digits is far too long"),
        (
            game_text('["red", "blue", "\\ud800"]'),
            "players[2] is not text: '\\ud800' holds a lone surrogate",
        ),
        (
            game_text('["red", "a\\nb", "green"]'),
            "players[1] is not text: 'a\\nb' holds a control character",
        ),
        (
            game_text('["red", "blue", "green"]', '{"\\udfff": []}'),
            "a key is not text: '\\udfff' holds a lone surrogate",
        ),
        (
            game_text('["red", "blue", "green"]', '{"blue\\u2028": [1]}'),
            "a key is not text: 'blue\\u2028' holds a line separator",
        ),
    ],
)
def test_regression_long_numbers_and_names_that_break_a_line_are_refused(
    text: str, message: str
) -> None:
    with pytest.raises(GameFileError) as caught:
        parse_game(text)
    assert str(caught.value) == message
