"""What waits for the staff at the table, for the staff page: a score to confirm with
its countdown, a problem that blocks scoring, the table to clear, or nothing, with
only the buttons that apply now.

Drawn from the same frozen state the session judges commands by, and asked of the
session's own rule (`versions.refusal`): a button is offered only where the command
it posts would be taken, so Confirm is never offered while the table is cleared, nor
when no score is proposed. The page sends back the version it was drawn from.
"""

import enum
from dataclasses import dataclass

from companion.actions import Action, Press
from companion.phrases import Phrase, phrase
from companion.session.states import (
    Abandoning,
    Clearing,
    Editing,
    Proposal,
    SessionState,
    Waiting,
    Winner,
)
from companion.session.versions import refusal
from companion.view.present import scorer_name


class Kind(enum.Enum):
    """What kind of thing waits for the staff (the page's `data-pending`)."""

    PROPOSAL = "proposal"
    """A score waits for Confirm, or for its countdown."""
    PROBLEM = "problem"
    """Something on the table stops the round being scored."""
    CLEARING = "clearing"
    """The round is scored: the table is being cleared."""
    NOTHING = "nothing"
    """Nothing to confirm or put right."""


class StaffAction(enum.Enum):
    """A button of the staff page, by the action it posts to `POST /api/actions`."""

    CONFIRM = "confirm"
    NEXT = "next"
    UNDO = "undo"
    ABANDON = "abandon"


@dataclass(frozen=True)
class Points:
    """A scorer's points in the proposed round."""

    name: str
    points: int


@dataclass(frozen=True)
class Pending:
    """What the staff page shows of the table now."""

    version: int
    """The snapshot's version: sent back with every button."""
    kind: Kind
    headline: Phrase
    """What waits, in one line."""
    details: tuple[Phrase, ...] = ()
    """The problems that block scoring, what is left to clear, what the table waits for."""
    points: tuple[Points, ...] = ()
    """The proposed round's points, in seating order."""
    countdown: float | None = None
    """Seconds before the proposal confirms itself (None: it waits for Confirm)."""
    actions: tuple[StaffAction, ...] = ()
    """The buttons that apply now, in the page's order."""


def pending(state: SessionState, version: int, now: float) -> Pending:
    """What waits for the staff in `state`, published as `version`, at `now`."""
    kind, headline, details, points = _what(state)
    return Pending(
        version,
        kind,
        headline,
        details,
        points,
        state.countdown(now) if kind is Kind.PROPOSAL else None,
        _actions(state),
    )


def _what(state: SessionState) -> tuple[Kind, Phrase, tuple[Phrase, ...], tuple[Points, ...]]:
    at, game = state.at, state.game
    report = state.table.report if state.table is not None else None
    match at:
        case _ if state.setting_up:
            return Kind.NOTHING, phrase("The table is setting up a game"), (), ()
        case Proposal(score=score):
            headline = phrase("Round {number}: a score is proposed", number=score.round.number)
            points = tuple(Points(scorer_name(game, s), p) for s, p in score.deltas.items())
            return Kind.PROPOSAL, headline, (), points
        case Clearing():
            headline = phrase(
                "Round {number} is scored: the table is being cleared", number=len(game.played)
            )
            left = report.waiting if report is not None and not report.cleared else ()
            return Kind.CLEARING, headline, left, ()
        case Waiting() if report is not None and (report.problems or report.alerts):
            blocked = phrase("Round {number} cannot be scored yet", number=game.round_number)
            return Kind.PROBLEM, blocked, (*report.problems, *report.alerts), ()
        case Waiting():
            waits = report.waiting if report is not None else ()
            nothing = phrase(
                "Nothing to confirm: round {number} is being laid out", number=game.round_number
            )
            return Kind.NOTHING, nothing, waits, ()
        case Editing():
            return Kind.NOTHING, phrase("A round is being entered by hand at the table"), (), ()
        case Abandoning():
            return Kind.NOTHING, phrase("The table asks whether to give up the game"), (), ()
        case Winner():
            return Kind.NOTHING, phrase("The game is over"), (), ()
        case _:
            return Kind.NOTHING, phrase("The table is setting up a game"), (), ()


def _actions(state: SessionState) -> tuple[StaffAction, ...]:
    """The buttons whose command the session would take now (Next only while the table
    is cleared: it says the table is clear; giving up only during a game)."""
    offered: list[StaffAction] = []
    if refusal(state, Press(Action.CONFIRM)) is None:
        offered.append(StaffAction.CONFIRM)
    if isinstance(state.at, Clearing):
        offered.append(StaffAction.NEXT)
    if not isinstance(state.at, Winner) and refusal(state, Press(Action.UNDO)) is None:
        offered.append(StaffAction.UNDO)
    playing = state.game_id is not None and state.game.outcome is None and not state.setting_up
    if playing and isinstance(state.at, Waiting | Proposal | Clearing | Editing | Abandoning):
        offered.append(StaffAction.ABANDON)
    return tuple(offered)
