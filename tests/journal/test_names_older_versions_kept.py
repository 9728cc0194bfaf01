"""A journal written by an older companion is read as it was written, never taken for damaged.

The name rule (`companion.names`) guards where names enter; a game already stored
with names it would refuse now (nothing visible, private use, equal in NFC) was let
in by the version that wrote it and must replay and resume, not be moved aside. And
a bug in the code that replays a game is a bug, not damage: it must not move the
journal aside either.
"""

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.gamefile import GameRecord, game_document
from companion.journal import GameSummary, History, Journal
from companion.journal.documents import dumps, record
from companion.journal.file import JournalFile
from companion.rules import Reveal
from tests.journal.helpers import example, play_into

OLDER_NAMES = {
    "invisible and private use": {"red": "\u200b", "blue": "\ue000"},
    "equal in NFC": {"red": "é", "blue": "e\u0301"},
    "a lone combining accent": {"green": "\u0301"},
}


def renamed(value: Any, names: dict[str, str]) -> Any:
    """A JSON value with every string and key equal to an old name replaced."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(item, names) for item in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    return value


def rename_behind_the_journal(path: Path, names: dict[str, str]) -> None:
    """Rewrite the stored game's names in SQL, as an older version would have stored them."""
    conn = sqlite3.connect(path)
    with conn:
        for table, columns in (
            ("games", ("header", "colours")),
            ("rounds", ("reveal", "deltas", "reasons", "totals")),
        ):
            for rowid, *texts in conn.execute(f"SELECT rowid, {', '.join(columns)} FROM {table}"):
                new = [
                    json.dumps(_renamed_column(column, json.loads(t), names), ensure_ascii=False)
                    for column, t in zip(columns, texts, strict=True)
                ]
                sets = ", ".join(f"{c} = ?" for c in columns)
                conn.execute(f"UPDATE {table} SET {sets} WHERE rowid = ?", (*new, rowid))
    conn.close()


def _renamed_column(column: str, value: Any, names: dict[str, str]) -> Any:
    """The players of the example are named after their colours: in the colours
    column only the players (the keys) are renamed, the kit colours stay."""
    if column == "colours":
        return {names.get(k, k): v for k, v in value.items()}
    return renamed(value, names)


@pytest.mark.parametrize("names", OLDER_NAMES.values(), ids=OLDER_NAMES.keys())
def test_a_game_stored_with_names_now_refused_resumes_and_is_not_moved_aside(
    tmp_path: Path, names: dict[str, str]
) -> None:
    path = tmp_path / "journal.sqlite"
    game = example("classic-1e-4-players")
    with Journal(path) as journal:
        play_into(journal, game, 2, images=False)
    rename_behind_the_journal(path, names)

    journal, message = Journal.open_or_recover(path)
    with journal:
        assert message is None
        stored = journal.resume()
        assert stored is not None and len(stored.game.played) == 2
        expected = tuple(names.get(p, p) for p in game.start.seating.players)
        assert stored.game.seating.players == expected
        assert set(stored.colours) == set(expected)
        journal.commit_round(stored.id, stored.game.play(renamed_reveal(game, 3, names)))
    with JournalFile(path) as reader:
        (listed,) = History(reader).games()
        assert isinstance(listed, GameSummary) and listed.rounds == 3
    assert not list(tmp_path.glob("*corrupt*"))


def renamed_reveal(game: GameRecord, number: int, names: dict[str, str]) -> Reveal:
    """Round `number` of an example game with its players renamed, read back as the
    journal reads a stored round."""
    played = game.start
    for reveal in game.reveals[:number]:
        played = played.play(reveal)
    doc = renamed(game_document(played), names)
    rounds = doc.pop("rounds")
    return record(dumps(doc), [dumps(r) for r in rounds]).reveals[number - 1]


@pytest.mark.parametrize("bug", [AttributeError, TypeError, KeyError])
def test_a_bug_while_replaying_is_raised_and_the_journal_stays_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bug: type[Exception]
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example("classic-1e-4-players"), 2, images=False)

    def broken(self: GameRecord) -> None:
        raise bug("a bug in the code, not in the file")

    monkeypatch.setattr(GameRecord, "play", broken)
    with pytest.raises(bug, match="a bug in the code"):
        Journal.open_or_recover(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite", "journal.sqlite.lock"]
