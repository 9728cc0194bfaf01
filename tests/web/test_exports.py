"""A game's downloads: the CSV, the zip with its photos, the BG Stats link."""

import csv
import io
import json
import tempfile
import unicodedata
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import JournalError
from companion.gamefile import GameRecord, parse_game
from companion.journal import History, Journal, RoundImages
from companion.names import name_fault
from companion.rules import Game, Reveal
from companion.rules.seating import TEAM_JOINER
from companion.web.exports import (
    BGSTATS_PUSH_URL,
    CSV_HEADER,
    DIXIT_BGG_ID,
    bgstats_document,
    bgstats_link,
    game_csv,
    game_zip,
    picture_extension,
)
from tests.journal.helpers import example
from tests.rules.strategies import COLOURS

MOMENT = datetime(2026, 11, 21, 20, 15, 0, tzinfo=UTC)
TRICKSTER = '=HYPERLINK("http://x.example")'
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(255, -1, -1)) * 4
OTHER = b"GIF89a" + bytes(100)


def three_players(names: tuple[str, str, str] = ("Ann", TRICKSTER, "Bob")) -> GameRecord:
    """Two rounds of classic for three, over at the round limit of 2; the second name
    wins, the third is second."""
    ann, hyper, bob = names
    doc = {
        "ruleset": "classic",
        "players": [ann, hyper, bob],
        "first_storyteller": ann,
        "options": {"round_limit": 2},
        "rounds": [
            {
                "cards": {"1": ann, "2": hyper, "3": bob, "4": hyper, "5": bob},
                "votes": {hyper: [1], bob: [2]},
            },
            {
                "cards": {"1": ann, "2": hyper, "3": bob, "4": ann, "5": bob},
                "votes": {ann: [3], bob: [2]},
            },
        ],
    }
    return parse_game(json.dumps(doc))


def kit_colours(game: Game) -> dict[str, str]:
    """A kit colour for every player, in seating order."""
    return dict(zip(game.seating.players, COLOURS, strict=False))


def play_into(
    journal: Journal,
    record: GameRecord,
    rounds: int | None = None,
    pictures: tuple[RoundImages, ...] = (),
) -> tuple[int, Game]:
    """Start the game and commit its first `rounds` rounds (all by default), with the
    pictures given for the first rounds."""
    game = record.start
    game_id = journal.start_game(game, kit_colours(game))
    for number, reveal in enumerate(record.reveals[:rounds], start=1):
        game = game.play(reveal)
        images = pictures[number - 1] if number <= len(pictures) else RoundImages(None, None)
        journal.commit_round(game_id, game, frame=images.frame, overlay=images.overlay)
    return game_id, game


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite", clock=lambda: MOMENT) as opened:
        yield opened


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def link_data(link: str) -> dict[str, Any]:
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == BGSTATS_PUSH_URL
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    document: dict[str, Any] = json.loads(data)
    return document


def test_the_csv_has_a_row_per_round_and_player_with_what_lay_on_the_table(
    journal: Journal,
) -> None:
    game_id, _ = play_into(journal, three_players())
    text = game_csv(journal.load(game_id), History(journal).rounds(game_id))
    assert text.endswith("\r\n") and "\r\n" in text.removesuffix("\r\n")
    header, *body = rows(text)
    assert tuple(header) == CSV_HEADER
    at = "2026-11-21T20:15:00+00:00"
    hyper = "'" + TRICKSTER
    assert body == [
        [
            "1",
            "1",
            "Ann",
            "Ann",
            "3",
            "3",
            "'+3 only one player found your card",
            at,
            "no",
            "1",
            "",
        ],
        [
            "1",
            "1",
            "Ann",
            hyper,
            "4",
            "4",
            "'+3 found the storyteller's card; +1 one vote on your cards",
            at,
            "no",
            "2 4",
            "1",
        ],
        [
            "1",
            "1",
            "Ann",
            "Bob",
            "0",
            "0",
            "0 did not find the storyteller's card",
            at,
            "no",
            "3 5",
            "2",
        ],
        [
            "1",
            "2",
            hyper,
            "Ann",
            "0",
            "3",
            "0 did not find the storyteller's card",
            at,
            "no",
            "1 4",
            "3",
        ],
        [
            "1",
            "2",
            hyper,
            hyper,
            "3",
            "7",
            "'+3 only one player found your card",
            at,
            "no",
            "2",
            "",
        ],
        [
            "1",
            "2",
            hyper,
            "Bob",
            "4",
            "4",
            "'+3 found the storyteller's card; +1 one vote on your cards",
            at,
            "no",
            "3 5",
            "2",
        ],
    ]


def test_a_corrected_round_says_so(journal: Journal) -> None:
    record = three_players()
    game_id, _ = play_into(journal, record, rounds=1)
    first = record.reveals[0]
    journal.correct_round(game_id, 1, Reveal(first.cards, {**first.votes, "Bob": (1,)}))
    _, *body = rows(game_csv(journal.load(game_id), History(journal).rounds(game_id)))
    assert {row[CSV_HEADER.index("corrected")] for row in body} == {"yes"}
    assert [row[CSV_HEADER.index("vote_slots")] for row in body] == ["", "1", "1"]


def test_a_teams_game_has_a_row_per_round_and_team_without_slots(journal: Journal) -> None:
    game_id, game = play_into(journal, example("teams-8-players"))
    _, *body = rows(game_csv(journal.load(game_id), History(journal).rounds(game_id)))
    teams = game.seating.teams
    assert len(body) == len(game.played) * len(teams)
    assert [row[3] for row in body[: len(teams)]] == list(teams)
    assert {(row[9], row[10]) for row in body} == {("", "")}
    last = body[-len(teams) :]
    assert {row[3]: int(row[5]) for row in last} == dict(game.totals)


def test_negative_points_stay_numbers_and_text_that_starts_a_formula_is_guarded(
    journal: Journal,
) -> None:
    names = ("-Zed", "@Ann", "Bob")
    game_id, _ = play_into(journal, three_players(names), rounds=1)
    (summary,) = History(journal).rounds(game_id)
    losing = replace(
        summary,
        deltas=MappingProxyType({**summary.deltas, "@Ann": -2}),
        reasons=MappingProxyType({**summary.reasons, "@Ann": ("-2 a house rule",)}),
    )
    _, *body = rows(game_csv(journal.load(game_id), [losing]))
    assert [row[3] for row in body] == ["'-Zed", "'@Ann", "Bob"]
    assert [row[2] for row in body] == ["'-Zed"] * 3
    ann = body[1]
    assert ann[4] == "-2" and int(ann[4]) == -2
    assert ann[6] == "'-2 a house rule"


def test_rounds_that_do_not_match_the_stored_game_are_refused(journal: Journal) -> None:
    record = three_players()
    game_id, game = play_into(journal, record, rounds=1)
    stored = journal.load(game_id)
    journal.commit_round(game_id, game.play(record.reveals[1]))
    with pytest.raises(JournalError, match="changed while it was being read"):
        game_csv(stored, History(journal).rounds(game_id))


def zip_of(journal: Journal, game_id: int, order: slice = slice(None)) -> bytes:
    history = History(journal)
    stored = journal.load(game_id)
    rounds = history.rounds(game_id)
    numbers = [r.number for r in rounds][order]
    return game_zip(
        game_id,
        history.export(game_id),
        game_csv(stored, rounds),
        ((n, history.images(game_id, n)) for n in numbers),
        started_at=stored.started_at,
    )


def test_the_zip_holds_the_game_file_the_csv_and_the_pictures(journal: Journal) -> None:
    pictures = (RoundImages(JPEG, PNG), RoundImages(OTHER, JPEG))
    game_id, _ = play_into(journal, three_players(), pictures=pictures)
    archive = zipfile.ZipFile(io.BytesIO(zip_of(journal, game_id)))
    assert archive.namelist() == [
        "game-1/README.txt",
        "game-1/game.json",
        "game-1/rounds.csv",
        "game-1/round-01-frame.jpg",
        "game-1/round-01-overlay.png",
        "game-1/round-02-frame.bin",
        "game-1/round-02-overlay.jpg",
    ]
    assert archive.testzip() is None
    assert archive.read("game-1/round-01-frame.jpg") == JPEG
    assert archive.read("game-1/round-01-overlay.png") == PNG
    assert archive.read("game-1/round-02-frame.bin") == OTHER
    kinds = {info.filename: info.compress_type for info in archive.infolist()}
    assert kinds["game-1/round-01-frame.jpg"] == zipfile.ZIP_STORED
    assert kinds["game-1/round-01-overlay.png"] == zipfile.ZIP_STORED
    assert kinds["game-1/rounds.csv"] == zipfile.ZIP_DEFLATED
    assert {info.date_time for info in archive.infolist()} == {(2026, 11, 21, 20, 15, 0)}
    exported = archive.read("game-1/game.json").decode()
    assert exported == History(journal).export(game_id)
    assert dict(parse_game(exported).play().totals) == dict(journal.load(game_id).game.totals)
    csv_text = archive.read("game-1/rounds.csv").decode()
    assert csv_text == game_csv(journal.load(game_id), History(journal).rounds(game_id))
    readme = archive.read("game-1/README.txt").decode()
    assert "companion score game.json" in readme and "rounds.csv" in readme


def test_the_same_game_gives_the_same_zip_bytes(journal: Journal) -> None:
    record = example("odyssey-8-players")
    pictures = tuple(RoundImages(JPEG + bytes([n]), PNG + bytes([n])) for n in range(30))
    game_id, _ = play_into(journal, record, pictures=pictures)
    first = zip_of(journal, game_id)
    assert zip_of(journal, game_id) == first
    assert zip_of(journal, game_id, slice(None, None, -1)) == first


def test_a_game_without_a_start_time_is_dated_at_the_first_day_of_zip() -> None:
    archive = zipfile.ZipFile(io.BytesIO(game_zip(7, "{}", "game\r\n", [])))
    assert archive.namelist() == ["game-7/README.txt", "game-7/game.json", "game-7/rounds.csv"]
    assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_pictures_of_one_round_given_twice_are_refused() -> None:
    images = RoundImages(JPEG, None)
    with pytest.raises(ValueError, match="round 2"):
        game_zip(1, "{}", "", [(2, images), (2, images)])


@pytest.mark.parametrize(
    ("data", "extension"),
    [(JPEG, ".jpg"), (PNG, ".png"), (OTHER, ".bin"), (b"", ".bin"), (b"\xff\xd8", ".bin")],
)
def test_a_picture_is_named_by_its_first_bytes(data: bytes, extension: str) -> None:
    assert picture_extension(data) == extension


def test_the_bgstats_link_of_a_finished_game_marks_the_winner(journal: Journal) -> None:
    game_id, _ = play_into(journal, three_players())
    stored = journal.load(game_id)
    data = link_data(bgstats_link(stored))
    assert data == bgstats_document(stored)
    assert data == {
        "sourceName": "Dixit table companion",
        "sourcePlayId": "game-1-20261121T201500Z",
        "playDate": "2026-11-21 20:15:00",
        "game": {
            "name": "Dixit",
            "bggId": DIXIT_BGG_ID,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": "dixit",
        },
        "board": "Dixit (2021 edition)",
        "players": [
            {
                "name": "Ann",
                "sourcePlayerId": "Ann",
                "score": 3,
                "winner": False,
                "startPlayer": True,
                "rank": 3,
            },
            {
                "name": TRICKSTER,
                "sourcePlayerId": TRICKSTER,
                "score": 7,
                "winner": True,
                "startPlayer": False,
                "rank": 1,
            },
            {
                "name": "Bob",
                "sourcePlayerId": "Bob",
                "score": 4,
                "winner": False,
                "startPlayer": False,
                "rank": 2,
            },
        ],
    }
    assert DIXIT_BGG_ID == 39856


def test_an_unfinished_game_is_logged_with_no_winner(journal: Journal) -> None:
    game_id, _ = play_into(journal, three_players(), rounds=1)
    players = link_data(bgstats_link(journal.load(game_id)))["players"]
    assert [(p["name"], p["score"], p["winner"]) for p in players] == [
        ("Ann", 3, False),
        (TRICKSTER, 4, False),
        ("Bob", 0, False),
    ]
    assert not any("rank" in p for p in players)


def test_an_abandoned_game_is_logged_with_no_winner(journal: Journal) -> None:
    game_id, _ = play_into(journal, three_players(), rounds=1)
    journal.abandon_game(game_id)
    players = link_data(bgstats_link(journal.load(game_id)))["players"]
    assert not any(p["winner"] for p in players)


def test_in_teams_every_player_has_the_team_score_and_win(journal: Journal) -> None:
    game_id, game = play_into(journal, example("teams-8-players"))
    assert game.outcome is not None
    players = {p["name"]: p for p in link_data(bgstats_link(journal.load(game_id)))["players"]}
    assert list(players) == list(game.seating.players)
    for team, (first, second) in zip(game.seating.teams, game.seating.pairs, strict=True):
        won = team in game.outcome.winners
        for member in (first, second):
            assert players[member]["score"] == game.totals[team]
            assert players[member]["winner"] is won
        assert players[first]["rank"] == players[second]["rank"]
    assert any(p["winner"] for p in players.values())


NAMES = st.one_of(
    st.text(min_size=1, max_size=10),
    st.tuples(st.sampled_from(["=", "-", "@"]), st.text(max_size=8)).map("".join),
).filter(lambda name: name_fault(name) is None and TEAM_JOINER not in name)


def guarded(name: str) -> str:
    return "'" + name if name[0] in "=+-@" else name


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(NAMES, min_size=3, max_size=3, unique_by=lambda n: unicodedata.normalize("NFC", n)))
def test_any_name_comes_back_from_the_csv_and_the_link(names: list[str]) -> None:
    ann, hyper, bob = names
    with (
        tempfile.TemporaryDirectory() as folder,
        Journal(Path(folder) / "j.sqlite", clock=lambda: MOMENT) as journal,
    ):
        game_id, _ = play_into(journal, three_players((ann, hyper, bob)))
        stored = journal.load(game_id)
        text = game_csv(stored, History(journal).rounds(game_id))
        link = bgstats_link(stored)
    _, *body = rows(text)
    assert [row[3] for row in body] == [guarded(n) for n in names] * 2
    assert [row[2] for row in body] == [guarded(ann)] * 3 + [guarded(hyper)] * 3
    data = link_data(link)
    assert [p["name"] for p in data["players"]] == names
    assert [p["sourcePlayerId"] for p in data["players"]] == names
