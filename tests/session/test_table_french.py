"""The table's reports, the editor's problems, the camera's state and the error screen's
words as a French table reads them."""

from companion.errors import CameraUnavailableError
from companion.kit.tags import KitTag, Role
from companion.language import Language, translations
from companion.phrases import Phrase
from companion.rules import Game, Reveal, find_ruleset
from companion.runtime.camera import WEDGED_MESSAGE, unavailable
from companion.runtime.config_error import TITLE, advice
from companion.session.editor import RoundEditor, RowKind
from companion.session.lineup import Lineup
from companion.session.table import read_table
from companion.vision.assign import token_label
from companion.vision.records import (
    Covered,
    Duplicate,
    SlotContents,
    TableObservation,
    Unplaced,
    Vote,
)

LINEUP = Lineup(("Ann", "Ben", "Cleo", "Dan"), ("red", "blue", "green", "yellow"))
GAME = Game.start(find_ruleset("odyssey"), LINEUP.names, "Ann")
FRENCH = translations(Language.FRENCH)
NBSP = "\u00a0"


def french(phrases: tuple[Phrase, ...]) -> tuple[str, ...]:
    return tuple(p.render(FRENCH) for p in phrases)


def cards_laid() -> dict[int, SlotContents]:
    """Ann tells on slot 1; Ben, Cleo and Dan lay on 2, 3 and 4; nobody has voted."""
    return {slot: SlotContents((colour,)) for slot, colour in enumerate(LINEUP.colours, 1)}


def test_votes_still_awaited_are_said_for_one_player_or_several() -> None:
    slots = cards_laid()
    slots[1] = SlotContents(("red",), (Vote("blue", 1),))
    report = read_table(TableObservation(slots), GAME, LINEUP)
    assert french(report.waiting) == ("Cleo et Dan n'ont pas encore voté",)
    slots[1] = SlotContents(("red",), (Vote("blue", 1), Vote("green", 1)))
    report = read_table(TableObservation(slots), GAME, LINEUP)
    assert french(report.waiting) == ("Dan n'a pas encore voté",)


def test_a_missing_owner_token_and_a_colour_nobody_plays_are_said() -> None:
    report = read_table(TableObservation({5: SlotContents((), (Vote("pink", 1),))}), GAME, LINEUP)
    assert (
        french(report.waiting)[1]
        == f"jetons de propriétaire manquants{NBSP}: Ann, Ben, Cleo et Dan"
    )
    assert french(report.problems) == (
        "une molette de vote du joueur rose est sur l'emplacement 5, mais personne ne joue en rose",
    )


def test_two_owner_tokens_on_one_card_name_both_players() -> None:
    slots = cards_laid()
    slots[3] = SlotContents(("green", "yellow"))
    del slots[4]
    report = read_table(TableObservation(slots), GAME, LINEUP)
    assert (
        f"2 jetons de propriétaire sur l'emplacement 3 (Cleo et Dan){NBSP}: "
        "une carte n'a qu'un propriétaire"
    ) in french(report.problems)


def test_a_token_off_the_cards_and_tokens_lying_twice_are_named_by_their_player() -> None:
    off = Unplaced(KitTag("CAFE1", Role.OWNER, colour="red", index=1).text, "between slots")
    twice = Duplicate(KitTag("CAFE1", Role.VOTE, colour="blue", index=1).text, (2, 5))
    trap = Duplicate(KitTag("CAFE1", Role.TRAP).text, (), 3)
    seen = TableObservation(unplaced=(off,), duplicates=(twice, trap))
    assert french(read_table(seen, GAME, LINEUP).problems)[:3] == (
        f"le jeton de propriétaire 1 d'Ann est hors des cartes{NBSP}: "
        "à poser sur une carte ou à retirer",
        "la molette de vote 1 de Ben est deux fois sur la table (emplacements 2 et 5)",
        "la molette piège est 3 fois sur la table (3 hors des cartes)",
    )


def test_a_token_hidden_under_another_is_said_with_both_tokens_and_the_slot() -> None:
    dial = KitTag("CAFE1", Role.VOTE, colour="yellow", index=2).text
    owner = KitTag("CAFE1", Role.OWNER, colour="red", index=1).text
    seen = TableObservation(cards_laid(), covered=(Covered(dial, 1, owner),))
    assert french(read_table(seen, GAME, LINEUP).problems) == (
        "le jeton de propriétaire 1 d'Ann recouvre la molette de vote 2 de Dan sur l'emplacement 1",
    )


def test_a_token_of_nobody_is_named_by_its_colour() -> None:
    dial = KitTag("CAFE1", Role.VOTE, colour="red", index=2)
    assert token_label(dial).render(FRENCH) == "la molette de vote 2 du joueur rouge"


def test_another_kits_tag_and_foreign_codes_are_said() -> None:
    other = KitTag("NEXT2", Role.VOTE, colour="red", index=1).text
    seen = TableObservation(foreign=(other, "https://menu.example"))
    report = read_table(seen, GAME, LINEUP)
    assert french(report.alerts) == ("une étiquette d'un autre kit (NEXT2) est sur la table",)
    assert french(report.notes) == ("1 code QR visible, ignoré par le compagnon",)
    seen = TableObservation(foreign=("https://menu.example", "4006381333931"))
    notes = read_table(seen, GAME, LINEUP).notes
    assert french(notes) == ("2 codes QR visibles, ignorés par le compagnon",)


def test_two_cards_on_one_slot_in_the_editor_are_said() -> None:
    laid = Reveal({1: "Ann", 2: "Ben", 3: "Cleo", 4: "Dan"}, {"Ben": (1,)})
    editor = RoundEditor.open(GAME, tuple(range(1, 9)), laid)
    ben = next(i for i, r in enumerate(editor.rows) if r.kind is RowKind.CARD and r.player == "Ben")
    clash = editor.pick(ben).change(-1)
    assert clash.problems()[0].render(FRENCH) == (
        "Ann et Ben ont chacun une carte sur l'emplacement 1"
    )


def test_a_camera_that_cannot_be_opened_or_is_stuck_is_said() -> None:
    problem = unavailable(CameraUnavailableError("no camera at /dev/video9"))
    assert problem.render(FRENCH) == f"caméra indisponible{NBSP}: no camera at /dev/video9"
    assert WEDGED_MESSAGE.render(FRENCH).startswith("la caméra est bloquée")


def test_the_error_screens_words_have_their_french() -> None:
    assert TITLE.render(FRENCH) == (
        f"La table ne peut pas démarrer{NBSP}: une de ses options est erronée"
    )
    assert advice()[1].render(FRENCH) == (f"puis{NBSP}: sudo systemctl restart dixit-companion")
