"""A journal cut short or overwritten at random places: found, kept aside, salvaged.

One real journal (three finished games and one being played, every round with its
pictures) is damaged at seeded random places: cut at 50 offsets, and overwritten
with random bytes at 50 places in its middle half. Whatever the damage, opening it
and `Journal.open_or_recover` raise nothing but the companion's own errors; damage
found on opening is moved aside and every game is salvaged as a prefix of itself
into a fresh journal that takes new games. Damage inside a round's text of the game
being played is found on opening too (it is read back to be resumed); damage not found
on opening lies in bytes nothing uses, in a picture (nothing checks them), or in the
text of a finished game, which `companion history` and `companion doctor` report.
"""

import random
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.errors import JournalCorruptError, JournalError
from companion.journal import GameStatus, History, Journal, RoundImages, RoundSummary
from companion.journal.recovery import SIDE_FILES
from companion.rules import Reveal
from tests.journal.helpers import example, frame_of, play_into

FINISHED = ("party-1e-7-players", "odyssey-8-players", "teams-8-players")
PLAYING = "classic-1e-4-players"
PLAYED = 9
"""Rounds of the game being played."""
CUTS = 50
OVERWRITES = 50
MOST_BYTES = 256
"""The longest run of random bytes written over the journal."""
SEED = 20261122


@dataclass(frozen=True)
class Original:
    """The sound journal, as bytes, and what each of its games holds."""

    data: bytes
    page_size: int
    reveals: dict[int, tuple[Reveal, ...]]
    summaries: dict[int, tuple[RoundSummary, ...]]
    """Each game's rounds as `companion history` lists them: stored scores, reasons, times."""


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Original:
    path = tmp_path_factory.mktemp("original") / "journal.sqlite"
    with Journal(path) as journal:
        for stem in FINISHED:
            play_into(journal, example(stem))
        play_into(journal, example(PLAYING), PLAYED)
        summaries = {g.id: History(journal).rounds(g.id) for g in History(journal).games()}
    assert not Path(f"{path}-wal").exists()
    conn = sqlite3.connect(path)
    (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    records = [example(stem) for stem in FINISHED] + [example(PLAYING)]
    reveals = {
        i: tuple(r.reveals[:PLAYED] if i == len(records) else r.reveals)
        for i, r in enumerate(records, start=1)
    }
    return Original(path.read_bytes(), page_size, reveals, summaries)


def damaged_copy(folder: Path, data: bytes) -> Path:
    folder.mkdir()
    path = folder / "journal.sqlite"
    path.write_bytes(data)
    return path


def held(journal: Journal) -> dict[int, tuple[Reveal, ...]]:
    """Every game the journal holds, replayed, as the reveals of its rounds."""
    return {
        g.id: tuple(p.score.round.reveal for p in journal.load(g.id).game.played)
        for g in History(journal).games()
    }


def pictures_of(number: int) -> RoundImages:
    """The pictures `play_into` keeps with round `number` of every game."""
    return RoundImages(frame_of(number), frame_of(-number, 500))


def check_salvaged(path: Path, damaged: bytes, message: str | None, original: Original) -> int:
    """The damaged file is kept as it was; the fresh journal holds each game as a
    prefix of itself, resumes at most one, takes a new game, and is sound when opened
    again. Returns the rounds saved."""
    assert message is not None
    (aside,) = (
        p for p in path.parent.glob("journal.sqlite.corrupt-*") if not p.name.endswith(SIDE_FILES)
    )
    assert aside.read_bytes() == damaged
    with Journal(path) as journal:
        games = held(journal)
        for game_id, reveals in games.items():
            assert reveals == original.reveals[game_id][: len(reveals)]
        assert len([g for g in History(journal).games() if g.status is GameStatus.PLAYING]) <= 1
        journal.resume()
        new_id, _ = play_into(journal, example(PLAYING), 1)
    with Journal(path) as reopened:
        assert len(reopened.load(new_id).game.played) == 1
    return sum(len(reveals) for reveals in games.values())


def test_a_journal_cut_anywhere_before_its_last_page_is_found_and_salvaged(
    tmp_path: Path, original: Original
) -> None:
    rng = random.Random(SEED)
    size = len(original.data)
    saved: list[int] = []
    for attempt in range(CUTS):
        damaged = original.data[: rng.randrange(1, size - original.page_size)]
        path = damaged_copy(tmp_path / f"cut-{attempt}", damaged)
        with pytest.raises(JournalCorruptError, match="the journal is damaged"):
            Journal(path)
        journal, message = Journal.open_or_recover(path)
        journal.close()
        saved.append(check_salvaged(path, damaged, message, original))
    whole = sum(len(r) for r in original.reveals.values())
    print(
        f"\n{CUTS} cut journals: all found on opening and salvaged, "
        f"{min(saved)} to {max(saved)} of {whole} rounds saved"
    )


def test_random_bytes_in_the_middle_never_raise_foreign_errors_nor_lose_a_readable_round(
    tmp_path: Path, original: Original
) -> None:
    rng = random.Random(SEED + 1)
    size = len(original.data)
    outcomes: Counter[str] = Counter()
    for attempt in range(OVERWRITES):
        at = rng.randrange(size // 4, 3 * size // 4)
        noise = rng.randbytes(rng.randint(1, MOST_BYTES))
        damaged = original.data[:at] + noise + original.data[at + len(noise) :]
        path = damaged_copy(tmp_path / f"overwritten-{attempt}", damaged)
        journal, message = Journal.open_or_recover(path)
        journal.close()
        if message is not None:
            check_salvaged(path, damaged, message, original)
            outcomes["found on opening and salvaged"] += 1
            continue
        with Journal(path) as journal:
            try:
                games = held(journal)
                summaries = {game_id: History(journal).rounds(game_id) for game_id in games}
                pictures = [
                    History(journal).images(game_id, number)
                    for game_id, reveals in games.items()
                    for number in range(1, len(reveals) + 1)
                ]
            except JournalError:
                outcomes["found only when a game is read"] += 1
                continue
        assert games == original.reveals
        if any(images.damaged for images in pictures):
            outcomes["games whole, a picture found damaged when read"] += 1
        elif summaries != original.summaries:
            outcomes["games whole, a stored score or reason changed unnoticed"] += 1
        elif pictures != [
            pictures_of(number)
            for reveals in games.values()
            for number in range(1, len(reveals) + 1)
        ]:
            outcomes["games whole, a picture changed unnoticed"] += 1
        else:
            outcomes["games and pictures whole (bytes nothing uses)"] += 1
    print(f"\n{OVERWRITES} overwritten journals: {dict(outcomes)}")
    assert outcomes["games whole, a picture changed unnoticed"] == 0
    assert outcomes["games whole, a picture found damaged when read"] > 0


def round_text_offset(path: Path, number: int) -> int:
    """Where the stored reveal of round `number` of game 1 lies in the file."""
    conn = sqlite3.connect(path)
    (text,) = conn.execute(
        "SELECT reveal FROM rounds WHERE game_id = 1 AND number = ?", (number,)
    ).fetchone()
    conn.close()
    data = path.read_bytes()
    at = data.find(text.encode())
    assert at > 0 and data.find(text.encode(), at + 1) < 0
    return at


def test_a_byte_damaged_inside_a_rounds_text_is_found_on_opening(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        play_into(journal, example(PLAYING), 5)
    data = bytearray(path.read_bytes())
    data[round_text_offset(path, 5) + 10] = 0xFF
    path.write_bytes(bytes(data))
    journal, message = Journal.open_or_recover(path)
    with journal:
        resumed = journal.resume()
    assert message is not None
    assert resumed is not None
    assert len(resumed.game.played) == 4


def test_a_journal_cut_in_its_last_page_is_found_on_opening(
    tmp_path: Path, original: Original
) -> None:
    cut = original.data[: len(original.data) - original.page_size // 2]
    path = damaged_copy(tmp_path / "cut", cut)
    with pytest.raises(JournalCorruptError):
        Journal(path)
