"""A game of Dixit Odyssey between twelve players with long, alike names, played
through the real session and drawn through the real view model (`present`), in
English and French: a round being laid (what the table waits for), a round blocked
by a problem, a proposal, and the winner past the finish. The reference pictures and
the type-scale test draw them.
"""

import functools
import tempfile
from pathlib import Path

from companion.actions import Action, Press
from companion.colours import COLOURS
from companion.display.view import CameraView, ScreenView
from companion.journal import Journal
from companion.language import Language
from companion.rules import Game, Reveal, find_ruleset
from companion.runtime.effects import JournalEffects
from companion.session.lineup import Lineup
from companion.session.session import Session
from companion.session.settings import Settings
from companion.session.states import Phase
from companion.view.present import present
from companion.vision.records import SlotContents, TableObservation
from tests.display.sample_views import camera_picture
from tests.session.observations import table_of

NAMES = (
    "Margot",
    "Marie-Christine",
    "Maximilien",
    "Jean-Baptiste",
    "Léa",
    "Lucien",
    "Zoé",
    "Théo",
    "Anne-Sophie",
    "Bérénice",
    "Octave",
    "Capucine",
)
LINEUP = Lineup(NAMES, tuple(c.name for c in COLOURS[: len(NAMES)]))
SLOTS = tuple(range(1, 13))
LATE = 10_000.0
"""Long after every move: the rabbits stand still."""
FAVOURITE = "Margot"
"""Who always finds the storyteller's card, and whose card the others vote for: the
winner, past the finish."""


def _camera() -> CameraView:
    return CameraView(camera_picture(), "camera: simulated table, 10 fps", True)


def _round(game: Game, missing: tuple[str, ...] = ()) -> Reveal:
    """The next round laid out: every card on the slot of its player's seat, the
    favourite on the storyteller's card, the others on the favourite's card (or, for
    the favourite's own turn, on the next player's), `missing` not voting yet."""
    scoring, seating = game.ruleset.scoring, game.seating
    layers = scoring.layers(seating, game.storyteller)
    cards = {slot: options[0] for slot, options in zip(SLOTS, layers, strict=False)}
    slot_of = {player: slot for slot, player in cards.items()}
    laid = game.next_round(Reveal(cards))
    votes: dict[str, tuple[int, ...]] = {}
    for voter in scoring.voters(seating, laid):
        if voter in missing:
            continue
        barred = set(scoring.forbidden_slots(seating, laid, voter))
        wanted = slot_of[game.storyteller] if voter == FAVOURITE else slot_of[FAVOURITE]
        if wanted in barred:
            wanted = next(s for s in sorted(cards) if s not in barred)
        votes[voter] = (wanted,)
    return Reveal(cards, votes)


def _session(journal: Journal, language: Language) -> Session:
    settings = Settings(SLOTS, language=language)
    session = Session.new(find_ruleset("odyssey"), LINEUP, JournalEffects(journal), settings)
    session.press(Press(Action.CONFIRM), 0.0)
    session.see(TableObservation(), True, 0.0)
    return session


def _play(session: Session, rounds: int, clock: float) -> float:
    """Play `rounds` rounds (or to the end of the game); the clock after them."""
    for _ in range(rounds):
        if session.state.phase is not Phase.WAITING:
            break
        session.see(table_of(_round(session.state.game), LINEUP), True, clock)
        session.press(Press(Action.CONFIRM), clock + 1)
        _clear(session, clock + 2)
        clock += 4
    return clock


def _clear(session: Session, clock: float) -> None:
    """The table cleared after a round: an empty table seen settled, twice."""
    session.see(TableObservation(), True, clock)
    session.see(TableObservation(), True, clock + 1)


def _shown(session: Session, now: float) -> ScreenView:
    return present(session.state, now, _camera())


@functools.cache
def screens(language: Language) -> dict[str, ScreenView]:
    """The four screens of the game in `language`."""
    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "j.sqlite") as journal:
        session = _session(journal, language)
        clock = _play(session, 3, 1.0)
        game = session.state.game
        missing = ("Lucien", "Zoé", "Théo")
        waiting = table_of(_round(game, missing), LINEUP)
        without = {s: c for s, c in waiting.slots.items() if s not in (10, 11)}
        session.see(TableObservation(without), True, clock)
        shown = {"waiting": _shown(session, LATE)}
        full = table_of(_round(game), LINEUP)
        mover = next(n for n in reversed(NAMES) if n != game.storyteller)
        onto = next(s for s, p in _round(game).cards.items() if p not in (mover, FAVOURITE))
        moved = dict(full.slots)
        moved.pop(NAMES.index(mover) + 1)
        target = moved[onto]
        owners = (*target.owners, LINEUP.colour_of(mover))
        moved[onto] = SlotContents(owners, target.votes, target.trap)
        session.see(TableObservation(moved), True, clock + 1)
        shown["problem"] = _shown(session, LATE)
        session.see(full, True, clock + 2)
        shown["proposal"] = _shown(session, LATE)
        session.press(Press(Action.CONFIRM), clock + 3)
        _clear(session, clock + 4)
        _play(session, 40, clock + 6)
        shown["winner"] = _shown(session, LATE)
        return shown


STATES = ("waiting", "problem", "proposal", "winner")
"""The screens `screens` makes."""


def screen(language: Language, state: str) -> ScreenView:
    """One of the game's screens (one of `STATES`) in `language`."""
    return screens(language)[state]
