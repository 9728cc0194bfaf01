"""What the screen shows of a session's state: every word and number, as a `ScreenView`.

The display decides where things go; this module decides what they say, so the
wording can be read and tested without drawing anything. It reads a frozen
`SessionState` (a snapshot's), never the session itself.
"""

from collections.abc import Mapping

from companion.actions import Action
from companion.app.editor import RoundEditor, Row, RowKind
from companion.app.states import (
    Choosing,
    Clearing,
    Editing,
    Phase,
    Proposal,
    SessionState,
    Winner,
)
from companion.colours import RGB
from companion.display.view import (
    Breakdown,
    CameraView,
    EditorRow,
    EditorView,
    Level,
    Notice,
    OnScreenButton,
    Rabbit,
    ScoreLine,
    ScreenView,
    SetupView,
    WinnerView,
)
from companion.rules import Game, RoundScore
from companion.wording import count, listing


def present(state: SessionState, now: float, camera: CameraView | None) -> ScreenView:
    """The screen for the session as it stands at `now`."""
    game, at = state.game, state.at
    return ScreenView(
        title=_title(state),
        headline=_headline(state, camera),
        rabbits=_rabbits(state, state.positions(now)),
        notices=_notices(state, now),
        proposal=_breakdown(state, at.score, "Proposed score: round")
        if isinstance(at, Proposal)
        else None,
        last_round=_breakdown(state, game.played[-1].score, "Round") if game.played else None,
        camera=camera,
        buttons=_buttons(state),
        countdown=state.countdown(now),
        footer=_footer(state),
        editor=_editor(state, at) if isinstance(at, Editing) else None,
        setup=_setup(state, at, now) if isinstance(at, Choosing) else None,
        winner=_winner(state) if isinstance(at, Winner) else None,
        target=game.ruleset.target,
    )


def members(game: Game, scorer: str) -> tuple[str, ...]:
    """The players behind a scorer: the player, or a team's two members."""
    seating = game.seating
    if scorer in seating:
        return (scorer,)
    return dict(zip(seating.teams, seating.pairs, strict=True))[scorer]


def scorer_name(game: Game, scorer: str) -> str:
    """A scorer's name as shown: "Ann", or "Ann + Bob" for a team."""
    return " + ".join(members(game, scorer))


def scorer_colours(state: SessionState, scorer: str) -> tuple[RGB, ...]:
    """A scorer's colours: one per member."""
    return tuple(state.lineup.rgb_of(p) for p in members(state.game, scorer))


def _title(state: SessionState) -> str:
    game = state.game
    if state.phase is Phase.SETUP:
        return f"{game.ruleset.title} - new game"
    if game.outcome is not None:
        return f"{game.ruleset.title} - game over after round {len(game.played)}"
    return f"{game.ruleset.title} - round {game.round_number}"


def _headline(state: SessionState, camera: CameraView | None) -> str:
    game = state.game
    number = game.round_number
    match state.at:
        case Choosing(chosen=chosen):
            return f"Who tells first? {state.lineup.names[chosen]}"
        case Proposal():
            return f"Round {number}: confirm the score?"
        case Clearing() if not game.played:
            return f"{game.first_storyteller} tells first. Clear the table"
        case Clearing():
            return f"Round {len(game.played)} scored. Clear the table for round {number}"
        case Editing(editor=editor):
            return _editor_title(editor)
        case Winner():
            outcome = game.outcome
            winners = [scorer_name(game, w) for w in outcome.winners] if outcome else []
            return f"{listing(winners)} win{'s' if len(winners) == 1 else ''}!"
        case _:
            if camera is not None and not camera.working:
                return f"Round {number}: {game.storyteller} tells. Press Fix to enter it by hand"
            return f"Round {number}: {game.storyteller} tells"


def _editor_title(editor: RoundEditor) -> str:
    if editor.past:
        return f"Correct round {editor.number}"
    return f"Enter round {editor.number} by hand"


def _rabbits(state: SessionState, positions: Mapping[str, float]) -> tuple[Rabbit, ...]:
    game = state.game
    at = state.at
    teller = state.lineup.names[at.chosen] if isinstance(at, Choosing) else game.storyteller
    return tuple(
        Rabbit(
            name=scorer_name(game, scorer),
            colours=scorer_colours(state, scorer),
            total=total,
            position=positions[scorer],
            storyteller=teller in members(game, scorer) and game.outcome is None,
        )
        for scorer, total in game.totals.items()
    )


def _notices(state: SessionState, now: float) -> tuple[Notice, ...]:
    notices: list[Notice] = []
    message = state.says(now)
    if message:
        notices.append(Notice(message, Level.INFO))
    at, table = state.at, state.table
    if isinstance(at, Editing):
        problems = (*at.problems, *at.editor.problems())
        return (*notices, *(Notice(p, Level.PROBLEM) for p in problems))
    if table is None or state.phase is Phase.WINNER:
        return tuple(notices)
    report = table.report
    if state.phase is Phase.CLEARING:
        if not report.cleared:
            left = count(report.tokens, "token")
            notices.append(Notice(f"{left} still on the table", Level.WAITING))
        return tuple(notices)
    if state.phase is Phase.SETUP:
        return tuple(notices)
    if state.already_scored():
        number = len(state.game.played)
        notices.append(
            Notice(f"the table still shows round {number}, already scored: clear it", Level.WAITING)
        )
    notices += [Notice(p, Level.PROBLEM) for p in (*report.problems, *report.alerts)]
    notices += [Notice(w, Level.WAITING) for w in report.waiting]
    if report.ready and not table.steady:
        notices.append(Notice("hold still: the table is settling", Level.WAITING))
    notices += [Notice(n, Level.INFO) for n in report.notes]
    return tuple(notices)


def _breakdown(state: SessionState, score: RoundScore | None, title: str) -> Breakdown | None:
    if score is None:
        return None
    game = state.game
    reasons = score.reasons
    lines = tuple(
        ScoreLine(
            name=scorer_name(game, scorer),
            colours=scorer_colours(state, scorer),
            points=points,
            reasons=reasons[scorer],
        )
        for scorer, points in score.deltas.items()
    )
    return Breakdown(f"{title} {score.round.number}", lines)


def _buttons(state: SessionState) -> tuple[OnScreenButton, ...]:
    can_undo = bool(state.game.played)
    match state.phase:
        case Phase.SETUP:
            return (
                OnScreenButton("Previous", Action.LEFT),
                OnScreenButton("Next", Action.NEXT),
                OnScreenButton("Start", Action.CONFIRM),
            )
        case Phase.EDITING:
            ready = state.editor is not None and not state.editor.problems()
            return (
                OnScreenButton("Up", Action.UP),
                OnScreenButton("Down", Action.DOWN),
                OnScreenButton("<", Action.LEFT),
                OnScreenButton(">", Action.RIGHT),
                OnScreenButton("Save", Action.CONFIRM, enabled=ready),
                OnScreenButton("Cancel", Action.BACK),
            )
        case Phase.PROPOSAL:
            first = OnScreenButton("Confirm", Action.CONFIRM)
        case Phase.CLEARING:
            first = OnScreenButton("Next round", Action.CONFIRM)
        case Phase.WINNER:
            first = OnScreenButton("New game", Action.CONFIRM)
        case _:
            first = OnScreenButton("Confirm", Action.CONFIRM, enabled=False)
    return (
        first,
        OnScreenButton("Fix", Action.FIX),
        OnScreenButton("Undo", Action.UNDO, enabled=can_undo),
    )


def _footer(state: SessionState) -> str:
    game = state.game
    parts = [f"draw pile {game.piles.draw}", f"discard {game.piles.discard}"]
    turns = game.ruleset.storyteller_turns
    if turns is not None:
        parts.append(f"game ends after {turns * len(game.seating)} rounds")
    if state.game_id is not None:
        parts.append(f"game {state.game_id}")
    return " - ".join(parts)


def _editor(state: SessionState, editing: Editing) -> EditorView:
    editor = editing.editor
    rows = tuple(
        EditorRow(_row_label(row), _row_value(editor, row), i == editor.selected)
        for i, row in enumerate(editor.rows)
    )
    preview = editor.preview() if not editor.problems() else None
    return EditorView(
        title=_editor_title(editor),
        rows=rows,
        problems=(*editing.problems, *editor.problems()),
        preview=_breakdown(state, preview, "New score: round" if editor.past else "Round"),
    )


def _row_label(row: Row) -> str:
    suffix = f" {row.index}" if row.index > 1 else ""
    match row.kind:
        case RowKind.ROUND:
            return "Round"
        case RowKind.CARD:
            return f"{row.player}'s card{suffix}"
        case RowKind.VOTE:
            return f"{row.player}'s vote{suffix}"
        case RowKind.TRAP:
            return "Trap"


def _row_value(editor: RoundEditor, row: Row) -> str:
    if row.kind is RowKind.ROUND:
        return f"{row.value} ({'played' if editor.past else 'playing now'})"
    return "none" if row.value is None else f"slot {row.value}"


def _setup(state: SessionState, choosing: Choosing, now: float) -> SetupView:
    rules = state.game.ruleset
    terms = []
    if rules.target is not None:
        terms.append(f"to {rules.target} points")
    if rules.storyteller_turns is not None:
        terms.append(f"{count(rules.storyteller_turns, 'turn')} as storyteller each")
    lineup = state.lineup
    return SetupView(
        ruleset=f"{rules.title}, {' or '.join(terms) or 'until the deck runs out'}",
        players=tuple((name, lineup.rgb_of(name)) for name in lineup.names),
        chosen=choosing.chosen,
        hint=state.says(now)
        or "Press Next or touch a name, then Start; or lay your owner token on a card",
    )


def _winner(state: SessionState) -> WinnerView:
    game = state.game
    outcome = game.outcome
    totals = game.totals
    standings = sorted(totals.items(), key=lambda item: -item[1])
    return WinnerView(
        winners=tuple(scorer_name(game, w) for w in outcome.winners) if outcome else (),
        reason=f"{outcome.termination.value} after round {outcome.after_round}" if outcome else "",
        standings=tuple((scorer_name(game, s), scorer_colours(state, s), t) for s, t in standings),
    )
