"""Setting up a game at the table: by touch, by the three buttons alone, by tokens."""

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion.actions import Action, Press
from companion.journal import History, Journal
from companion.kit.tags import KitTag, Role
from companion.language import Language
from companion.runtime.effects import JournalEffects
from companion.session.draft import KIT_COLOURS, OPTION_CHOICES
from companion.session.session import Session, Settings
from companion.session.setup import EDITIONS, LANGUAGES, OPTIONS
from companion.session.states import Phase
from companion.vision.records import Covered, SlotContents, TableObservation, Vote

SLOTS = tuple(range(1, 13))
EMPTY = TableObservation()


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j


def fresh(journal: Journal, language: Language = Language.ENGLISH) -> Session:
    return Session.setting_up(JournalEffects(journal), Settings(SLOTS, language=language))


def touch(session: Session, index: int, now: float = 0.0) -> None:
    session.press(Press(Action.PICK, index), now)


def press(session: Session, action: Action, times: int = 1, now: float = 0.0) -> None:
    for _ in range(times):
        session.press(Press(action), now)


def tokens(*seats: tuple[int, str]) -> TableObservation:
    """Owner tokens: (slot, colour) pairs."""
    slots: dict[int, SlotContents] = {}
    for slot, colour in seats:
        owners = slots.get(slot, SlotContents()).owners
        slots[slot] = SlotContents((*owners, colour))
    return TableObservation(slots)


def through_editions(session: Session, ruleset: str) -> None:
    """Touch English, then the edition."""
    touch(session, LANGUAGES.index(Language.ENGLISH))
    touch(session, EDITIONS.index(ruleset))
    assert session.state.phase is Phase.SEATS


def test_a_fresh_table_starts_at_the_language_step(journal: Journal) -> None:
    assert fresh(journal).state.phase is Phase.LANGUAGE


def test_the_whole_setup_by_touch(journal: Journal) -> None:
    session = fresh(journal)
    touch(session, LANGUAGES.index(Language.FRENCH))
    assert session.state.language is Language.FRENCH
    touch(session, EDITIONS.index("classic"))
    for colour in ("red", "blue", "green", "yellow"):
        touch(session, KIT_COLOURS.index(colour))
    touch(session, len(KIT_COLOURS))  # done
    assert session.state.phase is Phase.NAMES
    session.name("red", "Ann", 0.0)
    touch(session, 4)  # done
    assert session.state.phase is Phase.OPTIONS
    touch(session, len(OPTIONS))  # done
    assert session.state.phase is Phase.SETUP
    touch(session, 2)  # green tells first
    press(session, Action.CONFIRM)
    state = session.state
    assert state.phase is Phase.CLEARING
    assert state.lineup.names == ("Ann", "Bleu", "Vert", "Jaune")
    assert state.game.first_storyteller == "Vert"
    assert state.game.ruleset.name == "classic"


def test_the_whole_setup_by_the_three_buttons_alone(journal: Journal) -> None:
    session = fresh(journal)
    press(session, Action.CONFIRM)  # English
    edition = EDITIONS.index("odyssey")
    start = session.state.at
    assert start.phase is Phase.EDITION
    cursor = start.cursor
    press(session, Action.NEXT, (edition - cursor) % len(EDITIONS))
    press(session, Action.CONFIRM)
    assert session.state.draft.ruleset == "odyssey"
    press(session, Action.CONFIRM)  # seat red (the cursor starts on it)
    press(session, Action.NEXT)
    press(session, Action.CONFIRM)  # seat blue
    press(session, Action.NEXT)
    press(session, Action.CONFIRM)  # seat green
    press(session, Action.NEXT, len(KIT_COLOURS) - 2)  # to "done"
    press(session, Action.CONFIRM)
    assert session.state.phase is Phase.NAMES
    press(session, Action.NEXT, 3)
    press(session, Action.CONFIRM)
    press(session, Action.NEXT, len(OPTIONS))
    press(session, Action.CONFIRM)
    assert session.state.phase is Phase.SETUP
    press(session, Action.CONFIRM)
    assert session.state.phase is Phase.CLEARING
    assert session.state.lineup.colours == ("red", "blue", "green")


def test_seats_follow_the_slots_the_owner_tokens_lie_on(journal: Journal) -> None:
    session = fresh(journal)
    through_editions(session, "odyssey")
    session.see(EMPTY, True, 0.0)
    session.see(tokens((5, "green"), (1, "pink"), (3, "red")), True, 1.0)
    assert session.state.draft.seats == ("pink", "red", "green")


def test_tokens_left_from_the_last_game_seat_nobody_until_the_table_is_cleared(
    journal: Journal,
) -> None:
    session = fresh(journal)
    through_editions(session, "odyssey")
    session.see(tokens((1, "red"), (2, "blue"), (3, "green")), True, 0.0)
    assert session.state.draft.seats == ()
    session.see(EMPTY, True, 1.0)
    session.see(tokens((2, "blue")), True, 2.0)
    assert session.state.draft.seats == ("blue",)


def test_two_tokens_on_one_slot_are_named_and_block_until_resolved(journal: Journal) -> None:
    session = fresh(journal)
    through_editions(session, "odyssey")
    session.see(EMPTY, True, 0.0)
    session.see(tokens((1, "red"), (1, "blue"), (2, "green"), (3, "pink")), True, 1.0)
    at = session.state.at
    problems = [str(p) for p in at.problems]
    assert problems == ["red and blue lie on slot 1: one seat per card, move one of them"]
    touch(session, len(KIT_COLOURS))  # done: refused while the conflict lasts
    assert session.state.phase is Phase.SEATS
    session.see(tokens((1, "red"), (4, "blue"), (2, "green"), (3, "pink")), True, 2.0)
    assert session.state.at.problems == ()
    assert session.state.draft.seats == ("red", "green", "pink", "blue")
    touch(session, len(KIT_COLOURS))
    assert session.state.phase is Phase.NAMES


def test_an_owner_token_under_another_is_named_and_blocks_until_both_are_seen(
    journal: Journal,
) -> None:
    session = fresh(journal)
    through_editions(session, "odyssey")
    session.see(EMPTY, True, 0.0)
    blue, red = (KitTag("CAFE1", Role.OWNER, colour=c, index=1).text for c in ("blue", "red"))
    under = replace(tokens((1, "red"), (2, "green"), (3, "pink")), covered=(Covered(blue, 1, red),))
    session.see(under, True, 1.0)
    assert [str(p) for p in session.state.at.problems] == [
        "blue's owner token 1 lies under red's owner token 1 on slot 1: move them apart"
    ]
    touch(session, len(KIT_COLOURS))  # done: refused while blue cannot be read
    assert session.state.phase is Phase.SEATS
    session.see(tokens((1, "red"), (4, "blue"), (2, "green"), (3, "pink")), True, 2.0)
    assert session.state.at.problems == ()
    assert session.state.draft.seats == ("red", "green", "pink", "blue")


def test_a_token_of_another_kit_is_named(journal: Journal) -> None:
    session = fresh(journal)
    through_editions(session, "odyssey")
    session.see(EMPTY, True, 0.0)
    other = KitTag("NEXT2", Role.OWNER, colour="blue", index=1).text
    session.see(replace(tokens((1, "red")), foreign=(other,)), True, 1.0)
    problems = [str(p) for p in session.state.at.problems]
    assert problems == ["a token of another kit (NEXT2) is on the table: take it away"]


def test_too_few_players_for_the_edition_do_not_go_on(journal: Journal) -> None:
    session = fresh(journal)
    through_editions(session, "teams")
    for colour in ("red", "blue", "green"):
        touch(session, KIT_COLOURS.index(colour))
    touch(session, len(KIT_COLOURS))
    assert session.state.phase is Phase.SEATS
    assert session.state.says(0.0) is not None


def test_options_change_and_the_round_limit_ends_the_game(journal: Journal) -> None:
    session = fresh(journal)
    through_editions(session, "classic")
    for colour in ("red", "blue", "green"):
        touch(session, KIT_COLOURS.index(colour))
    touch(session, len(KIT_COLOURS))
    touch(session, 3)  # names done
    limit = OPTIONS.index("round_limit")
    touch(session, limit)  # a touch on an option gives its next value
    assert session.state.draft.option("round_limit") == OPTION_CHOICES["round_limit"][1]
    touch(session, len(OPTIONS))
    press(session, Action.CONFIRM)
    assert session.state.game.ruleset.round_limit == OPTION_CHOICES["round_limit"][1]


def test_back_goes_one_step_back_and_keeps_the_choices(journal: Journal) -> None:
    session = fresh(journal)
    through_editions(session, "party")
    touch(session, KIT_COLOURS.index("red"))
    press(session, Action.BACK)
    assert session.state.phase is Phase.EDITION
    press(session, Action.UNDO)
    assert session.state.phase is Phase.LANGUAGE
    assert session.state.draft.ruleset == "party"
    assert session.state.draft.seats == ("red",)


def test_a_restart_during_setup_goes_on_from_the_last_step_done(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        session = fresh(journal)
        touch(session, LANGUAGES.index(Language.FRENCH))
        touch(session, EDITIONS.index("odyssey"))
        for colour in ("red", "blue", "green", "pink"):
            touch(session, KIT_COLOURS.index(colour))
        touch(session, len(KIT_COLOURS))
        assert session.state.phase is Phase.NAMES
    with Journal(path) as journal:
        again = fresh(journal)
        assert again.state.phase is Phase.NAMES
        assert again.state.draft.seats == ("red", "blue", "green", "pink")
        assert again.state.language is Language.FRENCH


def test_names_used_before_are_offered_again(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        session = fresh(journal)
        through_editions(session, "classic")
        for colour in ("red", "blue", "green"):
            touch(session, KIT_COLOURS.index(colour))
        touch(session, len(KIT_COLOURS))
        session.name("red", "Zoé", 0.0)
        touch(session, 3)
        touch(session, len(OPTIONS))
        press(session, Action.CONFIRM)
        assert session.state.lineup.names[0] == "Zoé"
    with Journal(path) as journal:
        session = Session.setting_up(JournalEffects(journal), Settings(SLOTS))
        touch(session, 0)
        touch(session, EDITIONS.index("classic"))
        for colour in ("blue", "green", "yellow"):
            touch(session, KIT_COLOURS.index(colour))
        touch(session, len(KIT_COLOURS))
        press(session, Action.CONFIRM)  # the first seat takes the first name offered
        assert session.state.draft.name_of("blue") == "Zoé"


def started_game(journal: Journal, round_limit: bool = False) -> Session:
    """Classic for four, set up by touch; with `round_limit`, four rounds at most."""
    session = fresh(journal)
    through_editions(session, "classic")
    for colour in FOUR:
        touch(session, KIT_COLOURS.index(colour))
    touch(session, len(KIT_COLOURS))
    touch(session, len(FOUR))
    if round_limit:
        touch(session, OPTIONS.index("round_limit"))
    touch(session, len(OPTIONS))
    press(session, Action.CONFIRM)
    session.see(EMPTY, True, 0.0)
    assert session.state.phase is Phase.WAITING
    return session


FOUR = ("red", "blue", "green", "yellow")


def everybody_finds(session: Session) -> TableObservation:
    """The next round laid out: every voter finds the storyteller's card."""
    game = session.state.game
    players = game.seating.players
    colour = session.state.lineup.colour_by_player
    target = players.index(game.storyteller) + 1
    slots = {i + 1: SlotContents((colour[p],)) for i, p in enumerate(players)}
    votes = tuple(Vote(colour[p], 1) for p in players if p != game.storyteller)
    slots[target] = replace(slots[target], votes=votes)
    return TableObservation(slots)


def play_to_the_winner(session: Session, now: float) -> float:
    while session.state.phase is not Phase.WINNER:
        session.see(everybody_finds(session), True, now)
        assert session.state.phase is Phase.PROPOSAL, session.state.table
        press(session, Action.CONFIRM, now=now)
        now += 5.0
        session.see(EMPTY, True, now)
    return now + 5.0


def test_abandon_asks_then_keeps_the_game_marked_abandoned(journal: Journal) -> None:
    session = started_game(journal)
    game_id = session.state.game_id
    press(session, Action.ABANDON)
    assert session.state.phase is Phase.ABANDONING
    press(session, Action.NEXT)
    assert session.state.phase is Phase.WAITING
    press(session, Action.ABANDON)
    press(session, Action.CONFIRM)
    assert session.state.phase is Phase.LANGUAGE
    assert journal.resume() is None
    assert game_id is not None
    (game,) = [g for g in History(journal).games() if g.id == game_id]
    assert game.status.value == "abandoned"


def test_same_players_again_and_new_group_from_the_winner(journal: Journal) -> None:
    session = started_game(journal, round_limit=True)
    now = play_to_the_winner(session, 1.0)
    first = session.state.game
    assert len(first.played) == OPTION_CHOICES["round_limit"][1]
    press(session, Action.CONFIRM, now=now)  # same players again
    assert session.state.phase is Phase.SETUP
    assert session.state.lineup.colours == FOUR
    assert session.state.game.ruleset == first.ruleset
    press(session, Action.CONFIRM, now=now)
    session.see(EMPTY, True, now)
    now = play_to_the_winner(session, now)
    press(session, Action.NEXT, now=now)  # new group
    assert session.state.phase is Phase.LANGUAGE
    assert session.state.draft.seats == ()
    second = session.state.game
    press(session, Action.BACK, now=now)  # nothing of the last game is lost
    assert session.state.phase is Phase.WINNER
    assert session.state.game == second
    assert session.state.draft.seats == FOUR
    press(session, Action.CONFIRM, now=now + 5.0)  # and the same players can play again
    assert session.state.phase is Phase.SETUP
    assert session.state.lineup.colours == FOUR


def test_a_restart_after_same_players_again_keeps_the_seats(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        session = started_game(journal, round_limit=True)
        now = play_to_the_winner(session, 1.0)
        press(session, Action.CONFIRM, now=now)
        assert session.state.phase is Phase.SETUP
    with Journal(path) as journal:
        again = fresh(journal)
        assert again.state.phase is Phase.SETUP
        assert again.state.lineup.colours == FOUR
        assert again.state.draft.option("round_limit") == OPTION_CHOICES["round_limit"][1]


def named_up_to_the_names_step(journal: Journal) -> Session:
    session = fresh(journal)
    through_editions(session, "classic")
    for colour in FOUR:
        touch(session, KIT_COLOURS.index(colour))
    touch(session, len(KIT_COLOURS))
    assert session.state.phase is Phase.NAMES
    return session


def test_a_name_another_seat_plays_under_is_refused_and_said(journal: Journal) -> None:
    session = named_up_to_the_names_step(journal)
    session.name("red", "Ann", 0.0)
    session.name("blue", "ann", 1.0)
    session.name("green", "Blue", 1.0)  # the unnamed blue seat plays as "Blue"
    session.name("yellow", "Ann+Bob", 1.0)
    assert session.state.draft.names == (("red", "Ann"),)
    said = session.state.says(1.0)
    assert said is not None and str(said) == "a name may not hold +"


def test_a_name_typed_on_a_phone_stays_among_the_choices(journal: Journal) -> None:
    session = named_up_to_the_names_step(journal)
    session.name("red", "Zoé", 0.0)
    touch(session, 0)  # the seat's next name: its colour's
    assert session.state.draft.name_of("red") == "Red"
    touch(session, 0)
    assert session.state.draft.name_of("red") == "Zoé"


def test_a_name_typed_during_the_first_storyteller_step_is_shown_at_once(
    journal: Journal,
) -> None:
    session = named_up_to_the_names_step(journal)
    touch(session, len(FOUR))
    touch(session, len(OPTIONS))
    assert session.state.phase is Phase.SETUP
    session.name("green", "Cleo", 0.0)
    assert session.state.lineup.names == ("Red", "Blue", "Cleo", "Yellow")
    assert session.state.game.seating.players == ("Red", "Blue", "Cleo", "Yellow")


def test_back_into_the_seats_keeps_the_groups_tokens_as_seats(journal: Journal) -> None:
    session = fresh(journal)
    through_editions(session, "odyssey")
    session.see(EMPTY, True, 0.0)
    laid = tokens((1, "red"), (2, "blue"), (3, "green"))
    session.see(laid, True, 1.0)
    touch(session, len(KIT_COLOURS))
    assert session.state.phase is Phase.NAMES
    press(session, Action.BACK)
    session.see(laid, True, 2.0)
    assert session.state.at.cleared
    assert session.state.draft.seats == ("red", "blue", "green")


def test_going_back_from_the_abandon_question_proposes_afresh(journal: Journal) -> None:
    session = Session.setting_up(JournalEffects(journal), Settings(SLOTS, auto_confirm=5.0))
    through_editions(session, "classic")
    for colour in FOUR:
        touch(session, KIT_COLOURS.index(colour))
    touch(session, len(KIT_COLOURS))
    touch(session, len(FOUR))
    touch(session, len(OPTIONS))
    press(session, Action.CONFIRM)
    session.see(EMPTY, True, 0.0)
    session.see(everybody_finds(session), True, 1.0)
    assert session.state.phase is Phase.PROPOSAL
    press(session, Action.ABANDON, now=2.0)
    session.tick(9.0)  # the countdown does not run on behind the question
    assert session.state.phase is Phase.ABANDONING
    press(session, Action.BACK, now=9.0)
    assert session.state.phase is Phase.PROPOSAL
    assert session.state.countdown(9.0) == 5.0
    assert not session.state.game.played
