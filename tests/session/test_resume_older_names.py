"""A game an older companion stored goes on after a restart, whatever names it let in.

The name rule guards names entering through `Lineup.parse`; the lineup rebuilt from
a stored game must take the names as they were stored, or the table cannot start.
"""

from datetime import UTC, datetime
from types import MappingProxyType

import pytest

from companion.errors import SeatingError
from companion.journal import GameStatus, StoredGame
from companion.language import Language
from companion.rules import Game, find_ruleset
from companion.session.lineup import Lineup
from companion.session.session import resumed_state

OLDER_PLAYERS = [("\u200b", "Ben", "Cleo", "Dan"), ("é", "e\u0301", "\ue000", "Dan")]


@pytest.mark.parametrize("players", OLDER_PLAYERS)
def test_a_stored_game_with_names_now_refused_resumes(players: tuple[str, ...]) -> None:
    colours = dict(zip(players, ("red", "blue", "green", "yellow"), strict=True))
    stored = StoredGame(
        id=1,
        game=Game.start(find_ruleset("classic"), players, players[1]),
        colours=MappingProxyType(colours),
        started_at=datetime(2026, 11, 21, tzinfo=UTC),
        status=GameStatus.PLAYING,
    )
    state = resumed_state(stored, Language.ENGLISH)
    assert state.lineup.names == players
    assert state.lineup.colour_by_player == colours


@pytest.mark.parametrize(
    ("entries", "fault"),
    [
        (["\u200b=red", "Ben", "Cleo"], "shows nothing visible"),
        (["Rémi=red", "Re\u0301mi=blue", "Ann"], "Rémi appears more than once"),
    ],
)
def test_names_entering_on_the_command_line_still_follow_the_rule(
    entries: list[str], fault: str
) -> None:
    with pytest.raises(SeatingError, match=fault):
        Lineup.parse(entries)
