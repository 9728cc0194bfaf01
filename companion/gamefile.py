"""The game file: a whole game as JSON, the public shape `companion score` reads.

```json
{"ruleset": "odyssey", "players": ["red", "blue", "green"],
 "first_storyteller": "red", "options": {"target": 30},
 "rounds": [{"cards": {"1": "blue", "2": "red"}, "votes": {"blue": [2]}, "trap": 3}]}
```

Parsing is strict: unknown keys, duplicate keys, wrong types and non-numbers are
refused with a message that says where, rather than guessed at, because a score
computed from a misread file is worse than no score.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from companion.errors import GameFileError
from companion.names import name_fault, quoted, repeated, text_fault
from companion.numbers import in_digits, too_long
from companion.rules import OPTION_NAMES, Game, Reveal, find_ruleset

MAX_GAME_FILE_BYTES = 16 * 2**20
"""The most a game file is read of. A long evening's game is a few kilobytes; reading
stops here so that an endless input (/dev/zero, a wrong pipe) is refused at once
rather than read until memory runs out."""
_SLOT_KEY = re.compile(r"[1-9][0-9]*")
_GAME_KEYS = {"ruleset", "players", "first_storyteller", "options", "rounds"}
_ROUND_KEYS = {"cards", "votes", "trap"}


@dataclass(frozen=True)
class GameRecord:
    """A parsed game file: the game at its start and the reveals of its rounds."""

    start: Game
    """The game before its first round, options applied."""
    reveals: tuple[Reveal, ...]
    """What lay on the table in each round, in order."""

    def play(self) -> Game:
        """Play every round; raises the first illegal round's error."""
        return self.start.play_all(self.reveals)


def read_game_text(stream: BinaryIO) -> str:
    """The text of the game file `stream` holds, read up to `MAX_GAME_FILE_BYTES`.

    A byte-order mark, which some Windows editors write, is dropped; text that is not
    UTF-8 or longer than any game raises `GameFileError`, and a failed read `OSError`.
    """
    data = stream.read(MAX_GAME_FILE_BYTES + 1)
    if len(data) > MAX_GAME_FILE_BYTES:
        raise GameFileError(f"larger than {MAX_GAME_FILE_BYTES // 2**20} MB, so not a game file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GameFileError("not UTF-8 text, so not a game file") from None


def parse_game(text: str, *, stored: bool = False) -> GameRecord:
    """Parse a game file's text; raises `GameFileError` or a rules error.

    Players' names must follow the rule for names entering the companion
    (`companion.names`), except in a game the journal `stored`: its names were let in
    by the version that wrote it, and refusing them now would lose the game.
    """
    if not text.strip():
        raise GameFileError("the file is empty")
    doc = _json(text)
    top = _object(
        doc,
        "the game",
        required={"ruleset", "players", "first_storyteller", "rounds"},
        allowed=_GAME_KEYS,
    )
    ruleset = find_ruleset(_string(top["ruleset"], "ruleset"))
    options = _object(top.get("options", {}), "options")
    ruleset = ruleset.with_options({name: _option(value, name) for name, value in options.items()})
    players = _players(top["players"], stored=stored)
    first = _string(top["first_storyteller"], "first_storyteller")
    start = Game.start(ruleset, players, first)
    rounds = _list(top["rounds"], "rounds")
    return GameRecord(start, tuple(_reveal(r, n) for n, r in enumerate(rounds, start=1)))


def parse_round(text: str, number: int) -> Reveal:
    """One round in the game file's round shape (`{"cards": ..., "votes": ...}`), as a
    corrected round arrives from the phone page; raises `GameFileError`. Whether it
    is legal is the rules' word, not the parser's."""
    if not text.strip():
        raise GameFileError(f"round {number}: nothing was sent")
    return _reveal(_json(text), number)


def _json(text: str) -> object:
    """The JSON of a game file or a round, read strictly: no duplicate keys, no NaN,
    no number longer than any game holds."""
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_no_constant,
            parse_int=_whole_number,
        )
    except json.JSONDecodeError as err:
        raise GameFileError(
            f"not JSON: {err.msg} at line {err.lineno}, column {err.colno}"
        ) from None
    except RecursionError:
        raise GameFileError("not a game file: nested far too deeply") from None


def game_document(game: Game) -> dict[str, Any]:
    """The game file of a game: what `parse_game` reads back into the same game."""
    rules = game.ruleset
    preset = find_ruleset(rules.name)
    options = {
        name: getattr(rules, name)
        for name in OPTION_NAMES
        if getattr(rules, name) != getattr(preset, name)
    }
    return {
        "ruleset": rules.name,
        "players": list(game.seating.players),
        "first_storyteller": game.first_storyteller,
        "options": options,
        "rounds": [reveal_document(played.score.round.reveal) for played in game.played],
    }


def reveal_document(reveal: Reveal) -> dict[str, Any]:
    """One round of a game file: what lay on the table, as `parse_round` reads it."""
    doc: dict[str, Any] = {
        "cards": {str(slot): owner for slot, owner in reveal.cards.items()},
        "votes": {voter: list(slots) for voter, slots in reveal.votes.items()},
    }
    if reveal.trap is not None:
        doc["trap"] = reveal.trap
    return doc


def result_document(game: Game) -> dict[str, Any]:
    """What `companion score` prints for a game: rounds, totals, end and winners."""
    outcome = game.outcome
    return {
        "rounds": [
            {
                "storyteller": played.score.round.storyteller,
                "deltas": dict(played.score.deltas),
                "reasons": {s: list(r) for s, r in played.score.reasons.items()},
            }
            for played in game.played
        ],
        "totals": dict(game.totals),
        "finished": outcome is not None,
        "ended_after_round": outcome.after_round if outcome else None,
        "winners": list(outcome.winners) if outcome else [],
    }


def _reveal(raw: object, number: int) -> Reveal:
    where = f"round {number}"
    doc = _object(raw, where, required={"cards", "votes"}, allowed=_ROUND_KEYS)
    cards = {
        _slot_key(key, f"{where} cards"): _string(owner, f"{where} cards[{key!r}]")
        for key, owner in _object(doc["cards"], f"{where} cards").items()
    }
    votes: dict[str, tuple[int, ...]] = {}
    for voter, slots in _object(doc["votes"], f"{where} votes").items():
        label = f"{where} votes of {voter!r}"
        votes[voter] = tuple(_integer(s, label) for s in _list(slots, label))
    trap = doc.get("trap")
    return Reveal(cards, votes, None if trap is None else _integer(trap, f"{where} trap"))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        _text(key, "a key")
        if key in result:
            raise GameFileError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _whole_number(digits: str) -> int:
    """A JSON integer by the rule every whole number follows (`companion.numbers`):
    json's own scanner may hand over non-ASCII digits where it is the Python one."""
    if not in_digits(digits, signed=True):
        raise GameFileError(f"{digits[:40]!r} is not a number in digits 0-9")
    fault = too_long(digits)
    if fault is not None:
        raise GameFileError(fault)
    return int(digits)


def _no_constant(name: str) -> None:
    raise GameFileError(f"{name} is not a number JSON allows")


def _object(
    value: object, what: str, *, required: set[str] | None = None, allowed: set[str] | None = None
) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise GameFileError(f"{what} must be a JSON object, not {_kind(value)}")
    missing = sorted((required or set()) - set(value))
    if missing:
        raise GameFileError(f"{what} lacks {', '.join(map(repr, missing))}")
    if allowed is not None:
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise GameFileError(
                f"{what} has unknown key {', '.join(map(repr, unknown))}; "
                f"allowed: {', '.join(sorted(allowed))}"
            )
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise GameFileError(f"{what} must be a JSON list, not {_kind(value)}")
    return value


def _string(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise GameFileError(f"{what} must be a string, not {_kind(value)}")
    return _text(value, what)


def _text(value: str, what: str) -> str:
    fault = text_fault(value)
    if fault is not None:
        raise GameFileError(f"{what} is not text: {value!r} {fault}")
    return value


def _players(value: object, *, stored: bool) -> list[str]:
    """The players' names, by the rule every entry point shares (`companion.names`)
    unless the journal `stored` them."""
    names = [_string(p, f"players[{i}]") for i, p in enumerate(_list(value, "players"))]
    if stored:
        return names
    for i, name in enumerate(names):
        fault = name_fault(name)
        if fault is not None:
            raise GameFileError(f"players[{i}]: player name {quoted(name)} {fault}")
    twice = repeated(names)
    if twice:
        raise GameFileError(f"players: {', '.join(map(repr, twice))} appears more than once")
    return names


def _integer(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameFileError(f"{what} must be whole numbers, not {_kind(value)}")
    return value


def _option(value: object, name: str) -> int | None:
    return None if value is None else _integer(value, f"option {name}")


def _slot_key(key: str, what: str) -> int:
    if not _SLOT_KEY.fullmatch(key):
        raise GameFileError(f"{what}: {key!r} is not a slot number (1, 2, ...)")
    if too_long(key) is not None:  # the same limit as `_whole_number`
        raise GameFileError(f"{what}: a slot number of {len(key)} digits is far too long")
    return int(key)


def _kind(value: object) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    return "an object" if isinstance(value, dict) else "a list"
