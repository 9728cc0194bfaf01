"""Which field of the page's correction form a problem is about, so the page can say
it beside that field: a card's slot, a voter's vote dial, the trap.

The round is judged as the table's editor judges it (`RoundEditor.faults`), so the
page and the table name the same problems; a problem with no one field (a round
that would make later rounds impossible, a card missing altogether) is the form's.
"""

from collections.abc import Mapping, Sequence

from starlette.responses import JSONResponse, Response

from companion.language import Language, translations
from companion.phrases import Phrase
from companion.rules import Game, Reveal
from companion.session.editor import RoundEditor, Row, RowKind

FORM = ""
"""The key of the problems that are the whole form's."""


def field_name(row: Row) -> str | None:
    """The form field an editor row is answered in ("slot-3", "vote-Léa-1", "trap"),
    None for a row the form has no field for (a card not on any slot, the round)."""
    match row.kind:
        case RowKind.CARD if row.value is not None:
            return f"slot-{row.value}"
        case RowKind.VOTE if row.player is not None:
            return f"vote-{row.player}-{row.index}"
        case RowKind.TRAP:
            return "trap"
        case _:
            return None


def problems_by_field(
    game: Game, slots: Sequence[int], number: int, reveal: Reveal
) -> dict[str, Phrase]:
    """The first problem of each field of the form for round `number` as `reveal`
    says it (`FORM` for those of no one field)."""
    if not 1 <= number <= (game.round_number if game.outcome is None else len(game.played)):
        return {}
    board = tuple(sorted(set(slots) | set(reveal.cards)))
    editor = RoundEditor.open(game, board, Reveal({}), number).holding(reveal)
    found: dict[str, Phrase] = {}
    for fault in editor.faults():
        names = [field_name(editor.rows[i]) for i in fault.rows]
        for name in [n for n in names if n is not None] or [FORM]:
            found.setdefault(name, fault.words)
    return found


def refused_fields(problems: Mapping[str, Phrase], words: Phrase, language: Language) -> Response:
    """422 with the refusal's words (`error`, as every refusal has) and each field's
    problem (`fields`), in the table's language."""
    said = translations(language)
    body = {
        "error": words.render(said),
        "fields": {name: p.render(said) for name, p in problems.items() if name != FORM},
    }
    return JSONResponse(body, status_code=422, headers={"Cache-Control": "no-store"})
