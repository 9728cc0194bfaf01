"""The round editor: entering a round by hand and correcting a past one."""

from companion.phrases import Phrase
from companion.rules import Game, Reveal, find_ruleset
from companion.session.editor import RoundEditor, RowKind

PLAYERS = ("Ann", "Ben", "Cleo", "Dan")
SLOTS = tuple(range(1, 9))
ROUND_1 = Reveal(
    {1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan"}, {"Ben": (1,), "Cleo": (2,), "Dan": (1,)}
)


def started() -> Game:
    return Game.start(find_ruleset("odyssey"), PLAYERS, "Ann")


def english(phrases: tuple[Phrase, ...]) -> tuple[str, ...]:
    """The phrases as an English-speaking table shows them."""
    return tuple(str(p) for p in phrases)


def test_the_editor_opens_on_the_next_round_with_the_table_as_read() -> None:
    editor = RoundEditor.open(started(), SLOTS, ROUND_1)
    assert editor.number == 1 and not editor.past
    assert editor.reveal() == ROUND_1
    kinds = [row.kind for row in editor.rows]
    assert kinds == [RowKind.ROUND] + [RowKind.CARD] * 4 + [RowKind.VOTE] * 3
    assert editor.problems() == ()
    preview = editor.preview()
    assert preview is not None and preview.deltas["Ann"] == 3


def test_a_round_entered_from_nothing_lists_what_is_missing() -> None:
    editor = RoundEditor.open(started(), SLOTS, Reveal({}))
    assert "Ann has not laid a card; one card expected" in english(editor.problems())
    assert editor.preview() is None


def test_changing_a_vote_moves_it_to_the_next_slot() -> None:
    editor = RoundEditor.open(started(), SLOTS, ROUND_1)
    vote_row = next(
        i for i, r in enumerate(editor.rows) if r.kind is RowKind.VOTE and r.player == "Cleo"
    )
    changed = editor.pick(vote_row).change(1)
    assert changed.reveal().votes["Cleo"] == (3,)
    assert changed.selected == vote_row
    assert english(changed.problems()) == ("Cleo voted for slot 3, their own card",)


def test_two_cards_on_one_slot_are_named() -> None:
    editor = RoundEditor.open(started(), SLOTS, ROUND_1)
    ben_card = next(
        i for i, r in enumerate(editor.rows) if r.kind is RowKind.CARD and r.player == "Ben"
    )
    clash = editor.pick(ben_card).change(-1)
    assert str(clash.problems()[0]) == "Ann and Ben both have a card on slot 1"


def test_the_round_row_switches_to_a_played_round_for_correction() -> None:
    game = started().play(ROUND_1)
    editor = RoundEditor.open(game, SLOTS, Reveal({}))
    assert editor.number == 2
    past = editor.pick(0).change(-1)
    assert past.number == 1 and past.past
    assert past.reveal() == ROUND_1
    assert past.before.played == ()


def test_a_finished_game_opens_on_its_last_round() -> None:
    game = Game.start(find_ruleset("odyssey").with_options({"target": 3}), PLAYERS, "Ann")
    game = game.play(ROUND_1)
    assert game.outcome is not None
    editor = RoundEditor.open(game, SLOTS, Reveal({}))
    assert editor.number == 1 and editor.past
    assert editor.pick(0).change(1).number == 1


def test_a_played_round_is_edited_with_its_own_storyteller() -> None:
    game = started().play(ROUND_1)
    past = RoundEditor.open(game, SLOTS, Reveal({})).pick(0).change(-1)
    assert past.rows[0].value == 1
    voters = [r.player for r in past.rows if r.kind is RowKind.VOTE]
    assert voters == ["Ben", "Cleo", "Dan"]
