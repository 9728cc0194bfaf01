"""The table's setup kept step by step, games given up, and names offered again."""

import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError, UnknownGameError
from companion.gamefile import GameRecord
from companion.journal import GameStatus, History, Journal
from companion.journal.documents import dumps, header_document, round_documents, score_columns
from companion.journal.file import JournalFile
from companion.journal.schema import MIGRATIONS, SCHEMA_VERSION
from companion.rules import Game, find_ruleset
from tests.journal.helpers import colours, example, play_into

STAMP = "2026-11-21T21:05:09+00:00"
DRAFT = {"language": "fr", "ruleset": "odyssey", "seats": ["red", "blue", "green"]}


def start(journal: Journal, players: dict[str, str]) -> int:
    """Start a classic game for `players` (name to kit colour), seated in that order."""
    names = tuple(players)
    game = Game.start(find_ruleset("classic-1e"), names, names[0])
    return journal.start_game(game, players)


def test_the_setup_kept_is_read_back_after_a_restart(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.save_setup("names", DRAFT)
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.saved_setup() == ("names", DRAFT)


def test_a_second_save_replaces_the_first(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.save_setup("seats", DRAFT)
        journal.save_setup("options", {**DRAFT, "options": {"target": 20}})
        assert journal.saved_setup() == ("options", {**DRAFT, "options": {"target": 20}})
    conn = sqlite3.connect(tmp_path / "journal.sqlite")
    try:
        assert conn.execute("SELECT count(*) FROM setup").fetchone() == (1,)
    finally:
        conn.close()


def test_a_new_journal_has_no_setup_kept(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.saved_setup() is None


@pytest.mark.parametrize(
    "draft",
    ["[1, 2]", "not json", '"a string"', "{", "[" * 100_000, b"\xff\xfe{}"],
)
def test_a_damaged_draft_reads_as_no_setup(tmp_path: Path, draft: str | bytes) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.save_setup("names", DRAFT)
    conn = sqlite3.connect(path)
    conn.text_factory = bytes
    conn.execute("UPDATE setup SET draft = CAST(? AS TEXT)", (draft,))
    conn.commit()
    conn.close()
    with Journal(path) as journal:
        assert journal.saved_setup() is None
    with JournalFile(path) as reader:
        assert reader.saved_setup() is None


def test_abandoning_the_game_being_played_keeps_it_but_stops_its_resume(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id, game = play_into(journal, example("classic-1e-4-players"), 3)
        journal.abandon_game(game_id)
        assert journal.resume() is None
        stored = journal.load(game_id)
    assert (stored.status, stored.game) == (GameStatus.ABANDONED, game)
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.resume() is None


def test_only_a_game_being_played_can_be_abandoned(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        finished, _ = play_into(journal, example("classic-1e-4-players"))
        with pytest.raises(JournalError, match="game 1 is finished, so it cannot be abandoned"):
            journal.abandon_game(finished)
        playing, _ = play_into(journal, example("party-1e-7-players"), 1)
        journal.abandon_game(playing)
        with pytest.raises(JournalError, match="game 2 is abandoned, so it cannot be abandoned"):
            journal.abandon_game(playing)
        with pytest.raises(UnknownGameError, match="there is no game 3"):
            journal.abandon_game(3)
        assert [g.status for g in History(journal).games()] == [
            GameStatus.ABANDONED,
            GameStatus.FINISHED,
        ]


def test_recent_names_come_newest_game_first_in_seating_order_each_once(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.recent_names() == ()
        start(journal, {"Ann": "red", "Bob": "blue", "Cleo": "green"})
        start(journal, {"Dan": "red", "Ann": "blue", "Eve": "green", "Fay": "yellow"})
        start(journal, {"Gus": "pink", "Bob": "grey", "Dan": "brown"})
        assert journal.recent_names() == ("Gus", "Bob", "Dan", "Ann", "Eve", "Fay", "Cleo")
        assert journal.recent_names(limit=4) == ("Gus", "Bob", "Dan", "Ann")
        assert journal.recent_names(limit=0) == ()


def test_recent_names_skip_the_kit_colours_names_in_english_and_french(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        start(journal, {"Red": "red", "Ann": "blue", "Vert": "green", "Marron": "brown"})
        start(journal, {"Rouge": "red", "Cyan": "cyan", "Bob": "grey"})
        play_into(journal, example("classic-1e-4-players"), 1)  # players named "red", "blue"...
        assert journal.recent_names() == ("Bob", "Ann")


def test_a_name_that_is_another_colours_word_is_a_name(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        start(journal, {"Rose": "red", "Violet": "violet", "Gris": "blue"})
        assert journal.recent_names() == ("Rose", "Gris")


def test_recent_names_pass_over_a_damaged_game(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        start(journal, {"Ann": "red", "Bob": "blue", "Cleo": "green"})
        start(journal, {"Dan": "red", "Eve": "blue", "Fay": "green"})
        start(journal, {"Gus": "red", "Hal": "blue", "Ida": "green"})
    conn = sqlite3.connect(path)
    conn.execute('UPDATE games SET colours = \'{"Dan": "red"}\' WHERE id = 2')
    conn.execute("UPDATE games SET header = CAST(X'FF' AS TEXT) WHERE id = 3")
    conn.commit()
    conn.close()
    with JournalFile(path) as reader:
        assert reader.recent_names() == ("Ann", "Bob", "Cleo")


def version_1_journal(path: Path, record: GameRecord, rounds: int) -> Game:
    """A journal as the first schema made it, written with sqlite3 alone: one game being
    played, its first `rounds` rounds stored; returns the game as played."""
    game = record.start
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute(
        "INSERT INTO games (id, started_at, header, colours, status) "
        "VALUES (1, ?, ?, ?, 'playing')",
        (STAMP, dumps(header_document(game)), dumps(colours(game))),
    )
    for number, reveal in enumerate(record.reveals[:rounds], start=1):
        game = game.play(reveal)
        conn.execute(
            "INSERT INTO rounds VALUES (1, ?, ?, ?, ?, ?, ?)",
            (number, dumps(round_documents(game)[-1]), *score_columns(game.played[-1]), STAMP),
        )
    conn.close()
    return game


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        return int(version)
    finally:
        conn.close()


def test_a_version_1_journal_is_read_as_it_is_and_migrated_by_its_writer(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    game = version_1_journal(path, example("classic-1e-4-players"), 2)
    with JournalFile(path) as reader:
        assert [(g.id, g.rounds) for g in History(reader).games()] == [(1, 2)]
        assert reader.load(1).game == game
        assert reader.recent_names() == ()
        assert reader.saved_setup() is None
    assert user_version(path) == 1

    with Journal(path) as journal:
        resumed = journal.resume()
        assert resumed is not None
        assert (resumed.id, resumed.status, resumed.game) == (1, GameStatus.PLAYING, game)
        assert journal.saved_setup() is None
        journal.save_setup("language", DRAFT)
    assert user_version(path) == SCHEMA_VERSION == 4
    with JournalFile(path) as reader:
        assert reader.saved_setup() == ("language", DRAFT)
        assert reader.load(1).game == game
