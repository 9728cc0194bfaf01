"""Setting up a game through the real loop: replayed frames, mock GPIO buttons, the
headless screen and a journal file.

A group sets up its game at the table: by owner tokens laid on cards (read by the
camera), by the three buttons alone, or by touch; the screen shows every step, the
teams of a team edition, and French to a French table. A game in progress can be
given up with a long press of Confirm, a finished one played again by the same
players or left to a new group, and a companion restarted in the middle of a setup
goes on from the step it had reached.
"""

import queue
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.actions import Action, Press
from companion.controls.buttons import ButtonPins, Buttons
from companion.display.view import ScreenView, StepView
from companion.journal import GameSummary, History, Journal
from companion.journal.records import GameStatus
from companion.language import Language
from companion.rules import find_ruleset
from companion.runtime.camera import Camera
from companion.runtime.effects import JournalEffects, no_pictures
from companion.runtime.loop import Loop
from companion.session.draft import KIT_COLOURS, OPTION_CHOICES
from companion.session.lineup import Lineup
from companion.session.session import Session, Settings
from companion.session.setup import EDITIONS, LANGUAGES, OPTIONS
from companion.session.states import Phase, TakingSeats
from companion.sources.folder import FolderSource
from companion.vision.decode import make_decoder
from companion.vision.pipeline import TableReader, TableWatcher
from companion.vision.stabilise import KEEP_FRAMES, SETTLE_FRAMES, Stabiliser
from tests.screens import RecordingScreen
from tests.session.setup_frames import empty, game_rounds, owners
from tests.session.table_frames import write_frames
from tests.vision.scenes import calibration, layout

PINS = ButtonPins(undo_hold_seconds=0.05)
"""Quick holds of Undo; Next and Confirm keep their long holds, so a tap is a tap."""
ABANDON_PINS = ButtonPins(undo_hold_seconds=0.05, abandon_hold_seconds=1.0)
"""A short hold of Confirm gives up the game; a tap never lasts as long, however busy
the machine."""
SETTLE = SETTLE_FRAMES + 2
"""Frames a new layout of the table needs before it counts, with a margin."""
CLEAR = KEEP_FRAMES + 3
"""Frames before tokens taken away are taken as gone."""
STEP_SECONDS = 0.5
"""How far the manual clock moves at each step of the loop."""
PRESS_SECONDS = 60.0
"""The longest a mock button may take to post its press: a bound on a failure,
generous for a loaded machine."""
DONE_COLOURS = len(KIT_COLOURS)
"""The index of the seats step's "done" line."""
FOUR = ("red", "blue", "green", "yellow")
NBSP = "\u00a0"


class Table:
    """The loop setting up a game at a table, with buttons on mock pins, a manual
    clock, and a camera replaying `frames` when given."""

    def __init__(
        self,
        folder: Path,
        screen: RecordingScreen,
        frames: list[bytes] | None = None,
        *,
        language: Language = Language.ENGLISH,
        pins: ButtonPins = PINS,
    ) -> None:
        self.journal = Journal(folder / "journal.sqlite")
        board = layout()
        settings = Settings(tuple(s.slot for s in board.slots), language=language)
        self.now = 0.0
        self.screen = screen
        camera = None
        if frames is not None:
            write_frames(folder / "frames", frames)
            reader = TableReader(calibration(), board, make_decoder())
            camera = Camera(
                lambda: FolderSource(folder / "frames"),
                TableWatcher(reader, Stabiliser()),
                board,
            )
        pictures = camera.pictures if camera is not None else no_pictures
        session = Session.setting_up(JournalEffects(self.journal, pictures), settings)
        self.loop = Loop(session, screen, lambda: self.now, camera)
        self.pins = pins
        self.factory = MockFactory()
        self.posted: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self.buttons = Buttons(pins, self._post, pin_factory=self.factory)

    def _post(self, press: Press) -> None:
        self.loop.post(press)
        self.posted.put(press)

    @property
    def session(self) -> Session:
        return self.loop.session

    def phase(self) -> Phase:
        """The phase the session is in after the last step (a call: it changes with
        every step)."""
        return self.session.state.phase

    @property
    def view(self) -> ScreenView:
        return self.screen.views[-1]

    @property
    def step_view(self) -> StepView:
        """The setup step on the screen."""
        setup = self.view.setup
        assert setup is not None, self.view.headline
        return setup

    def frames(self, count: int) -> None:
        for _ in range(count):
            self.loop.step()
            self.now += STEP_SECONDS

    def until(self, done: Callable[[], bool], limit: int, what: str) -> None:
        """Step until `done` holds, at most `limit` steps."""
        for _ in range(limit):
            if done():
                return
            self.frames(1)
        assert done(), f"{what}: not after {limit} steps, at {self.phase()}"

    def touch(self, index: int) -> None:
        """Touch a line of the step on the screen."""
        self.press(Press(Action.PICK, index))

    def press(self, press: Press) -> None:
        self.loop.post(press)
        self.frames(1)

    def tap(self, pin: int, times: int = 1) -> None:
        """Press a button and let it go at once, `times` over, a step after each."""
        for _ in range(times):
            device = self.factory.pin(pin)
            device.drive_low()
            device.drive_high()
            self._wait_for(None)
            self.frames(1)

    def hold(self, pin: int, until: Action) -> None:
        """Hold a button down until it posts `until`, then let it go, and step."""
        device = self.factory.pin(pin)
        device.drive_low()
        try:
            self._wait_for(until)
        finally:
            device.drive_high()
        self.frames(1)

    def _wait_for(self, action: Action | None) -> None:
        """Wait until the buttons post `action` (None: any press)."""
        while True:
            press = self.posted.get(timeout=PRESS_SECONDS)
            if action is None or press.action is action:
                return

    def close(self) -> None:
        self.buttons.close()
        self.journal.close()


@pytest.fixture
def rigs(recording_screen: RecordingScreen) -> Iterator[list[Table]]:
    """The tables a test makes, closed after it."""
    made: list[Table] = []
    try:
        yield made
    finally:
        for table in made:
            table.close()


def table_at(
    rigs: list[Table],
    folder: Path,
    screen: RecordingScreen,
    frames: list[bytes] | None = None,
    *,
    language: Language = Language.ENGLISH,
    pins: ButtonPins = PINS,
) -> Table:
    """A table kept in `rigs` (closed after the test), after its first step."""
    table = Table(folder, screen, frames, language=language, pins=pins)
    rigs.append(table)
    table.frames(1)
    return table


def seat_by_touch(table: Table, edition: str, colours: tuple[str, ...]) -> None:
    """Touch English, the edition and the colours, and go on to the names."""
    table.touch(LANGUAGES.index(Language.ENGLISH))
    table.touch(EDITIONS.index(edition))
    for colour in colours:
        table.touch(KIT_COLOURS.index(colour))
    table.touch(DONE_COLOURS)
    assert table.phase() is Phase.NAMES


def start_by_touch(table: Table, edition: str, colours: tuple[str, ...]) -> int:
    """Set up a game by touch with the presets and start it; its number."""
    seat_by_touch(table, edition, colours)
    table.touch(len(colours))
    table.touch(len(OPTIONS))
    assert table.phase() is Phase.SETUP
    table.press(Press(Action.CONFIRM))
    game_id = table.session.state.game_id
    assert game_id is not None
    return game_id


def summary_of(journal: Journal, game_id: int) -> GameSummary:
    (found,) = [g for g in History(journal).games() if g.id == game_id]
    assert isinstance(found, GameSummary)
    return found


def badges(setup: StepView) -> dict[str, str]:
    """The seated colours' marks on the seats step."""
    return {c.label: c.badge for c in setup.choices if c.picked}


def test_owner_tokens_laid_on_cards_seat_the_players_in_slot_order(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    blue = (3, "blue")
    red = (1, "red")
    green = (2, "green")
    clash = owners(red, (1, "green"), blue)
    apart = owners(red, blue, (4, "green"))
    plan = [empty()] * 8 + [owners(blue)] * SETTLE + [owners(blue, red)] * SETTLE
    plan += [owners(blue, red, green)] * SETTLE + [clash] * SETTLE + [apart] * (SETTLE + 10)
    table = table_at(rigs, tmp_path, recording_screen, plan)
    assert table.phase() is Phase.LANGUAGE
    table.touch(LANGUAGES.index(Language.ENGLISH))
    table.touch(EDITIONS.index("odyssey"))
    assert table.phase() is Phase.SEATS

    def seats() -> tuple[str, ...]:
        return table.session.state.draft.seats

    table.until(lambda: seats() == ("blue",), 3 * SETTLE, "blue on slot 3")
    table.until(lambda: seats() == ("red", "blue"), 2 * SETTLE, "red on slot 1")
    table.until(lambda: seats() == ("red", "green", "blue"), 2 * SETTLE, "green on slot 2")
    assert badges(table.step_view) == {
        "Red": "seat 1, slot 1",
        "Green": "seat 2, slot 2",
        "Blue": "seat 3, slot 3",
    }
    assert "3 players" in table.step_view.summary
    assert not table.step_view.problems

    table.until(lambda: bool(table.step_view.problems), 2 * SETTLE, "two tokens on slot 1")
    (problem,) = [p for p in table.step_view.problems if "lie on slot" in p]
    assert problem == "green and red lie on slot 1: one seat per card, move one of them"
    table.touch(DONE_COLOURS)
    assert table.phase() is Phase.SEATS
    assert any(p.startswith("put the table right first") for p in table.step_view.problems)

    table.until(lambda: seats() == ("red", "blue", "green"), 2 * SETTLE, "green moved apart")
    at = table.session.state.at
    assert isinstance(at, TakingSeats) and not at.problems
    refused = [p for p in table.step_view.problems if p.startswith("put the table right first")]
    assert table.step_view.problems == tuple(refused)  # only the message of the refusal lasts
    assert badges(table.step_view) == {
        "Red": "seat 1, slot 1",
        "Blue": "seat 2, slot 3",
        "Green": "seat 3, slot 4",
    }
    table.touch(DONE_COLOURS)
    assert table.phase() is Phase.NAMES
    assert [c.label for c in table.step_view.choices[:3]] == ["Red", "Blue", "Green"]


def test_the_whole_setup_by_the_three_buttons_alone(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    table = table_at(rigs, tmp_path, recording_screen)
    confirm, nxt, undo = PINS.confirm, PINS.next, PINS.undo
    assert table.step_view.question == "Which language?"
    table.tap(nxt, len(LANGUAGES))  # all the way round, back to English
    table.tap(confirm)
    assert table.phase() is Phase.EDITION
    assert table.session.state.language is Language.ENGLISH

    start = EDITIONS.index(table.session.state.draft.ruleset)
    table.tap(nxt, (EDITIONS.index("classic") - start) % len(EDITIONS))
    table.tap(confirm)
    assert table.phase() is Phase.SEATS
    assert table.session.state.draft.ruleset == "classic"

    table.tap(confirm)  # red (the cursor starts on it)
    table.tap(nxt)
    table.tap(confirm)  # blue
    table.tap(confirm)  # blue again: not seated after all
    table.tap(nxt)
    table.tap(confirm)  # green
    table.tap(nxt)
    table.tap(confirm)  # yellow
    assert table.session.state.draft.seats == ("red", "green", "yellow")
    assert set(badges(table.step_view)) == {"Red", "Green", "Yellow"}
    table.tap(nxt, DONE_COLOURS - KIT_COLOURS.index("yellow"))
    assert table.step_view.choices[-1].selected
    table.tap(confirm)
    assert table.phase() is Phase.NAMES

    table.hold(undo, Action.UNDO)  # back to the seats, nothing lost
    assert table.phase() is Phase.SEATS
    assert table.session.state.draft.seats == ("red", "green", "yellow")
    table.tap(nxt, DONE_COLOURS)
    table.tap(confirm)
    assert table.phase() is Phase.NAMES

    table.tap(nxt, 3)  # no names: to "done"
    table.tap(confirm)
    assert table.phase() is Phase.OPTIONS

    limit = OPTIONS.index("round_limit")
    table.tap(nxt, limit)
    table.tap(confirm)  # the next round limit
    chosen = OPTION_CHOICES["round_limit"][1]
    assert table.session.state.draft.option("round_limit") == chosen
    assert table.step_view.choices[limit].detail == f"{chosen} rounds (preset: no limit)"
    table.tap(nxt, len(OPTIONS) - limit)
    table.tap(confirm)
    assert table.phase() is Phase.SETUP
    assert table.step_view.question == "Who tells first?"

    table.tap(nxt)
    table.tap(confirm)
    state = table.session.state
    assert state.phase is Phase.CLEARING
    assert state.game_id is not None
    stored = table.journal.load(state.game_id)
    assert dict(stored.colours) == {"Red": "red", "Green": "green", "Yellow": "yellow"}
    assert stored.game.ruleset.name == "classic"
    assert stored.game.ruleset.round_limit == chosen
    assert stored.game.first_storyteller == "Green"


def test_seats_chosen_by_the_buttons_stay_while_the_camera_sees_an_empty_table(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    table = table_at(rigs, tmp_path, recording_screen, [empty()] * 30)
    table.touch(LANGUAGES.index(Language.ENGLISH))
    table.touch(EDITIONS.index("odyssey"))
    table.frames(SETTLE)
    assert table.phase() is Phase.SEATS
    table.tap(PINS.confirm)  # red
    table.tap(PINS.next)
    table.tap(PINS.confirm)  # blue
    table.frames(2)
    assert table.session.state.draft.seats == ("red", "blue")
    assert set(badges(table.step_view)) == {"Red", "Blue"}


def test_the_whole_setup_by_touch_in_french(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    table = table_at(rigs, tmp_path, recording_screen, language=Language.FRENCH)
    assert table.step_view.question == f"Quelle langue{NBSP}?"
    assert [c.picked for c in table.step_view.choices] == [
        language is Language.FRENCH for language in LANGUAGES
    ]
    table.touch(LANGUAGES.index(Language.FRENCH))
    assert table.step_view.question == f"Quelle édition{NBSP}?"

    table.touch(EDITIONS.index("classic"))
    assert table.phase() is Phase.SEATS
    assert table.step_view.question.startswith(f"Qui joue{NBSP}?")
    for colour in FOUR:
        table.touch(KIT_COLOURS.index(colour))
    assert badges(table.step_view)["Vert"] == "place 3"
    table.touch(DONE_COLOURS)
    assert table.phase() is Phase.NAMES
    assert table.step_view.question == "Noms"

    table.session.name("red", "Ann", table.now)  # typed on a phone
    table.frames(1)
    assert [c.label for c in table.step_view.choices] == [
        "Ann",
        "Bleu",
        "Vert",
        "Jaune",
        f"Terminé{NBSP}: continuer",
    ]
    table.touch(len(FOUR))
    assert table.phase() is Phase.OPTIONS

    limit = OPTIONS.index("round_limit")
    table.touch(limit)  # a touch on an option gives its next value
    assert table.session.state.draft.option("round_limit") == OPTION_CHOICES["round_limit"][1]
    table.press(Press(Action.LEFT))
    assert table.session.state.draft.option("round_limit") is None
    table.press(Press(Action.RIGHT))
    assert table.session.state.draft.option("round_limit") == OPTION_CHOICES["round_limit"][1]
    table.touch(len(OPTIONS))
    assert table.phase() is Phase.SETUP

    table.touch(2)
    assert [c.badge for c in table.step_view.choices][2] == "raconte en premier"
    (start,) = [b for b in table.view.buttons if b.action is Action.CONFIRM]
    assert start.enabled
    table.press(Press(start.action))
    state = table.session.state
    assert state.phase is Phase.CLEARING
    assert state.lineup.names == ("Ann", "Bleu", "Vert", "Jaune")
    assert state.game.first_storyteller == "Vert"
    assert state.game_id is not None
    assert table.journal.load(state.game_id).game.ruleset.round_limit == 4
    assert "Vert raconte en premier" in [n.text for n in table.view.notices]


def test_a_team_edition_shows_the_teams_the_seats_make(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    table = table_at(rigs, tmp_path, recording_screen)
    table.touch(LANGUAGES.index(Language.ENGLISH))
    table.touch(EDITIONS.index("teams-1e"))
    six = (*FOUR, "white", "black")
    for colour in six[:5]:
        table.touch(KIT_COLOURS.index(colour))
    assert not table.step_view.groups
    table.touch(KIT_COLOURS.index(six[5]))
    groups = table.step_view.groups
    assert [g.label for g in groups] == ["Team 1", "Team 2", "Team 3"]
    names = [c.capitalize() for c in six]
    assert [tuple(name for name, _ in g.members) for g in groups] == [
        (names[i], names[i + 3]) for i in range(3)
    ]


def test_a_long_press_of_confirm_gives_up_the_game_once_confirmed(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    table = table_at(rigs, tmp_path, recording_screen, pins=ABANDON_PINS)
    game_id = start_by_touch(table, "odyssey", FOUR[:3])
    table.frames(2)
    assert table.phase() is Phase.CLEARING

    table.hold(ABANDON_PINS.confirm, Action.ABANDON)
    assert table.phase() is Phase.ABANDONING
    assert table.view.headline.startswith("Give up this game?")
    assert summary_of(table.journal, game_id).status is GameStatus.PLAYING

    table.tap(ABANDON_PINS.confirm)
    assert table.phase() is Phase.LANGUAGE
    assert table.session.state.draft.seats == ()
    assert summary_of(table.journal, game_id).status is GameStatus.ABANDONED
    assert table.journal.resume() is None


def play_to_the_winner(table: Table, rounds: int) -> None:
    """Let the camera read each round, confirm it with the button, and let the table
    be cleared, until the game is over."""
    for number in range(1, rounds + 1):
        table.until(lambda: table.phase() is Phase.PROPOSAL, 3 * CLEAR, f"round {number}")
        table.tap(PINS.confirm)
        if number < rounds:
            assert table.phase() is Phase.CLEARING
            table.until(lambda: table.phase() is Phase.WAITING, 2 * CLEAR, "the table cleared")
    assert table.phase() is Phase.WINNER
    table.frames(6)  # the winner screen ignores Confirm for a moment


def test_after_the_winner_the_same_players_again_or_a_new_group(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    limit = OPTION_CHOICES["round_limit"][1]
    assert limit is not None
    rules = find_ruleset("odyssey").with_options({"round_limit": limit})
    lineup = Lineup(tuple(c.capitalize() for c in FOUR), FOUR)
    game: list[bytes] = []
    for frame in game_rounds(rules, lineup, lineup.names[0], limit):
        game += [frame] * (SETTLE + 2) + [empty()] * (CLEAR + 2)
    seated = owners(*((i + 1, c) for i, c in enumerate(FOUR)))
    plan = [empty()] * 8 + [seated] * (SETTLE + 6) + [empty()] * 12
    plan += game + [empty()] * 12 + game + [empty()] * 12
    table = table_at(rigs, tmp_path, recording_screen, plan)

    table.touch(LANGUAGES.index(Language.ENGLISH))
    table.touch(EDITIONS.index("odyssey"))
    table.until(lambda: table.session.state.draft.seats == FOUR, 3 * SETTLE, "four seated")
    table.touch(DONE_COLOURS)
    table.touch(len(FOUR))
    table.touch(OPTIONS.index("round_limit"))
    table.touch(len(OPTIONS))
    table.tap(PINS.confirm)
    first = table.session.state
    assert first.game_id is not None
    assert first.game.ruleset == rules
    assert first.lineup == lineup

    play_to_the_winner(table, limit)
    assert table.view.winner is not None
    assert summary_of(table.journal, first.game_id).status is GameStatus.FINISHED
    table.tap(PINS.confirm)  # the same players again
    assert table.phase() is Phase.SETUP
    assert table.session.state.lineup == lineup
    assert [c.label for c in table.step_view.choices] == list(lineup.names)
    assert table.step_view.choices[0].picked

    table.tap(PINS.confirm)
    second = table.session.state
    assert second.game_id not in (None, first.game_id)
    play_to_the_winner(table, limit)
    table.tap(PINS.next)  # a new group
    assert table.phase() is Phase.LANGUAGE
    assert table.session.state.draft.seats == ()
    assert table.step_view.step == 0
    games = History(table.journal).games()
    assert [(g.id, g.status) for g in games if isinstance(g, GameSummary)] == [
        (second.game_id, GameStatus.FINISHED),
        (first.game_id, GameStatus.FINISHED),
    ]


def test_a_restart_in_the_middle_of_a_setup_goes_on_from_the_step_reached(
    tmp_path: Path, recording_screen: RecordingScreen, rigs: list[Table]
) -> None:
    table = table_at(rigs, tmp_path, recording_screen)
    given_up = start_by_touch(table, "odyssey", FOUR)
    table.press(Press(Action.ABANDON))
    table.press(Press(Action.CONFIRM))
    assert table.phase() is Phase.LANGUAGE
    seat_by_touch(table, "classic", ("green", "red", "pink"))
    rigs.remove(table)
    table.close()
    recording_screen.close()

    with RecordingScreen() as screen:
        again = table_at(rigs, tmp_path, screen)
        assert again.phase() is Phase.NAMES
        state = again.session.state
        assert state.draft.seats == ("green", "red", "pink")
        assert state.draft.ruleset == "classic"
        assert again.step_view.step == 3
        assert [c.label for c in again.step_view.choices] == ["Green", "Red", "Pink", "Done: go on"]
        assert summary_of(again.journal, given_up).status is GameStatus.ABANDONED
        again.touch(3)
        assert again.phase() is Phase.OPTIONS
        rigs.remove(again)
        again.close()
