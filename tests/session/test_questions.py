"""Hand entry one question at a time: the steps stay in range, the round is saved only
when it is legal, and what is saved is the round the editor itself would score."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.actions import Action, Press
from companion.rules import Game, Reveal, find_ruleset
from companion.session.editor import RoundEditor, RowKind
from companion.session.questions import Questions

NAMES = (
    "Margot",
    "Marie-Christine",
    "Maximilien",
    "Jean-Baptiste",
    "Léa",
    "Lucien",
    "Ann",
    "Ben",
    "Cleo",
    "Dan",
    "Eve",
    "Fay",
)
SLOTS = tuple(range(1, 13))
PRESSES = st.one_of(
    st.sampled_from(
        [
            Press(action)
            for action in (
                Action.UP,
                Action.DOWN,
                Action.FIX,
                Action.LEFT,
                Action.RIGHT,
                Action.NEXT,
                Action.CONFIRM,
            )
        ]
    ),
    st.builds(lambda i: Press(Action.PICK, i), st.integers(-2, 40)),
)


def asking(players: int, live: Reveal | None = None, ruleset: str = "odyssey") -> Questions:
    game = Game.start(find_ruleset(ruleset), NAMES[:players], NAMES[0])
    return Questions(RoundEditor.open(game, SLOTS, live or Reveal({})))


def entered_by_the_editor(answers: RoundEditor) -> Reveal:
    """The round the editor scores when its rows are set, one by one with its own
    keys, to `answers`' values."""
    editor = RoundEditor.open(answers.game, SLOTS, Reveal({}))
    for row in answers.rows:
        if row.kind is RowKind.ROUND:
            continue
        keys = [r.key for r in editor.rows]
        while row.key in keys and editor.rows[keys.index(row.key)].value != row.value:
            editor = editor.pick(keys.index(row.key)).change(1)
            keys = [r.key for r in editor.rows]
    return editor.reveal()


def all_legal(players: int) -> Reveal:
    """Each player's card on their seat's slot; every voter on the storyteller's."""
    cards = dict(enumerate(NAMES[:players], start=1))
    return Reveal(cards, dict.fromkeys(NAMES[1:players], (1,)))


LINEUPS = st.sampled_from(
    [(n, "odyssey") for n in range(3, 13)]
    + [(n, "party") for n in range(6, 13)]
    + [(n, "teams") for n in (8, 10, 12)]
    + [(n, "classic") for n in range(3, 9)]
)
"""A number of players and an edition that allows it: 3 to 12 players, a trap in
Party, teams in Teams."""


@settings(max_examples=80, deadline=None)
@given(LINEUPS, st.lists(PRESSES, max_size=60))
def test_the_steps_stay_in_range_and_only_a_legal_round_is_saved(
    lineup: tuple[int, str], presses: list[Press]
) -> None:
    players, ruleset = lineup
    asked = asking(players, ruleset=ruleset)
    for press in presses:
        assert 1 <= asked.step <= asked.count
        if asked.saves(press):
            assert asked.legal and asked.editor.problems() == ()
            assert asked.editor.reveal() == entered_by_the_editor(asked.editor)
        asked = asked.pressed(press)
        assert 1 <= asked.step <= asked.count
        assert asked.reviewing == (asked.row is None)


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 12), st.lists(PRESSES, max_size=30))
def test_a_legal_round_is_saved_as_the_editor_would_score_it(
    players: int, presses: list[Press]
) -> None:
    asked = asking(players, all_legal(players))
    for press in presses:
        asked = asked.pressed(press)
    if asked.legal:
        asked = asked.go_on()
        assert asked.reviewing and asked.saves(Press(Action.CONFIRM))
        assert asked.editor.reveal() == entered_by_the_editor(asked.editor)
        assert (
            asked.editor.preview()
            == RoundEditor.open(asked.editor.game, SLOTS, asked.editor.reveal()).preview()
        )
    else:
        assert not asked.saves(Press(Action.CONFIRM))


def test_confirm_walks_the_questions_then_shows_the_summary() -> None:
    asked = asking(3)
    assert asked.step == 2 and asked.count == len(asked.editor.rows) + 1
    steps = []
    while not asked.reviewing:
        steps.append(asked.step)
        asked = asked.go_on()
    assert steps == list(range(2, asked.count))
    assert asked.step == asked.count and not asked.legal
    back = asked.go_on()
    assert back.row is not None and back.editor.selected == asked.first_at_fault()


def test_a_legal_round_goes_straight_to_its_summary() -> None:
    asked = asking(4, all_legal(4))
    summary = asked.go_on()
    assert summary.reviewing and summary.saves(Press(Action.CONFIRM))
    assert summary.faults() == ()


def test_only_the_question_asked_says_what_is_wrong_with_it() -> None:
    asked = asking(5, all_legal(5))
    vote = next(
        i for i, r in enumerate(asked.editor.rows) if r.kind is RowKind.VOTE and r.player == "Léa"
    )
    on_vote = asked.pressed(Press(Action.PICK, vote))
    own = on_vote
    while own.editor.rows[vote].value != 5:
        own = own.pressed(Press(Action.NEXT))
    assert [str(p) for p in own.problems()] == ["Léa voted for slot 5, their own card"]
    assert own.pressed(Press(Action.UP)).problems() == ()
    assert not own.legal


def test_an_unanswered_card_is_the_question_at_fault() -> None:
    asked = asking(3)
    assert asked.row is not None and asked.row.player == "Margot"
    assert [str(p) for p in asked.problems()] == ["Margot has not laid a card; one card expected"]
    assert asked.unanswered() == 3 + 2, "a card each and two votes; second cards may stay empty"


def test_a_team_that_laid_two_cards_is_asked_about_at_its_members_cards() -> None:
    cards = dict(enumerate(NAMES[:8], start=1))
    asked = asking(8, Reveal(cards), ruleset="teams")
    doubled = [f for f in asked.editor.faults() if "laid two cards" in str(f.words)]
    assert doubled, "each team laid two cards"
    for fault in doubled:
        (row,) = fault.rows
        assert asked.editor.rows[row].kind is RowKind.CARD
        assert asked.editor.rows[row].player in str(fault.words)
