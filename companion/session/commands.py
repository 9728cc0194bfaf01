"""What the phone page asks of the table, as frozen records, and the table's answer.

The web server never touches the game: it posts one of these to the loop's queue,
as the buttons post presses, and waits for the `Verdict` the loop hands back once
the session has acted on it. A press from the page (confirm, undo, next) is a plain
`Press`; the rest are the things only the page can ask in one go: a setup typed on a
phone, a past round corrected, the game given up without the table's question.

Each carries the version of the snapshot the page showed when it was made (`seen`): a
command that does not apply to the table as it is now is refused (`NotNow`: "nothing
to confirm now: the table is being cleared"), and so is one whose meaning depended on
what the page showed when the table has moved on since (`Stale`); the page is then
drawn again. Both refusals change nothing, and the web answers both with 409.

A change the journal could not keep is not made (`Unkept`): the page hears so in
plain words, and the café's log gets the journal's own words, which name its files
(the runtime, which carries out the session's effects, writes them there).
"""

from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field

from companion.actions import Press
from companion.phrases import Phrase, phrase
from companion.rules import Reveal


@dataclass(frozen=True)
class SetUp:
    """The game being set up at the table, as typed on a phone: any part may be left
    out (None or empty), and what is given is checked whole before any of it is taken."""

    ruleset: str | None = None
    """The edition's registry name."""
    options: Mapping[str, int | None] = field(default_factory=dict)
    """Options to set, by name (None: no limit)."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Names for the seats, by kit colour (empty: the colour's own name again)."""
    seen: int | None = None
    """The version of the snapshot the page showed (a setup is checked against the
    table as it is, whatever the page showed)."""


@dataclass(frozen=True)
class Correct:
    """A round of the game in progress, as it truly lay: a past one rescores the game
    from it, the one being played is written as entered by hand, with the same rules
    as the table's editor."""

    game_id: int
    """The game the page showed: a correction of another game than the table's is
    refused, whatever happened at the table since the page was drawn."""
    number: int
    """The round (1 for the first; the round being played to enter it by hand)."""
    reveal: Reveal
    """What lay on the table."""
    seen: int | None = None
    """The version of the snapshot the page showed: refused when the game's rounds have
    changed since (None: no check, as before versions were sent)."""


@dataclass(frozen=True)
class GiveUp:
    """Abandon the game in progress at once (the staff asked, behind the PIN): it stays
    in the journal, marked abandoned, and the table goes back to setting up."""

    seen: int | None = None
    """The version of the snapshot the page showed: refused when the game at the table
    (or its rounds) has changed since (None: no check)."""


Command = Press | SetUp | Correct | GiveUp
"""Anything the page can ask of the table."""


@dataclass(frozen=True)
class Unkept:
    """A change not made because the journal could not keep it."""

    words: Phrase
    """What players are told: plain words, never the journal's path or its errors."""
    card_full: bool = False
    """Whether the card (or disk) holding the journal is full."""


def unkept(card_full: bool) -> Unkept:
    """The words for a change the journal could not keep (the runtime puts the error in
    full on the café's log)."""
    if card_full:
        words = phrase("this was not kept: the memory card is full; make room, then try again")
        return Unkept(words, card_full=True)
    return Unkept(phrase("this was not kept: the table could not write it down; try again"))


@dataclass(frozen=True)
class NotNow:
    """A command that does not apply to the table as it is now (Confirm with no score
    proposed, or while the table is being cleared): nothing was done."""

    words: Phrase
    """What the page shows."""


@dataclass(frozen=True)
class Stale:
    """A command made from a snapshot whose meaning has changed since (the proposal it
    confirmed was replaced, a round was scored before it was undone): nothing was done,
    and the page is drawn again."""

    words: Phrase
    """What the page shows."""


Refusal = Phrase | Unkept | NotNow | Stale
"""Why a command was refused."""


@dataclass(frozen=True)
class Verdict:
    """What came of a command: the snapshot it left, and why it was refused, if it was."""

    version: int
    """The snapshot's version once the command was handled."""
    refused: Phrase | None = None
    """Why nothing was done, in words for the page; None when it was done."""
    unkept: Unkept | None = None
    """Set when nothing was done because the journal could not keep it (`refused`
    then holds its words)."""
    moved: NotNow | Stale | None = None
    """Set when the command did not apply to the table as it is, or was made from a
    snapshot whose meaning has changed (`refused` then holds its words)."""

    @classmethod
    def of(cls, version: int, answer: "Refusal | None") -> "Verdict":
        """The verdict for the session's answer: done (None), refused, or not kept."""
        match answer:
            case Unkept():
                return cls(version, answer.words, answer)
            case NotNow() | Stale():
                return cls(version, answer.words, moved=answer)
            case _:
                return cls(version, answer)


@dataclass(frozen=True)
class Request:
    """A command on its way to the loop, with where its verdict goes."""

    command: Command
    """What is asked."""
    reply: "Future[Verdict]" = field(default_factory=Future, compare=False)
    """Set by the loop once the session has acted on it."""
