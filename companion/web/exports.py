"""A game's downloads: its rounds as CSV, a zip with its photos, a BG Stats link.

Pure functions from what the journal hands back to the bytes or text a phone
downloads: no request, no file, no clock, so the same game always gives the same
download.

The CSV is a data format, so its header and cells stay English (reasons as
`companion score` prints them), like the JSON interface. Player names are typed by
strangers on phones, and a cell such as `=HYPERLINK(...)` would run as a formula in
a spreadsheet: every text cell starting with = + - @, a tab or a carriage return
gets a leading apostrophe (so do reasons such as `'+3 found the storyteller's card`).
Number cells (points, totals, round and game numbers) are never guarded: -2 stays
the number -2.

The BG Stats link is the app's documented "push link"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
`https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>` opens the app's
import dialog on the player's own phone, where they match the game and players to
their own and save the play, so the Pi never holds anyone's account. The JSON has
the documented keys `game` (`name`, `bggId`, `highestWins`, `noPoints`,
`sourceGameId`), `board`, `playDate` ("2020-10-23 19:16:58") and `players`
(`name`, `score`, `winner`, `rank`, `startPlayer`, `sourcePlayerId`), with
`sourceName` and `sourcePlayId`, which name the app sending the play and the play
itself, so that importing it twice updates the play instead of adding one.
"""

import csv
import io
import json
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from companion.errors import JournalError
from companion.journal import GameStatus, RoundImages, RoundSummary, StoredGame
from companion.phrases import phrase
from companion.rules import PlayedRound

CSV_HEADER = (
    "game",
    "round",
    "storyteller",
    "scorer",
    "points",
    "total",
    "reasons",
    "confirmed_at",
    "corrected",
    "card_slots",
    "vote_slots",
)
"""The columns of `game_csv`: a scorer's cards and votes are the slots, space-separated,
of a player's cards and dials that round (empty for a team, which lays no card itself)."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula at the start of a cell."""

BGSTATS_PUSH_URL = "https://app.bgstatsapp.com/createPlay.html"
"""Where BG Stats takes a pushed play; `bgstats://app.bgstatsapp.com/createPlay.html`
is documented to work as well, but the https link also opens where the app is not
installed (on the app's own web page)."""

BGSTATS_SOURCE = "Dixit table companion"
"""`sourceName`: BG Stats remembers a player's matches of games and players per
source, so this never changes."""

DIXIT_BGG_ID = 39856
"""Dixit on BoardGameGeek."""

EARLIEST_ZIP_TIME = datetime(1980, 1, 1, tzinfo=UTC)
"""The first moment a zip file can record."""

_JPEG = b"\xff\xd8\xff"
_PNG = b"\x89PNG"

_README = """\
Game {game} from the journal of the Dixit table companion.

game.json
    The game as a game file: the edition, its options, the players, and what lay
    on the table in each round (whose card was on which slot, who voted where).
    `companion score game.json` scores it again and gives the journal's totals.

rounds.csv
    One row per round and scorer (a player, or a team in the team editions):
    the storyteller, the points, the total after the round, the reasons, when the
    round was confirmed (UTC), whether it was corrected since, and the slots of the
    player's cards and votes. UTF-8, comma-separated (RFC 4180). A text cell that
    starts with = + - or @ has an apostrophe in front, so that no spreadsheet runs it.

round-NN-frame.jpg
    The camera's picture of the table that round NN was scored from.

round-NN-overlay.png (or .jpg)
    The same picture with what the camera read drawn over it.
"""


def game_csv(stored: StoredGame, rounds: Sequence[RoundSummary]) -> str:
    """The rounds of a game as CSV: one row per round and scorer, in seating order.

    `rounds` are `History.rounds` of the same game; a round that does not match the
    stored game (it was corrected, undone or added between the two reads) raises
    `JournalError`, rather than mixing two versions of the game in one file.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for summary, played in _matched(stored, rounds):
        reveal = played.score.round.reveal
        players = stored.game.seating
        for scorer, points in summary.deltas.items():
            is_player = scorer in players
            writer.writerow(
                (
                    stored.id,
                    summary.number,
                    _cell(summary.storyteller),
                    _cell(scorer),
                    points,
                    summary.totals[scorer],
                    _cell("; ".join(summary.reasons.get(scorer, ()))),
                    _cell(_utc(summary.committed_at).isoformat(timespec="seconds")),
                    "yes" if summary.corrected else "no",
                    _slots(reveal.slots_of(scorer)) if is_player else "",
                    _slots(reveal.votes.get(scorer, ())) if is_player else "",
                )
            )
    return out.getvalue()


def game_zip(
    game_id: int,
    export_json: str,
    csv_text: str,
    pictures: Iterable[tuple[int, RoundImages]],
    *,
    started_at: datetime | None = None,
) -> bytes:
    """A zip of the game: its game file, its CSV, its rounds' pictures and a README.

    Everything lies in the folder `game-<id>/`, named by numbers only. The same game
    gives the same bytes: every entry has the time `started_at` (the game's start;
    1980-01-01 without it), and the pictures come in round order whatever order
    `pictures` gives them in. Text is deflated; JPEG and PNG, already compressed,
    are stored as they are. A round given twice raises `ValueError`.
    """
    moment = _zip_time(started_at)
    folder = f"game-{game_id}"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in _entries(game_id, export_json, csv_text, pictures):
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=moment)
            info.create_system = 3
            info.external_attr = 0o644 << 16
            compressed = not name.endswith((".jpg", ".png"))
            info.compress_type = zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED
            archive.writestr(info, data)
    return buffer.getvalue()


def bgstats_document(stored: StoredGame) -> dict[str, Any]:
    """The play as BG Stats' push link carries it (see the module's docstring).

    Players are named as typed, in seating order; the first storyteller is the start
    player. In the team editions each player has the team's score, rank and win.
    Only a finished game has winners and ranks: an unfinished one is logged with
    its scores so far and no winner.
    """
    game = stored.game
    totals = game.totals
    outcome = game.outcome if stored.status is GameStatus.FINISHED else None
    winners = set(outcome.winners) if outcome is not None else set()
    players = []
    for player in game.seating.players:
        scorer = player if player in totals else game.seating.team(player)
        entry: dict[str, Any] = {
            "name": player,
            "sourcePlayerId": player,
            "score": totals[scorer],
            "winner": scorer in winners,
            "startPlayer": player == game.first_storyteller,
        }
        if outcome is not None:
            entry["rank"] = 1 + sum(1 for total in totals.values() if total > totals[scorer])
        players.append(entry)
    start = _utc(stored.started_at)
    return {
        "sourceName": BGSTATS_SOURCE,
        "sourcePlayId": f"game-{stored.id}-{start:%Y%m%dT%H%M%SZ}",
        "playDate": f"{start:%Y-%m-%d %H:%M:%S}",
        "game": {
            "name": "Dixit",
            "bggId": DIXIT_BGG_ID,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": "dixit",
        },
        "board": game.ruleset.title,
        "players": players,
    }


def bgstats_link(stored: StoredGame) -> str:
    """The link that opens BG Stats on a phone to log this play there."""
    text = json.dumps(bgstats_document(stored), ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_PUSH_URL}?data={quote(text, safe='')}"


def picture_extension(data: bytes) -> str:
    """The file extension of an encoded picture, from its first bytes: `.jpg`, `.png`,
    or `.bin` for anything else (never a name that says more than is known)."""
    if data.startswith(_JPEG):
        return ".jpg"
    if data.startswith(_PNG):
        return ".png"
    return ".bin"


def _matched(
    stored: StoredGame, rounds: Sequence[RoundSummary]
) -> Iterator[tuple[RoundSummary, PlayedRound]]:
    """Each round summary with the stored game's round of the same number."""
    played = stored.game.played
    for summary in rounds:
        same = 1 <= summary.number <= len(played) and (
            played[summary.number - 1].score.round.storyteller == summary.storyteller
            and dict(played[summary.number - 1].totals) == dict(summary.totals)
        )
        if not same:
            raise JournalError(
                phrase("game {game} changed while it was being read; try again", game=stored.id)
            )
        yield summary, played[summary.number - 1]


def _entries(
    game_id: int, export_json: str, csv_text: str, pictures: Iterable[tuple[int, RoundImages]]
) -> Iterator[tuple[str, bytes]]:
    """The zip's files in their fixed order: README, game file, CSV, then each round's
    frame and overlay."""
    by_round: dict[int, RoundImages] = {}
    for number, images in pictures:
        if number in by_round:
            raise ValueError(f"round {number} has its pictures given twice")
        by_round[number] = images
    yield "README.txt", _README.format(game=game_id).encode()
    yield "game.json", export_json.encode()
    yield "rounds.csv", csv_text.encode()
    for number in sorted(by_round):
        images = by_round[number]
        for kind, data in (("frame", images.frame), ("overlay", images.overlay)):
            if data is not None:
                yield f"round-{number:02d}-{kind}{picture_extension(data)}", data


def _zip_time(started_at: datetime | None) -> tuple[int, int, int, int, int, int]:
    """A zip entry's time: the start of the game in UTC, never before zip's first day."""
    moment = EARLIEST_ZIP_TIME if started_at is None else max(_utc(started_at), EARLIEST_ZIP_TIME)
    return (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second)


def _utc(moment: datetime) -> datetime:
    """A journal time in UTC (a time without a zone is taken as UTC, as written)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _cell(text: str) -> str:
    """A text cell a spreadsheet cannot run as a formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _slots(slots: Iterable[int]) -> str:
    return " ".join(map(str, slots))
