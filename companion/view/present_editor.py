"""What the round editor's screen says: one question, its answer, what is wrong with
that answer alone, how far along the questions are, and at the end a short summary.

Like `present`, this decides the words, in the table's language, and leaves where
they go to the display.
"""

from companion.display.view import Breakdown, EditorView
from companion.phrases import Phrase, Translations, in_context, phrase, plural, verbatim
from companion.session.editor import RoundEditor, Row, RowKind
from companion.session.states import Editing


def editor_title(editor: RoundEditor) -> Phrase:
    """What the editor is doing: entering the round playing now, or correcting one."""
    if editor.past:
        return phrase("Correct round {number}", number=editor.number)
    return phrase("Enter round {number} by hand", number=editor.number)


def editor_view(editing: Editing, words: Translations, preview: Breakdown | None) -> EditorView:
    """The editor's screen; `preview` is the score the round would get (None when it
    cannot be scored), shown on the summary."""
    asked = editing.questions
    editor = asked.editor
    progress = phrase("{step} / {count}", step=asked.step, count=asked.count)
    title = editor_title(editor).render(words)
    row = asked.row
    if row is None:
        return _summary(editing, words, preview, title, progress.render(words))
    problems = asked.problems()
    return EditorView(
        title=title,
        question=question(row).render(words),
        answer=answer(editor, row).render(words),
        progress=progress.render(words),
        problem=problems[0].render(words) if problems else "",
        unanswered=bool(problems) and row.value is None,
    )


def _summary(
    editing: Editing, words: Translations, preview: Breakdown | None, title: str, progress: str
) -> EditorView:
    asked = editing.questions
    number = asked.editor.number
    refused = (*editing.problems, *asked.problems())
    if asked.legal and not editing.problems:
        return EditorView(
            title=title,
            question=phrase("Save round {number}?", number=number).render(words),
            answer="",
            progress=progress,
            summary=(
                phrase("Press {button} to save it", button=in_context("button", "Save")).render(
                    words
                ),
            ),
            preview=preview,
            reviewing=True,
        )
    missing = asked.unanswered()
    wrong = len({i for f in asked.editor.faults() for i in f.rows}) - missing
    lines = []
    if missing:
        lines.append(
            plural("{n} question still to answer", "{n} questions still to answer", missing).render(
                words
            )
        )
    if wrong:
        lines.append(
            plural("{n} answer not allowed", "{n} answers not allowed", wrong).render(words)
        )
    if asked.first_at_fault() is not None:
        go = phrase(
            "{button} goes to the first question to put right",
            button=in_context("button", "Confirm"),
        )
        lines.append(go.render(words))
    return EditorView(
        title=title,
        question=phrase("Round {number} cannot be saved yet", number=number).render(words),
        answer="",
        progress=progress,
        problem=refused[0].render(words) if refused else "",
        summary=tuple(lines),
        reviewing=True,
    )


def question(row: Row) -> Phrase:
    """What a row asks, as a question."""
    player = row.player or ""
    match row.kind:
        case RowKind.ROUND:
            return phrase("Which round?")
        case RowKind.CARD if row.index > 1:
            return phrase("{player}'s card {index}: which slot?", player=player, index=row.index)
        case RowKind.CARD:
            return phrase("{player}'s card: which slot?", player=player)
        case RowKind.VOTE if row.index > 1:
            return phrase("{player}'s vote {index}: which slot?", player=player, index=row.index)
        case RowKind.VOTE:
            return phrase("{player}'s vote: which slot?", player=player)
        case RowKind.TRAP:
            return phrase("The trap: which slot?")


def answer(editor: RoundEditor, row: Row) -> Phrase:
    """A row's answer as it stands."""
    if row.kind is RowKind.ROUND:
        if editor.past:
            return phrase("{number} (played)", number=row.value or 0)
        return phrase("{number} (playing now)", number=row.value or 0)
    if row.value is None:
        return in_context("editor value", "none")
    return verbatim(str(row.value))
