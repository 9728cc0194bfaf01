"""The round editor asked one question at a time, as the table's screen asks it.

Each row of the editor is a question ("Margot's card: which slot?"), asked in turn;
after the last comes a short summary, where Confirm saves the round. The questions
are the editor's rows and their answers its values, so what gets scored (and how a
past round is corrected) is the editor's, unchanged: this only says which question
is asked, how far along it is, and what is wrong with its answer.

How the presses move through the questions (`Questions.pressed` is the one place):

- Next (and the right key) gives the next answer, the left key the one before.
- Confirm goes on: to the summary once the round can be scored, else to the next
  question; on the summary it saves (the caller does), or, when the round cannot be
  scored, goes back to the first question at fault.
- A long hold on Next (and the down key) is the next question, the up key the one
  before; past the summary the questions start again.
"""

from dataclasses import dataclass, replace

from companion.actions import Action, Press
from companion.phrases import Phrase
from companion.session.editor import Fault, RoundEditor, Row


@dataclass(frozen=True)
class Questions:
    """Where the asking stands: the editor and whether its summary is shown."""

    editor: RoundEditor
    """The answers so far, and (as its selected row) the question asked."""
    reviewing: bool = False
    """Whether the summary is shown rather than a question."""

    @property
    def count(self) -> int:
        """How many steps there are: every question, then the summary."""
        return len(self.editor.rows) + 1

    @property
    def step(self) -> int:
        """Which step this is, from 1 to `count` (the summary)."""
        return self.count if self.reviewing else self.editor.selected + 1

    @property
    def row(self) -> Row | None:
        """The question asked (None on the summary)."""
        return None if self.reviewing else self.editor.rows[self.editor.selected]

    @property
    def legal(self) -> bool:
        """Whether the round as answered can be scored (and so saved)."""
        return not self.editor.problems()

    def saves(self, press: Press) -> bool:
        """Whether `press` saves the round: Confirm on the summary of a legal round."""
        return press.action is Action.CONFIRM and self.reviewing and self.legal

    def faults(self) -> tuple[Fault, ...]:
        """What is wrong with the answer to the question asked; on the summary, what
        is wrong with the round as a whole and is no one question's."""
        if self.reviewing:
            return tuple(f for f in self.editor.faults() if not f.rows)
        return tuple(f for f in self.editor.faults() if self.editor.selected in f.rows)

    def problems(self) -> tuple[Phrase, ...]:
        """`faults` in words."""
        return tuple(f.words for f in self.faults())

    def unanswered(self) -> int:
        """How many questions at fault have no answer yet."""
        at_fault = {i for f in self.editor.faults() for i in f.rows}
        return sum(1 for i in at_fault if self.editor.rows[i].value is None)

    def first_at_fault(self) -> int | None:
        """The first question whose answer is at fault, if any is."""
        at_fault = [i for f in self.editor.faults() for i in f.rows]
        return min(at_fault) if at_fault else None

    def pressed(self, press: Press) -> "Questions":
        """The asking after `press` (when the press `saves`, the caller saves the
        round; the asking itself stays on the summary)."""
        match press.action:
            case Action.UP:
                return self.previous()
            case Action.DOWN | Action.FIX:
                return self.next()
            case Action.PICK if press.target is not None:
                return Questions(self.editor.pick(press.target))
            case Action.LEFT:
                return self.answer(-1)
            case Action.RIGHT | Action.NEXT:
                return self.answer(1)
            case Action.CONFIRM:
                return self.go_on()
            case _:
                return self

    def next(self) -> "Questions":
        """The next step: the summary after the last question, the first after it."""
        last = len(self.editor.rows) - 1
        if self.reviewing:
            return Questions(self.editor.pick(0))
        if self.editor.selected >= last:
            return replace(self, reviewing=True)
        return Questions(self.editor.move(1))

    def previous(self) -> "Questions":
        """The step before: the last question before the summary, the summary before
        the first question."""
        if self.reviewing:
            return Questions(self.editor.pick(len(self.editor.rows) - 1))
        if self.editor.selected == 0:
            return replace(self, reviewing=True)
        return Questions(self.editor.move(-1))

    def answer(self, step: int) -> "Questions":
        """The question's answer moved `step` places along its choices (nothing on the
        summary)."""
        if self.reviewing:
            return self
        return Questions(self.editor.change(step))

    def go_on(self) -> "Questions":
        """Confirm: the summary once the round can be scored, else the next question;
        from a summary that cannot be saved, the first question at fault."""
        if self.reviewing:
            fault = self.first_at_fault()
            return self if fault is None else Questions(self.editor.pick(fault))
        if self.legal:
            return replace(self, reviewing=True)
        return self.next()
