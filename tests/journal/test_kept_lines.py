"""The list of games from kept lines: always what replaying every game gives now.

The writer keeps each game's line with the digest of the texts it was replayed from;
the list takes a kept line only while those texts are unchanged. Whatever the writer
did (commits, undo, corrections, abandoning, importing, restoring) and whatever was
changed behind its back, the list must equal the games replayed one by one.
"""

import json
import sqlite3
import tempfile
from contextlib import suppress
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CorrectionError
from companion.journal import DamagedGame, GameStatus, GameSummary, History, Journal
from companion.journal.documents import dumps, round_documents
from companion.journal.file import JournalFile
from companion.journal.recovery import salvage
from companion.rules import Game, Reveal
from tests.journal.helpers import (
    EXAMPLES,
    change,
    colours,
    example,
    play_into,
    replayed,
    rows,
)
from tests.rules.strategies import legal_reveals


def listed(path: Path) -> tuple[GameSummary | DamagedGame, ...]:
    """The list of games as `companion history` reads it, checked against the replay."""
    with JournalFile(path) as reader:
        history = History(reader)
        games = history.games()
        assert games == replayed(history)
        return games


def totals_of(line: GameSummary | DamagedGame) -> dict[str, int]:
    assert isinstance(line, GameSummary), line
    return dict(line.totals)


def blue_finds_the_storyteller(game: Game) -> Game:
    """The classic example with round 1 as if blue had voted for red's card: legal,
    and scored differently."""
    first = game.played[0].score.round.reveal
    return game.corrected(1, Reveal(first.cards, {**first.votes, "blue": (2,)}))


def test_the_list_equals_the_replay_after_every_kind_of_write(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        finished, game = play_into(journal, example("classic-1e-4-players"), images=False)
        assert listed(path)[0] == History(journal).game(finished)
        back = journal.undo_round(finished)
        assert totals_of(listed(path)[0]) == dict(back.totals)
        journal.commit_round(finished, game)
        reveal = blue_finds_the_storyteller(game).played[0].score.round.reveal
        fixed = journal.correct_round(finished, 1, reveal)
        assert totals_of(listed(path)[0]) == dict(fixed.totals) != dict(game.totals)
        given_up, _ = play_into(journal, example("party-1e-7-players"), 3, images=False)
        journal.abandon_game(given_up)
        imported = example("teams-8-players").play()
        journal.import_game(imported, colours(imported), journal.load(1).started_at, "teams")
        play_into(journal, example("odyssey-8-players"), 4, images=False)
    games = listed(path)
    assert [(g.id, g.status, g.rounds) for g in games if isinstance(g, GameSummary)] == [
        (4, GameStatus.PLAYING, 4),
        (3, GameStatus.FINISHED, 10),
        (2, GameStatus.ABANDONED, 3),
        (1, GameStatus.FINISHED, 15),
    ]
    assert totals_of(games[1]) == dict(imported.totals)
    with Journal(tmp_path / "restored.sqlite") as fresh:
        fresh.restore(salvage(path))
    assert listed(tmp_path / "restored.sqlite") == games


def test_a_round_changed_behind_the_journals_back_is_listed_as_it_replays_now(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _, game = play_into(journal, example("classic-1e-4-players"), images=False)
        play_into(journal, example("party-1e-7-players"), images=False)
    listed(path)
    other = blue_finds_the_storyteller(game)
    change(
        path,
        "UPDATE rounds SET reveal = ? WHERE game_id = 1 AND number = 1",
        (dumps(round_documents(other)[0]),),
    )
    party = listed(path)[0]
    assert totals_of(listed(path)[1]) == dict(other.totals) != dict(game.totals)
    change(
        path,
        "UPDATE rounds SET reveal = replace(reveal, '\"trap\":', '\"trap\":9') "
        "WHERE game_id = 2 AND number = 5",
    )
    damaged = listed(path)[0]
    assert isinstance(party, GameSummary)
    assert isinstance(damaged, DamagedGame) and damaged.damage.startswith("round 5 is damaged")


def test_a_damaged_game_row_lists_that_game_as_damaged_and_the_others_from_their_lines(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        for _ in range(5):
            play_into(journal, example("party-1e-7-players"), 3, images=False)
    change(path, 'UPDATE games SET colours = \'{"red": "red"}\' WHERE id = 1')
    change(path, "UPDATE games SET header = CAST(X'FF' AS TEXT) WHERE id = 2")
    change(path, "UPDATE games SET started_at = CAST(X'FF' AS TEXT) WHERE id = 3")
    conn = sqlite3.connect(path)
    with conn:  # as a failing card would leave it: SQLite's check is not asked
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("UPDATE games SET status = CAST(X'FF' AS TEXT) WHERE id = 4")
    conn.close()
    sound, *damaged = listed(path)
    assert isinstance(sound, GameSummary) and sound.id == 5
    assert [(type(line), line.id) for line in damaged] == [(DamagedGame, n) for n in (4, 3, 2, 1)]
    assert "colours" in str(damaged[-1])


def test_a_damaged_kept_line_or_digest_is_passed_over_and_the_game_replayed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        for record in EXAMPLES:
            play_into(journal, example(record.stem), 4, images=False)
    before = listed(path)
    lines = rows(path, "SELECT game_id, line FROM game_lines ORDER BY game_id")
    damage = [
        ("line", "not a line"),
        ("line", json.dumps({**json.loads(lines[1][1]), "totals": [["red", "12"]]})),
        ("line", sqlite3.Binary(b"\xff\xfe")),
        ("digest", sqlite3.Binary(bytes(32))),
    ]
    for game_id, (column, value) in enumerate(damage, start=1):
        change(
            path,
            f"UPDATE game_lines SET {column} = CAST(? AS {'BLOB' if column == 'digest' else 'TEXT'}) "
            "WHERE game_id = ?",
            (value, game_id),
        )
    assert listed(path) == before
    change(path, "DELETE FROM game_lines")
    assert listed(path) == before


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.data())
def test_after_any_commits_undos_and_corrections_the_list_equals_every_game_replayed(
    data: st.DataObject,
) -> None:
    records = [example(record.stem) for record in EXAMPLES]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite"
        played: dict[int, Game] = {}
        with Journal(path) as journal:
            for _ in range(data.draw(st.integers(1, 3), label="games")):
                record = data.draw(st.sampled_from(records), label="example")
                game_id = journal.start_game(record.start, colours(record.start))
                game = record.start
                for _ in range(data.draw(st.integers(0, 12), label="steps")):
                    step = data.draw(st.sampled_from(["commit", "undo", "correct"]), label="step")
                    more = game.outcome is None and len(game.played) < len(record.reveals)
                    if step == "commit" and more:
                        game = game.play(record.reveals[len(game.played)])
                        journal.commit_round(game_id, game)
                    elif step == "undo" and game.played:
                        game = journal.undo_round(game_id)
                    elif step == "correct" and game.played:
                        number = data.draw(st.integers(1, len(game.played)), label="round")
                        reveal = data.draw(legal_reveals(game.before_round(number)))
                        with suppress(CorrectionError):
                            game = journal.correct_round(game_id, number, reveal)
                played[game_id] = game
        games = listed(path)
    assert [line.id for line in games] == sorted(played, reverse=True)
    for line in games:
        assert isinstance(line, GameSummary)
        game = played[line.id]
        assert (line.rounds, dict(line.totals)) == (len(game.played), dict(game.totals))
