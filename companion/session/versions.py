"""Whether a press or a command still means what it meant when it was made.

A Confirm means "keep the score I see"; an Undo, "take back the last round I see".
Each carries the version of the snapshot on the screen (or the page) it was made
from. As each snapshot is published, `marked` notes the versions at which the phase
(or its proposal) and the game's rounds last changed; a press made from an older
snapshot than the change its meaning depends on is stale, and is not carried out.
Anything else moving meanwhile (a token nudged, the countdown) changes nothing.
"""

from dataclasses import replace

from companion.actions import Action, Press
from companion.phrases import phrase
from companion.session.commands import Command, Correct, GiveUp, NotNow, SetUp, Stale
from companion.session.states import (
    Abandoning,
    Clearing,
    Editing,
    Proposal,
    SessionState,
    Winner,
)

TABLE_MOVED = phrase("the table has changed since this page was drawn: look again")
"""Why a page's Confirm or Next made from an older snapshot is refused."""
GAME_MOVED = phrase("the game has changed since this page was drawn: look again")
"""Why a page's Undo, correction or giving up made from an older snapshot is refused."""
SCREEN_MOVED = phrase("the screen changed as you pressed: look, then press again")
"""Shown at the table when a Confirm, Next or Undo pressed there meant something else
on the screen the player saw."""


def marked(before: SessionState, after: SessionState, version: int) -> SessionState:
    """`after` as published at `version`, with the versions at which its phase and its
    game's rounds last changed (those of `before` when they did not)."""
    marks = after.marks
    phase = version if _phase_key(after) != _phase_key(before) else marks.phase
    rounds = version if _rounds_key(after) != _rounds_key(before) else marks.rounds
    return replace(after, marks=replace(marks, version=version, phase=phase, rounds=rounds))


def stale(state: SessionState, action: Action, seen: int | None) -> bool:
    """Whether `action`, made from the snapshot of version `seen`, no longer means what
    it meant then: Confirm and Next once the phase (or the proposal) has changed, Undo
    once the game's rounds have; any of them from a version this table never
    published (a page drawn before a restart). None: made from the state now."""
    if seen is None:
        return False
    marks = state.marks
    if seen > marks.version:
        return True
    match action:
        case Action.CONFIRM | Action.NEXT:
            return seen < marks.phase
        case Action.UNDO:
            return seen < marks.rounds
        case _:
            return False


def stale_game(state: SessionState, seen: int | None) -> bool:
    """Whether the game at the table (or its rounds) changed since the snapshot of
    version `seen` (a correction or giving up made from it meant another game)."""
    return seen is not None and (seen > state.marks.version or seen < state.marks.rounds)


def refusal(state: SessionState, command: Command) -> NotNow | Stale | None:
    """Why a command from the page is not carried out: it does not apply to the table
    as it is (`NotNow`), or its meaning has changed since the snapshot it was made
    from (`Stale`); None when it goes ahead (the phase's own transitions may still
    refuse it for their own reasons)."""
    match command:
        case Press():
            return _press_refusal(state, command)
        case Correct(seen=seen) | GiveUp(seen=seen) if stale_game(state, seen):
            return Stale(GAME_MOVED)
        case Correct() | GiveUp() | SetUp():
            return None


def _press_refusal(state: SessionState, press: Press) -> NotNow | Stale | None:
    """A press from the staff's page: Confirm keeps a proposed score and nothing else
    (it never says the table is cleared, nor gives a game up), Undo takes back a round
    only outside a question, Next goes on."""
    at, action = state.at, press.action
    busy = isinstance(at, Editing | Abandoning)
    if busy and action in (Action.CONFIRM, Action.UNDO, Action.NEXT):
        return NotNow(phrase("the table is busy with a question: answer it there first"))
    if action is Action.CONFIRM and isinstance(at, Clearing):
        return NotNow(phrase("nothing to confirm now: the table is being cleared"))
    if action is Action.CONFIRM and isinstance(at, Winner):
        return NotNow(phrase("nothing to confirm now: the game is over"))
    if action is Action.CONFIRM and not isinstance(at, Proposal):
        return NotNow(phrase("nothing to confirm now: no score is proposed"))
    if action is Action.UNDO and (
        state.setting_up or state.game_id is None or not state.game.played
    ):
        return NotNow(phrase("there is no round to undo"))
    if stale(state, action, press.seen):
        return Stale(GAME_MOVED if action is Action.UNDO else TABLE_MOVED)
    return None


def _phase_key(state: SessionState) -> object:
    at = state.at
    if isinstance(at, Proposal):
        return (Proposal, at.score, at.since)
    return type(at)


def _rounds_key(state: SessionState) -> object:
    return (state.game_id, state.game.played)
