"""What the screen shows of a session: every word and number, as a `ScreenView`.

The display decides where things go; this module decides what they say, so the
wording can be read and tested without drawing anything.
"""

from collections.abc import Mapping

from companion.app.editor import RoundEditor, Row, RowKind
from companion.app.session import Session
from companion.controls.actions import Action
from companion.display.view import (
    RGB,
    Breakdown,
    CameraView,
    EditorRow,
    EditorView,
    Level,
    Notice,
    OnScreenButton,
    Phase,
    Rabbit,
    ScoreLine,
    ScreenView,
    SetupView,
    WinnerView,
)
from companion.rules import Game, RoundScore
from companion.rules.wording import count, listing


def present(session: Session, now: float, camera: CameraView | None) -> ScreenView:
    """The screen for the session as it stands at `now`."""
    game = session.game
    editor = session.editor if session.phase is Phase.EDITING else None
    return ScreenView(
        phase=session.phase,
        title=_title(session),
        headline=_headline(session, camera),
        rabbits=_rabbits(session, session.positions(now)),
        notices=_notices(session, now),
        proposal=_breakdown(session, session.proposal, "Proposed score: round")
        if session.phase is Phase.PROPOSAL
        else None,
        last_round=_breakdown(session, game.played[-1].score, "Round") if game.played else None,
        camera=camera,
        buttons=_buttons(session),
        countdown=session.countdown(now),
        footer=_footer(session),
        editor=_editor(session, editor) if editor is not None else None,
        setup=_setup(session, now) if session.phase is Phase.SETUP else None,
        winner=_winner(session) if session.phase is Phase.WINNER else None,
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


def scorer_colours(session: Session, scorer: str) -> tuple[RGB, ...]:
    """A scorer's colours: one per member."""
    return tuple(session.lineup.rgb_of(p) for p in members(session.game, scorer))


def _title(session: Session) -> str:
    game = session.game
    if session.phase is Phase.SETUP:
        return f"{game.ruleset.title} - new game"
    if game.outcome is not None:
        return f"{game.ruleset.title} - game over after round {len(game.played)}"
    return f"{game.ruleset.title} - round {game.round_number}"


def _headline(session: Session, camera: CameraView | None) -> str:
    game = session.game
    number = game.round_number
    match session.phase:
        case Phase.SETUP:
            return f"Who tells first? {session.lineup.names[session.chosen]}"
        case Phase.PROPOSAL:
            return f"Round {number}: confirm the score?"
        case Phase.CLEARING if not game.played:
            return f"{game.first_storyteller} tells first. Clear the table"
        case Phase.CLEARING:
            return f"Round {len(game.played)} scored. Clear the table for round {number}"
        case Phase.EDITING:
            editor = session.editor
            return _editor_title(editor) if editor is not None else ""
        case Phase.WINNER:
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


def _rabbits(session: Session, positions: Mapping[str, float]) -> tuple[Rabbit, ...]:
    game = session.game
    teller = (
        session.lineup.names[session.chosen] if session.phase is Phase.SETUP else game.storyteller
    )
    return tuple(
        Rabbit(
            name=scorer_name(game, scorer),
            colours=scorer_colours(session, scorer),
            total=total,
            position=positions[scorer],
            storyteller=teller in members(game, scorer) and game.outcome is None,
        )
        for scorer, total in game.totals.items()
    )


def _notices(session: Session, now: float) -> tuple[Notice, ...]:
    notices: list[Notice] = []
    if session.message and now < session.message_until:
        notices.append(Notice(session.message, Level.INFO))
    report = session.report
    if session.phase is Phase.EDITING:
        problems = session.editor_problems
        if session.editor is not None:
            problems += session.editor.problems()
        return (*notices, *(Notice(p, Level.PROBLEM) for p in problems))
    if report is None or session.phase is Phase.WINNER:
        return tuple(notices)
    if session.phase is Phase.CLEARING:
        if not report.cleared:
            left = count(report.tokens, "token")
            notices.append(Notice(f"{left} still on the table", Level.WAITING))
        return tuple(notices)
    if session.phase is Phase.SETUP:
        return tuple(notices)
    if session.already_scored():
        number = len(session.game.played)
        notices.append(
            Notice(f"the table still shows round {number}, already scored: clear it", Level.WAITING)
        )
    notices += [Notice(p, Level.PROBLEM) for p in (*report.problems, *report.alerts)]
    notices += [Notice(w, Level.WAITING) for w in report.waiting]
    if report.ready and not session.steady:
        notices.append(Notice("hold still: the table is settling", Level.WAITING))
    notices += [Notice(n, Level.INFO) for n in report.notes]
    return tuple(notices)


def _breakdown(session: Session, score: RoundScore | None, title: str) -> Breakdown | None:
    if score is None:
        return None
    game = session.game
    reasons = score.reasons
    lines = tuple(
        ScoreLine(
            name=scorer_name(game, scorer),
            colours=scorer_colours(session, scorer),
            points=points,
            reasons=reasons[scorer],
        )
        for scorer, points in score.deltas.items()
    )
    return Breakdown(f"{title} {score.round.number}", lines)


def _buttons(session: Session) -> tuple[OnScreenButton, ...]:
    can_undo = bool(session.game.played)
    match session.phase:
        case Phase.SETUP:
            return (
                OnScreenButton("Previous", Action.LEFT),
                OnScreenButton("Next", Action.NEXT),
                OnScreenButton("Start", Action.CONFIRM),
            )
        case Phase.EDITING:
            ready = session.editor is not None and not session.editor.problems()
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


def _footer(session: Session) -> str:
    game = session.game
    parts = [f"draw pile {game.piles.draw}", f"discard {game.piles.discard}"]
    turns = game.ruleset.storyteller_turns
    if turns is not None:
        parts.append(f"game ends after {turns * len(game.seating)} rounds")
    if session.game_id is not None:
        parts.append(f"game {session.game_id}")
    return " - ".join(parts)


def _editor(session: Session, editor: RoundEditor) -> EditorView:
    rows = tuple(
        EditorRow(_row_label(row), _row_value(editor, row), i == editor.selected)
        for i, row in enumerate(editor.rows)
    )
    preview = editor.preview() if not editor.problems() else None
    return EditorView(
        title=_editor_title(editor),
        rows=rows,
        problems=(*session.editor_problems, *editor.problems()),
        preview=_breakdown(session, preview, "New score: round" if editor.past else "Round"),
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


def _setup(session: Session, now: float) -> SetupView:
    rules = session.ruleset
    terms = []
    if rules.target is not None:
        terms.append(f"to {rules.target} points")
    if rules.storyteller_turns is not None:
        terms.append(f"{count(rules.storyteller_turns, 'turn')} as storyteller each")
    lineup = session.lineup
    return SetupView(
        ruleset=f"{rules.title}, {' or '.join(terms) or 'until the deck runs out'}",
        players=tuple((name, lineup.rgb_of(name)) for name in lineup.names),
        chosen=session.chosen,
        hint=session.message
        if session.message and now < session.message_until
        else "Press Next or touch a name, then Start; or lay your owner token on a card",
    )


def _winner(session: Session) -> WinnerView:
    game = session.game
    outcome = game.outcome
    totals = game.totals
    standings = sorted(totals.items(), key=lambda item: -item[1])
    return WinnerView(
        winners=tuple(scorer_name(game, w) for w in outcome.winners) if outcome else (),
        reason=f"{outcome.termination.value} after round {outcome.after_round}" if outcome else "",
        standings=tuple(
            (scorer_name(game, s), scorer_colours(session, s), t) for s, t in standings
        ),
    )
